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

    private enum Frame {
        case topLevel
        case values(types: [ObjCType], next: Int)
        case structFields(fields: [ObjCField], next: Int)
        case array(element: ObjCType, remaining: Int)
        case classChain(ofObject: Bool)
        case instanceSize
        case objectContents
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

    /// The types of the type string in shared-string slot `index`, once a group has used it.
    public func types(ofSharedString index: Int) -> [ObjCType]? {
        index >= 0 && index < parsedTypes.count ? parsedTypes[index] : nil
    }
    private var stack: [Frame] = [.topLevel]
    private var nesting = 0
    private var littleEndian = true
    private var pending: Token?

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
            switch frame {
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
            case .values(let types, let next):
                if next == types.count {
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1] = .values(types: types, next: next + 1)
                if let token = try readValue(types[next]) { return token }
            case .structFields(let fields, let next):
                if next == fields.count {
                    stack.removeLast()
                    nesting -= 1
                    return Token(.structEnd, start: start, end: start, depth: nesting)
                }
                stack[stack.count - 1] = .structFields(fields: fields, next: next + 1)
                if let token = try readValue(fields[next].type) { return token }
            case .array(let element, let remaining):
                if remaining == 0 {
                    stack.removeLast()
                    nesting -= 1
                    return Token(.arrayEnd, start: start, end: start, depth: nesting)
                }
                stack[stack.count - 1] = .array(element: element, remaining: remaining - 1)
                if let token = try readValue(element) { return token }
            case .classChain(let ofObject):
                let (link, ends) = try readClassLink()
                let token = Token(.classLink(link), start: start, end: offset, depth: nesting)
                if ends {
                    stack.removeLast()
                    if ofObject {
                        stack.append(.objectContents)
                        if header?.streamerVersion == 3 { stack.append(.instanceSize) }
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

    private mutating func readFixed(_ count: Int, what: String) throws(WireError) -> UInt64 {
        guard bytes.count - offset >= count else {
            throw WireError(.truncated, at: offset, "expected \(count) bytes of \(what), found \(bytes.count - offset)")
        }
        var value: UInt64 = 0
        if littleEndian {
            for i in stride(from: count - 1, through: 0, by: -1) { value = value << 8 | UInt64(bytes[offset + i]) }
        } else {
            for i in 0..<count { value = value << 8 | UInt64(bytes[offset + i]) }
        }
        offset += count
        return value
    }

    /// Reads an integer whose head byte `head` (at `start`) was just consumed.
    private mutating func readInteger(head: UInt8, at start: Int, what: String, allowInt64: Bool, allowInt32: Bool = true) throws(WireError) -> WireInteger {
        switch head {
        case HeadByte.int16:
            return WireInteger(Int64(Int16(truncatingIfNeeded: try readFixed(2, what: what))), width: .int16)
        case HeadByte.int32 where allowInt32:
            return WireInteger(Int64(Int32(truncatingIfNeeded: try readFixed(4, what: what))), width: .int32)
        case HeadByte.int64 where allowInt64:
            return WireInteger(Int64(bitPattern: try readFixed(8, what: what)), width: .int64)
        default:
            guard HeadByte.isInline(head) else {
                throw WireError(.unexpectedHeadByte, at: start, "expected \(what) (an integer), found \(HeadByte.describe(head))")
            }
            return WireInteger(Int64(Int8(bitPattern: head)), width: .inline)
        }
    }

    /// Reads a length or count: non-negative and at most the bytes that remain times `perItem`.
    private mutating func readLength(what: String, bytesPerItem: Int = 1) throws(WireError) -> (Int, IntegerWidth) {
        let start = offset
        let head = try readByte(what)
        let length = try readInteger(head: head, at: start, what: what, allowInt64: false)
        guard length.value >= 0 else {
            throw WireError(.badLength, at: start, "\(what) is negative (\(length.value))")
        }
        let remaining = bytes.count - offset
        if bytesPerItem > 0, length.value > Int64(remaining / bytesPerItem) {
            throw WireError(.badLength, at: start, "\(what) \(length.value) runs past the end of the data (\(remaining) bytes remain)")
        }
        return (Int(length.value), length.width)
    }

    private mutating func readReference(head: UInt8, at start: Int, what: String) throws(WireError) -> (Int, IntegerWidth) {
        let label = try readInteger(head: head, at: start, what: what, allowInt64: false)
        return (Int(label.value - HeadByte.referenceBias), label.width)
    }

    // MARK: - Strings

    /// Reads a shared string; `nil` when the head is `0x85` and `allowNil`.
    private mutating func readSharedString(what: String, allowNil: Bool) throws(WireError) -> SharedString? {
        let start = offset
        let head = try readByte(what)
        switch head {
        case HeadByte.null:
            guard allowNil else { throw WireError(.unexpectedHeadByte, at: start, "expected \(what), found nil (0x85)") }
            return nil
        case HeadByte.new:
            let (length, width) = try readLength(what: "the length of \(what)")
            guard sharedStrings.count < limits.maximumSharedStrings else {
                throw WireError(.limitExceeded, at: start, "more than \(limits.maximumSharedStrings) shared strings")
            }
            let text = bytes[offset..<offset + length]
            offset += length
            let index = sharedStrings.count
            sharedStrings.append(text)
            return SharedString(form: .literal(index: index, length: width), bytes: text)
        default:
            let (index, width) = try readReference(head: head, at: start, what: what)
            guard index >= 0, index < sharedStrings.count else {
                throw WireError(.badReference, at: start, "\(what) refers to shared string #\(index), but only \(sharedStrings.count) are defined")
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

    private func checkSlot(_ index: Int, at start: Int, allowed: [SlotKind], what: String) throws(WireError) {
        guard index >= 0, index < objectSlots.count else {
            throw WireError(.badReference, at: start, "\(what) refers to object #\(index), but only \(objectSlots.count) are defined")
        }
        guard allowed.contains(objectSlots[index]) else {
            throw WireError(.referenceKindMismatch, at: start, "\(what) refers to #\(index), which is a \(objectSlots[index]), not a \(allowed.map { "\($0)" }.joined(separator: " or "))")
        }
    }

    // MARK: - Groups and values

    private mutating func types(forSharedString index: Int, at start: Int) throws(WireError) -> [ObjCType] {
        while parsedTypes.count <= index { parsedTypes.append(nil) }
        if let cached = parsedTypes[index] { return cached }
        var limitsForTypes = ObjCTypeParser.Limits()
        limitsForTypes.maximumDepth = limits.maximumTypeNesting
        do {
            let types = try ObjCType.parseGroup(bytes: sharedStrings[index], limits: limitsForTypes)
            parsedTypes[index] = types
            return types
        } catch {
            throw WireError(.badTypeString, at: start, "type string '\(String(decoding: sharedStrings[index], as: UTF8.self))' does not parse: \(error.description)")
        }
    }

    private mutating func readGroupStart() throws(WireError) -> Token {
        let start = offset
        if header?.streamerVersion == 3, let token = try readUntypedObjectIfPresent() {
            pending = token
            return Token(.untypedGroup, start: start, end: start, depth: nesting)
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
        let types = try types(forSharedString: typeString.index, at: start)
        stack.append(.values(types: types, next: 0))
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
            var isObject = next == HeadByte.new || (HeadByte.isInline(next) && Int8(bitPattern: next) < 0)
            if !isObject, HeadByte.isInline(next) {
                let length = Int(next)
                let textStart = offset + 2
                if textStart + length > bytes.count || (try? ObjCType.parseGroup(bytes: bytes[textStart..<textStart + length])) == nil {
                    isObject = true
                }
            }
            guard isObject else { return nil }
            return try readObject(head: head, at: start)
        }
        guard HeadByte.isInline(head) || head == HeadByte.int16 || head == HeadByte.int32 else { return nil }
        var probe = self
        probe.offset += 1
        guard let (index, _) = try? probe.readReference(head: head, at: start, what: "a reference") else { return nil }
        if index >= 0, index < sharedStrings.count, (try? ObjCType.parseGroup(bytes: sharedStrings[index])) != nil {
            return nil
        }
        if index >= 0, index < objectSlots.count {
            offset += 1
            return try readObject(head: head, at: start)
        }
        return nil
    }

    private mutating func push(_ frame: Frame, at start: Int) throws(WireError) {
        guard nesting < limits.maximumNesting else {
            throw WireError(.limitExceeded, at: start, "nesting deeper than \(limits.maximumNesting) objects, arrays and structs")
        }
        nesting += 1
        stack.append(frame)
    }

    /// Reads an object whose head byte (at `start`) has been consumed.
    private mutating func readObject(head: UInt8, at start: Int) throws(WireError) -> Token {
        if offset == start { offset += 1 }
        switch head {
        case HeadByte.null:
            return Token(.object(.null), start: start, end: offset, depth: nesting)
        case HeadByte.new:
            let index = try newSlot(.object, at: start)
            let token = Token(.object(.new(index: index)), start: start, end: offset, depth: nesting)
            try push(.classChain(ofObject: true), at: start)
            return token
        default:
            let (index, width) = try readReference(head: head, at: start, what: "an object reference")
            try checkSlot(index, at: start, allowed: [.object, .class], what: "an object reference")
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
            try checkSlot(index, at: start, allowed: [.class], what: "a class reference")
            return (.reference(index: index, width: width), true)
        }
    }

    /// Reads the value of one type; `nil` when the type only pushed a frame (a `#` chain).
    private mutating func readValue(_ type: ObjCType) throws(WireError) -> Token? {
        let start = offset
        switch type {
        case .char, .unsignedChar, .bool:
            let byte = try readByte("a byte (\(type.encoding))")
            return Token(.byte(byte), start: start, end: offset, depth: nesting)
        case .short, .unsignedShort:
            let head = try readByte("a short (\(type.encoding))")
            let value = try readInteger(head: head, at: start, what: "a short (\(type.encoding))", allowInt64: false, allowInt32: false)
            return Token(.integer(value), start: start, end: offset, depth: nesting)
        case .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong:
            let head = try readByte("an integer (\(type.encoding))")
            let value = try readInteger(head: head, at: start, what: "an integer (\(type.encoding))", allowInt64: true)
            return Token(.integer(value), start: start, end: offset, depth: nesting)
        case .float, .double:
            let isFloat = type == .float
            let head = try readByte("a real (\(type.encoding))")
            if head == HeadByte.real {
                let bits = try readFixed(isFloat ? 4 : 8, what: isFloat ? "a float" : "a double")
                let kind: TokenKind = isFloat ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)), .ieee) : .double(Double(bitPattern: bits), .ieee)
                return Token(kind, start: start, end: offset, depth: nesting)
            }
            let value = try readInteger(head: head, at: start, what: "a real (\(type.encoding))", allowInt64: true)
            let kind: TokenKind = isFloat ? .float(Float(value.value), .integral(value.width)) : .double(Double(value.value), .integral(value.width))
            return Token(kind, start: start, end: offset, depth: nesting)
        case .bytes:
            guard offset < bytes.count else { throw WireError(.truncated, at: offset, "expected counted bytes (+), found end of data") }
            if bytes[offset] == HeadByte.null {
                offset += 1
                return Token(.unsharedString(nil, length: .inline), start: start, end: offset, depth: nesting)
            }
            let (length, width) = try readLength(what: "the length of counted bytes (+)")
            let payload = bytes[offset..<offset + length]
            offset += length
            return Token(.unsharedString(payload, length: width), start: start, end: offset, depth: nesting)
        case .atom, .selector:
            let text = try readSharedString(what: type == .atom ? "an atom (%)" : "a selector (:)", allowNil: true)
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
                try checkSlot(index, at: start, allowed: [.cString], what: "a C string reference")
                return Token(.cString(.reference(index: index, width: width)), start: start, end: offset, depth: nesting)
            }
        case .object:
            let head = try readByte("an object (@)")
            return try readObject(head: head, at: start)
        case .classObject:
            stack.append(.classChain(ofObject: false))
            return nil
        case .ignored:
            return Token(.ignored, start: start, end: start, depth: nesting)
        case .qualified(_, let inner):
            return try readValue(inner)
        case .array(let count, let element):
            switch element.unqualified {
            case .char, .unsignedChar:
                guard count <= bytes.count - offset else {
                    throw WireError(.badLength, at: start, "array of \(count) bytes runs past the end of the data (\(bytes.count - offset) bytes remain)")
                }
                let payload = bytes[offset..<offset + count]
                offset += count
                return Token(.rawBytes(payload), start: start, end: offset, depth: nesting)
            default:
                let minimum = element.minimumWireSize
                if minimum == 0 {
                    guard count <= limits.maximumEmptyElementArray else {
                        throw WireError(.limitExceeded, at: start, "array of \(count) elements that take no bytes exceeds the limit \(limits.maximumEmptyElementArray)")
                    }
                } else if count > (bytes.count - offset) / minimum {
                    throw WireError(.badLength, at: start, "array of \(count) '\(element.encoding)' needs at least \(count.multipliedReportingOverflow(by: minimum).partialValue) bytes, only \(bytes.count - offset) remain")
                }
                try push(.array(element: element, remaining: count), at: start)
                return Token(.arrayStart(count: count), start: start, end: start, depth: nesting - 1)
            }
        case .structure(_, let fields):
            try push(.structFields(fields: fields, next: 0), at: start)
            return Token(.structStart, start: start, end: start, depth: nesting - 1)
        case .union:
            guard let size = type.layout(.ilp32)?.size else {
                throw WireError(.badTypeString, at: start, "union '\(type.encoding)' has no computable size")
            }
            guard size <= bytes.count - offset else {
                throw WireError(.truncated, at: offset, "expected \(size) bytes of union '\(type.encoding)', found \(bytes.count - offset)")
            }
            let payload = bytes[offset..<offset + size]
            offset += size
            return Token(.rawBytes(payload), start: start, end: offset, depth: nesting)
        case .pointer, .bitfield, .void, .unknown:
            throw WireError(.badTypeString, at: start, "type '\(type.encoding)' cannot be archived in a typedstream")
        }
    }
}
