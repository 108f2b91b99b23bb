import ObjCTypeEncoding

/// Reads an archive as a stream of ``Token``s, each with its byte range and every wire decision.
///
/// The reader works on one contiguous buffer and never copies string or data payloads: they
/// are slices of the input. It keeps the two reference tables (shared strings and the object
/// table) so references are checked as they are read. Nesting uses an explicit stack bounded by
/// ``DecodingLimits/maximumNesting``, so hostile input cannot overflow the call stack.
///
/// ```swift
/// var reader = TokenReader(bytes: archiveBytes)
/// while let token = try reader.next() {
///     print(token.start, token.kind)
/// }
/// ```
public struct TokenReader {
    /// What an object-table slot holds.
    public enum SlotKind: UInt8, Hashable, Sendable {
        /// An object.
        case object
        /// A class.
        case `class`
        /// A C string.
        case cString
    }

    /// What the reader is in the middle of. Plain integers only, so pushing and popping costs
    /// no reference counting.
    private struct Frame {
        enum Kind: UInt8 {
            /// Groups at the top level.
            case topLevel
            /// The values of a group: operations `pc..<end` of the compiled type program.
            case group
            /// An array body `pc..<end`, `remaining` more times after this one from `bodyStart`.
            case array
            /// A class chain after a new object.
            case objectClassChain
            /// A class chain that is a `#` value.
            case valueClassChain
            /// The streamer-3 instance size after an object's class chain.
            case instanceSize
            /// An object's groups until its end-of-object marker.
            case objectContents
        }
        var kind: Kind
        var pc: Int32 = 0
        var end: Int32 = 0
        var bodyStart: Int32 = 0
        var remaining: Int32 = 0
    }

    /// The whole input.
    public let bytes: [UInt8]
    /// The offset of the next unread byte.
    public private(set) var offset = 0
    /// The header, once read.
    public private(set) var header: StreamHeader?
    /// The limits in force.
    public let limits: DecodingLimits
    /// The shared-string table so far: slot `i` is the text of the `i`-th literal shared string.
    public private(set) var sharedStrings: [ArraySlice<UInt8>] = []
    /// The object table so far: what each slot holds.
    public private(set) var objectSlots: [SlotKind] = []
    /// For object-table slots that hold a class or C string, the shared-string slot of its text.
    public private(set) var slotText: [Int: Int] = [:]

    private var parsedTypes: [[ObjCType]?] = []
    /// Per shared-string slot: the range of its compiled operations (`nil` until used as a type).
    private var programRanges: [Range<Int>?] = []
    private var program = TypeProgram()

    /// The types of the type string in shared-string slot `index`, once a group has used it.
    public func types(ofSharedString index: Int) -> [ObjCType]? {
        index >= 0 && index < parsedTypes.count ? parsedTypes[index] : nil
    }
    private var stack: [Frame] = [Frame(kind: .topLevel)]
    private var nesting = 0
    private var littleEndian = true
    private var pending: Token?
    /// Values read so far that take no bytes and hold no other value (see ``countEmptyValue(at:)``).
    private var emptyValues = 0
    /// Streamer 3: whether each shared string probed so far parses as types.
    private var typeStringProbes: [Int: Bool] = [:]

    /// Creates a reader over `bytes`.
    public init(bytes: [UInt8], limits: DecodingLimits = .default) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Whether every byte has been read and every object closed.
    public var isAtEnd: Bool { header != nil && offset == bytes.count && stack.count == 1 }

    /// The current nesting depth (objects, arrays and structs open).
    public var depth: Int { nesting }

    /// Reads the next token, or returns `nil` after the last byte. Throws ``WireError`` with the
    /// offset of the offending byte on malformed, truncated or foreign input.
    public mutating func next() throws(WireError) -> Token? {
        guard header != nil else { return try readHeader() }
        if let token = pending {
            pending = nil
            return token
        }
        while true {
            guard let frame = stack.last else { return nil }
            let start = offset
            switch frame.kind {
            case .topLevel:
                if offset == bytes.count { return nil }
                return try readGroupStart()
            case .objectContents:
                guard offset < bytes.count else {
                    throw WireError(.truncated, at: offset, "expected a type string or end of object (0x86), found end of data")
                }
                if bytes[offset] == HeadByte.endOfObject {
                    offset += 1
                    stack.removeLast()
                    nesting -= 1
                    return Token(.endOfObject, start: start, end: offset, depth: nesting)
                }
                return try readGroupStart()
            case .group:
                if frame.pc == frame.end {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].pc = frame.pc + 1
                if let token = try execute(Int(frame.pc)) { return token }
            case .array:
                if frame.pc < frame.end {
                    stack[stack.count - 1].pc = frame.pc + 1
                    if let token = try execute(Int(frame.pc)) { return token }
                    continue
                }
                if frame.remaining > 1 {
                    stack[stack.count - 1].remaining = frame.remaining - 1
                    stack[stack.count - 1].pc = frame.bodyStart
                    continue
                }
                stack.removeLast()
                nesting -= 1
                return Token(.arrayEnd, start: start, end: start, depth: nesting)
            case .objectClassChain, .valueClassChain:
                let (link, ends) = try readClassLink()
                let token = Token(.classLink(link), start: start, end: offset, depth: nesting)
                if ends {
                    stack.removeLast()
                    if frame.kind == .objectClassChain {
                        stack.append(Frame(kind: .objectContents))
                        if header?.streamerVersion == 3 { stack.append(Frame(kind: .instanceSize)) }
                    }
                }
                return token
            case .instanceSize:
                stack.removeLast()
                let head = try readByte("the instance size of a streamer-3 object")
                let size = try readInteger(head: head, at: start, what: "instance size", allowInt64: false)
                return Token(.instanceSize(size), start: start, end: offset, depth: nesting)
            }
        }
    }

    /// Reads every remaining token into an array. Throws ``WireError``.
    public mutating func readAll() throws(WireError) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 3)
        while let token = try next() { tokens.append(token) }
        return tokens
    }

    // MARK: - Header

    private mutating func readHeader() throws(WireError) -> Token {
        if bytes.isEmpty { throw WireError(.empty, at: 0, "the input is empty") }
        guard bytes.count <= limits.maximumInputSize else {
            throw WireError(.limitExceeded, at: 0, "the input has \(bytes.count) bytes, more than the limit of \(limits.maximumInputSize)")
        }
        if bytes.starts(with: "bplist00".utf8) {
            throw WireError(.foreignKeyedArchive, at: 0, "this is a binary property list (bplist00), such as an NSKeyedArchiver archive, not a typedstream")
        }
        if bytes.starts(with: "GNUstep archive".utf8) {
            throw WireError(.foreignGNUstep, at: 0, "this is a GNUstep archive (header 'GNUstep archive'), a different format from Apple's typedstream")
        }
        if bytes.starts(with: "<?xml".utf8) || bytes.starts(with: "bplist".utf8) {
            throw WireError(.foreignKeyedArchive, at: 0, "this is a property list, not a typedstream")
        }
        let version = bytes[0]
        offset = 1
        guard version == 3 || version == 4 else {
            if bytes.count >= 13, ByteOrder(signature: bytes[2..<13]) != nil {
                throw WireError(.unsupportedVersion, at: 0, "streamer version \(version) is not supported (only 3 and 4 exist)")
            }
            throw WireError(.badHeader, at: 0, "not a typedstream: expected streamer version 3 or 4, found byte 0x\(String(version, radix: 16))")
        }
        let lengthByte = try readByte("the signature length")
        guard lengthByte == UInt8(StreamHeader.signatureLength) else {
            throw WireError(.badHeader, at: 1, "expected signature length 11, found \(HeadByte.describe(lengthByte))")
        }
        guard bytes.count >= offset + StreamHeader.signatureLength else {
            throw WireError(.truncated, at: offset, "expected the 11-byte signature, found end of data")
        }
        guard let order = ByteOrder(signature: bytes[offset..<offset + 11]) else {
            throw WireError(.badHeader, at: offset, "expected the signature 'typedstream' or 'streamtyped', found '\(String(decoding: bytes[offset..<offset + 11], as: UTF8.self))'")
        }
        offset += 11
        littleEndian = order == .little
        let systemStart = offset
        let head = try readByte("the system version")
        let system = try readInteger(head: head, at: systemStart, what: "system version", allowInt64: false)
        let parsed = StreamHeader(streamerVersion: version, byteOrder: order, systemVersion: system)
        header = parsed
        return Token(.header(parsed), start: 0, end: offset, depth: 0)
    }

    // MARK: - Primitive reads

    @inline(__always)
    private mutating func readByte(_ what: @autoclosure () -> String) throws(WireError) -> UInt8 {
        guard offset < bytes.count else {
            throw WireError(.truncated, at: offset, "expected \(what()), found end of data")
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a 2-, 4- or 8-byte payload in the stream's byte order.
    @inline(__always)
    private mutating func readFixed(_ count: Int, what: @autoclosure () -> String) throws(WireError) -> UInt64 {
        guard bytes.count - offset >= count else {
            throw WireError(.truncated, at: offset, "expected \(count) bytes of \(what()), found \(bytes.count - offset)")
        }
        var value: UInt64 = 0
        let base = offset
        if littleEndian {
            var i = count - 1
            while i >= 0 { value = value << 8 | UInt64(bytes[base + i]); i -= 1 }
        } else {
            var i = 0
            while i < count { value = value << 8 | UInt64(bytes[base + i]); i += 1 }
        }
        offset += count
        return value
    }

    /// Reads an integer whose head byte `head` (at `start`) was just consumed.
    @inline(__always)
    private mutating func readInteger(head: UInt8, at start: Int, what: @autoclosure () -> String, allowInt64: Bool, allowInt32: Bool = true) throws(WireError) -> WireInteger {
        if HeadByte.isInline(head) { return WireInteger(Int64(Int8(bitPattern: head)), width: .inline) }
        switch head {
        case HeadByte.int16:
            return WireInteger(Int64(Int16(truncatingIfNeeded: try readFixed(2, what: what()))), width: .int16)
        case HeadByte.int32 where allowInt32:
            return WireInteger(Int64(Int32(truncatingIfNeeded: try readFixed(4, what: what()))), width: .int32)
        case HeadByte.int64 where allowInt64:
            return WireInteger(Int64(bitPattern: try readFixed(8, what: what())), width: .int64)
        default:
            throw WireError(.unexpectedHeadByte, at: start, "expected \(what()) (an integer), found \(HeadByte.describe(head))")
        }
    }

    /// Reads a length or count: non-negative and at most the bytes that remain times `perItem`.
    private mutating func readLength(what: @autoclosure () -> String, bytesPerItem: Int = 1) throws(WireError) -> (Int, IntegerWidth) {
        let start = offset
        let head = try readByte(what())
        let length = try readInteger(head: head, at: start, what: what(), allowInt64: false)
        guard length.value >= 0 else {
            throw WireError(.badLength, at: start, "\(what()) is negative (\(length.value))")
        }
        let remaining = bytes.count - offset
        if bytesPerItem > 0, length.value > Int64(remaining / bytesPerItem) {
            throw WireError(.badLength, at: start, "\(what()) \(length.value) runs past the end of the data (\(remaining) bytes remain)")
        }
        return (Int(length.value), length.width)
    }

    @inline(__always)
    private mutating func readReference(head: UInt8, at start: Int, what: @autoclosure () -> String) throws(WireError) -> (Int, IntegerWidth) {
        let label = try readInteger(head: head, at: start, what: what(), allowInt64: false)
        return (Int(label.value - HeadByte.referenceBias), label.width)
    }

    // MARK: - Strings

    /// Reads a shared string; `nil` when the head is `0x85` and `allowNil`.
    private mutating func readSharedString(what: @autoclosure () -> String, allowNil: Bool) throws(WireError) -> SharedString? {
        let start = offset
        let head = try readByte(what())
        switch head {
        case HeadByte.null:
            guard allowNil else { throw WireError(.unexpectedHeadByte, at: start, "expected \(what()), found nil (0x85)") }
            return nil
        case HeadByte.new:
            let (length, width) = try readLength(what: "the length of \(what())")
            guard sharedStrings.count < limits.maximumSharedStrings else {
                throw WireError(.limitExceeded, at: start, "more than \(limits.maximumSharedStrings) shared strings")
            }
            let text = bytes[offset..<offset + length]
            offset += length
            let index = sharedStrings.count
            sharedStrings.append(text)
            return SharedString(form: .literal(index: index, length: width), bytes: text)
        default:
            let (index, width) = try readReference(head: head, at: start, what: what())
            guard index >= 0, index < sharedStrings.count else {
                throw WireError(.badReference, at: start, "\(what()) refers to shared string #\(index), but only \(sharedStrings.count) are defined")
            }
            return SharedString(form: .reference(index: index, width: width), bytes: sharedStrings[index])
        }
    }

    private mutating func newSlot(_ kind: SlotKind, at start: Int) throws(WireError) -> Int {
        guard objectSlots.count < limits.maximumObjects else {
            throw WireError(.limitExceeded, at: start, "more than \(limits.maximumObjects) objects, classes and C strings")
        }
        objectSlots.append(kind)
        return objectSlots.count - 1
    }

    /// Checks that slot `index` exists and holds `first` or `second`.
    @inline(__always)
    private func checkSlot(_ index: Int, at start: Int, _ first: SlotKind, or second: SlotKind? = nil, what: @autoclosure () -> String) throws(WireError) {
        guard index >= 0, index < objectSlots.count else {
            throw WireError(.badReference, at: start, "\(what()) refers to object #\(index), but only \(objectSlots.count) are defined")
        }
        let kind = objectSlots[index]
        guard kind == first || kind == second else {
            let allowed = [first] + (second.map { [$0] } ?? [])
            throw WireError(.referenceKindMismatch, at: start, "\(what()) refers to #\(index), which is a \(kind), not a \(allowed.map { "\($0)" }.joined(separator: " or "))")
        }
    }

    // MARK: - Groups and values

    /// The compiled program of the type string in shared-string slot `index`, parsing it the
    /// first time it is used.
    private mutating func program(forSharedString index: Int, at start: Int) throws(WireError) -> Range<Int> {
        if index < programRanges.count, let range = programRanges[index] { return range }
        while parsedTypes.count <= index { parsedTypes.append(nil) }
        while programRanges.count <= index { programRanges.append(nil) }
        var limitsForTypes = ObjCTypeParser.Limits()
        limitsForTypes.maximumDepth = limits.maximumTypeNesting
        let types: [ObjCType]
        do {
            types = try ObjCType.parseGroup(bytes: sharedStrings[index], limits: limitsForTypes)
        } catch {
            throw WireError(.badTypeString, at: start, "type string '\(String(decoding: sharedStrings[index], as: UTF8.self))' does not parse: \(error.description)")
        }
        // Refuse the whole group up front, as NeXT does, rather than at the offending value.
        for type in types {
            if let part = type.unarchivablePart {
                throw WireError(.badTypeString, at: start, "type string '\(String(decoding: sharedStrings[index], as: UTF8.self))' holds '\(part.encoding)', which cannot be archived in a typedstream")
            }
        }
        parsedTypes[index] = types
        let range = program.compile(types)
        programRanges[index] = range
        return range
    }

    private mutating func readGroupStart() throws(WireError) -> Token {
        let start = offset
        let depth = nesting
        if header?.streamerVersion == 3, let token = try readUntypedObjectIfPresent() {
            pending = token
            return Token(.untypedGroup, start: start, end: start, depth: depth)
        }
        guard offset < bytes.count else {
            throw WireError(.truncated, at: offset, "expected a type string, found end of data")
        }
        let head = bytes[offset]
        guard head != HeadByte.null else {
            throw WireError(.unexpectedHeadByte, at: start, "expected a type string, found nil (0x85)")
        }
        guard head == HeadByte.new || HeadByte.isInline(head) || head == HeadByte.int16 || head == HeadByte.int32 else {
            throw WireError(.unexpectedHeadByte, at: start, "expected a type string, found \(HeadByte.describe(head))")
        }
        guard let typeString = try readSharedString(what: "a type string", allowNil: false) else {
            throw WireError(.unexpectedHeadByte, at: start, "expected a type string, found nil")
        }
        let range = try program(forSharedString: typeString.index, at: start)
        stack.append(Frame(kind: .group, pc: Int32(range.lowerBound), end: Int32(range.upperBound)))
        return Token(.typeString(typeString), start: start, end: offset, depth: nesting)
    }

    /// Streamer 3 writes objects from `NXWriteObject` with no `"@"` type string in front. Where a
    /// group would start, this tells such an object from a type string and reads its head.
    private mutating func readUntypedObjectIfPresent() throws(WireError) -> Token? {
        let start = offset
        guard offset < bytes.count else { return nil }
        let head = bytes[offset]
        if head == HeadByte.null {
            offset += 1
            return Token(.object(.null), start: start, end: offset, depth: nesting)
        }
        if head == HeadByte.new {
            guard offset + 1 < bytes.count else { return nil }
            let next = bytes[offset + 1]
            // `0x84 0x84` is a new object with a new class; a negative inline byte can only be a
            // class reference (lengths are never negative). Otherwise (`0x00…0x7F`, `0x81`,
            // `0x82`) the bytes are either a type-string length or a class reference: a type
            // string when the text they announce parses as types.
            var isObject = next == HeadByte.new || (HeadByte.isInline(next) && Int8(bitPattern: next) < 0)
            if !isObject, HeadByte.isInline(next) || next == HeadByte.int16 || next == HeadByte.int32 {
                var probe = self
                probe.offset += 2
                if let length = try? probe.readInteger(head: next, at: offset + 1, what: "a length", allowInt64: false),
                   length.value >= 0, length.value <= Int64(bytes.count - probe.offset),
                   (try? ObjCType.parseGroup(bytes: bytes[probe.offset..<probe.offset + Int(length.value)])) != nil {
                    isObject = false
                } else {
                    isObject = true
                }
            }
            guard isObject else { return nil }
            offset += 1
            return try readObject(head: head, at: start)
        }
        guard HeadByte.isInline(head) || head == HeadByte.int16 || head == HeadByte.int32 else { return nil }
        var probe = self
        probe.offset += 1
        guard let (index, _) = try? probe.readReference(head: head, at: start, what: "a reference") else { return nil }
        if index >= 0, index < sharedStrings.count, sharedStringParsesAsTypes(index) {
            return nil
        }
        if index >= 0, index < objectSlots.count {
            offset += 1
            return try readObject(head: head, at: start)
        }
        return nil
    }

    /// Whether shared string `index` parses as a group's types, remembered per slot: without the
    /// memory, a long text that does not parse, referred to by every group, costs its length at
    /// each group (quadratic time in the input size).
    private mutating func sharedStringParsesAsTypes(_ index: Int) -> Bool {
        if let known = typeStringProbes[index] { return known }
        let parses = (try? ObjCType.parseGroup(bytes: sharedStrings[index])) != nil
        typeStringProbes[index] = parses
        return parses
    }

    /// Counts one value that takes no bytes on the wire and holds no other value (a `!`, a
    /// struct with no fields, a union of size 0, an array of no elements). Their number is
    /// bounded over the whole input: otherwise a short type string used by many groups, or
    /// nested inside arrays (`[60000[60000!]]`), would make a few bytes yield billions of
    /// tokens. Every other value that takes no bytes holds at least one of these.
    private mutating func countEmptyValue(at start: Int) throws(WireError) {
        emptyValues += 1
        guard emptyValues <= limits.maximumEmptyElementArray else {
            throw WireError(.limitExceeded, at: start, "more than \(limits.maximumEmptyElementArray) values that take no bytes on the wire (!, empty structs, arrays of them)")
        }
    }

    @inline(__always)
    private mutating func enterNesting(at start: Int) throws(WireError) {
        guard nesting < limits.maximumNesting else {
            throw WireError(.limitExceeded, at: start, "nesting deeper than \(limits.maximumNesting) objects, arrays and structs")
        }
        nesting += 1
    }

    /// Reads an object whose head byte (at `start`) has been consumed.
    private mutating func readObject(head: UInt8, at start: Int) throws(WireError) -> Token {
        switch head {
        case HeadByte.null:
            return Token(.object(.null), start: start, end: offset, depth: nesting)
        case HeadByte.new:
            let index = try newSlot(.object, at: start)
            let token = Token(.object(.new(index: index)), start: start, end: offset, depth: nesting)
            try enterNesting(at: start)
            stack.append(Frame(kind: .objectClassChain))
            return token
        default:
            let (index, width) = try readReference(head: head, at: start, what: "an object reference")
            try checkSlot(index, at: start, .object, or: .class, what: "an object reference")
            return Token(.object(.reference(index: index, width: width)), start: start, end: offset, depth: nesting)
        }
    }

    /// Reads one class link; `ends` is true when the chain is complete.
    private mutating func readClassLink() throws(WireError) -> (ClassForm, ends: Bool) {
        let start = offset
        let head = try readByte("a class")
        switch head {
        case HeadByte.null:
            return (.null, true)
        case HeadByte.new:
            guard let name = try readSharedString(what: "a class name", allowNil: false) else {
                throw WireError(.unexpectedHeadByte, at: start, "expected a class name, found nil")
            }
            let versionStart = offset
            let versionHead = try readByte("a class version")
            let version = try readInteger(head: versionHead, at: versionStart, what: "a class version", allowInt64: false)
            let index = try newSlot(.class, at: start)
            slotText[index] = name.index
            return (.new(index: index, name: name, version: version), false)
        default:
            let (index, width) = try readReference(head: head, at: start, what: "a class reference")
            try checkSlot(index, at: start, .class, what: "a class reference")
            return (.reference(index: index, width: width), true)
        }
    }

    /// Executes operation `pc`: reads one value, or opens or closes an array or struct.
    /// Returns `nil` when the operation only pushed a frame (a `#` chain).
    private mutating func execute(_ pc: Int) throws(WireError) -> Token? {
        let op = program.ops[pc]
        let start = offset
        let texts = program.texts
        switch op.code {
        case .rawByte:
            let byte = try readByte("a byte (\(texts[Int(op.text)]))")
            return Token(.byte(byte), start: start, end: offset, depth: nesting)
        case .short:
            let head = try readByte("a short (\(texts[Int(op.text)]))")
            let value = try readInteger(head: head, at: start, what: "a short (\(texts[Int(op.text)]))", allowInt64: false, allowInt32: false)
            return Token(.integer(value), start: start, end: offset, depth: nesting)
        case .integer:
            let head = try readByte("an integer (\(texts[Int(op.text)]))")
            let value = try readInteger(head: head, at: start, what: "an integer (\(texts[Int(op.text)]))", allowInt64: true)
            return Token(.integer(value), start: start, end: offset, depth: nesting)
        case .float, .double:
            let isFloat = op.code == .float
            let head = try readByte("a real (\(texts[Int(op.text)]))")
            if head == HeadByte.real {
                let bits = try readFixed(isFloat ? 4 : 8, what: isFloat ? "a float" : "a double")
                let kind: TokenKind = isFloat ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)), .ieee) : .double(Double(bitPattern: bits), .ieee)
                return Token(kind, start: start, end: offset, depth: nesting)
            }
            let value = try readInteger(head: head, at: start, what: "a real (\(texts[Int(op.text)]))", allowInt64: true)
            // Writers use the integer form only when the real equals it exactly; an integer the
            // real type cannot hold could not be written back, so it is refused.
            let exact = isFloat ? Int64(exactly: Float(value.value)) == value.value : Int64(exactly: Double(value.value)) == value.value
            guard exact else {
                throw WireError(.inexactReal, at: start, "the integer \(value.value), written for a real (\(texts[Int(op.text)])), is not exactly representable as a \(isFloat ? "float" : "double")")
            }
            let kind: TokenKind = isFloat ? .float(Float(value.value), .integral(value.width)) : .double(Double(value.value), .integral(value.width))
            return Token(kind, start: start, end: offset, depth: nesting)
        case .counted:
            guard offset < bytes.count else { throw WireError(.truncated, at: offset, "expected counted bytes (+), found end of data") }
            if bytes[offset] == HeadByte.null {
                offset += 1
                return Token(.unsharedString(nil, length: .inline), start: start, end: offset, depth: nesting)
            }
            let (length, width) = try readLength(what: "the length of counted bytes (+)")
            let payload = bytes[offset..<offset + length]
            offset += length
            return Token(.unsharedString(payload, length: width), start: start, end: offset, depth: nesting)
        case .shared:
            let text = try readSharedString(what: op.a == 1 ? "an atom (%)" : "a selector (:)", allowNil: true)
            return Token(.sharedString(text), start: start, end: offset, depth: nesting)
        case .cString:
            let head = try readByte("a C string (*)")
            switch head {
            case HeadByte.null:
                return Token(.cString(.null), start: start, end: offset, depth: nesting)
            case HeadByte.new:
                let index = try newSlot(.cString, at: start)
                guard let text = try readSharedString(what: "the text of a C string", allowNil: false) else {
                    throw WireError(.unexpectedHeadByte, at: start, "expected the text of a C string, found nil")
                }
                slotText[index] = text.index
                return Token(.cString(.literal(index: index, text: text)), start: start, end: offset, depth: nesting)
            default:
                let (index, width) = try readReference(head: head, at: start, what: "a C string reference")
                try checkSlot(index, at: start, .cString, what: "a C string reference")
                return Token(.cString(.reference(index: index, width: width)), start: start, end: offset, depth: nesting)
            }
        case .object:
            let head = try readByte("an object (@)")
            return try readObject(head: head, at: start)
        case .classChain:
            stack.append(Frame(kind: .valueClassChain))
            return nil
        case .ignored:
            try countEmptyValue(at: start)
            return Token(.ignored, start: start, end: start, depth: nesting)
        case .rawBytes:
            let count = Int(op.a)
            guard count <= bytes.count - offset else {
                throw WireError(.badLength, at: start, "array of \(count) bytes runs past the end of the data (\(bytes.count - offset) bytes remain)")
            }
            if count == 0 { try countEmptyValue(at: start) }
            let payload = bytes[offset..<offset + count]
            offset += count
            return Token(.rawBytes(payload), start: start, end: offset, depth: nesting)
        case .arrayStart:
            let count = Int(op.a)
            let minimum = Int(op.b)
            if minimum == 0 {
                guard count <= limits.maximumEmptyElementArray else {
                    throw WireError(.limitExceeded, at: start, "array of \(count) elements that take no bytes exceeds the limit \(limits.maximumEmptyElementArray)")
                }
            } else if count > (bytes.count - offset) / minimum {
                throw WireError(.badLength, at: start, "array of \(count) '\(texts[Int(op.text)])' needs at least \(count.multipliedReportingOverflow(by: minimum).partialValue) bytes, only \(bytes.count - offset) remain")
            }
            if count == 0 { try countEmptyValue(at: start) }
            try enterNesting(at: start)
            // The enclosing frame resumes after the array's end operation.
            stack[stack.count - 1].pc = op.c + 1
            stack.append(Frame(kind: .array, pc: count == 0 ? op.c : Int32(pc + 1), end: op.c, bodyStart: Int32(pc + 1), remaining: Int32(count)))
            return Token(.arrayStart(count: count), start: start, end: start, depth: nesting - 1)
        case .arrayEnd:
            // Reached only through a frame's `end`; never executed directly.
            return nil
        case .structStart:
            if program.ops[pc + 1].code == .structEnd { try countEmptyValue(at: start) }  // no fields
            try enterNesting(at: start)
            return Token(.structStart, start: start, end: start, depth: nesting - 1)
        case .structEnd:
            nesting -= 1
            return Token(.structEnd, start: start, end: start, depth: nesting)
        case .union:
            let size = Int(op.a)
            guard size <= bytes.count - offset else {
                throw WireError(.truncated, at: offset, "expected \(size) bytes of union '\(texts[Int(op.text)])', found \(bytes.count - offset)")
            }
            if size == 0 { try countEmptyValue(at: start) }
            let payload = bytes[offset..<offset + size]
            offset += size
            return Token(.rawBytes(payload), start: start, end: offset, depth: nesting)
        case .unsupported:
            if op.a == 1 {
                throw WireError(.badTypeString, at: start, "union '\(texts[Int(op.text)])' has no computable size")
            }
            throw WireError(.badTypeString, at: start, "type '\(texts[Int(op.text)])' cannot be archived in a typedstream")
        }
    }
}
