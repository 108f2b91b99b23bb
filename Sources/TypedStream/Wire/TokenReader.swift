import ObjCTypeEncoding

/// Reads an archive as a stream of tokens, each with its byte range and every wire decision.
///
/// The reader works on one contiguous buffer and never copies string or data payloads. It keeps
/// the two reference tables (shared strings and the object table) so references are checked as
/// they are read. Nesting uses an explicit stack bounded by ``DecodingLimits/maximumNesting``,
/// so hostile input cannot overflow the call stack.
///
/// Two ways to read: ``next()`` gives rich ``Token``s (enum payloads, slices of the input);
/// ``nextCompact()`` gives the same tokens as plain data (``CompactToken``, payloads as byte
/// ranges), which costs no allocation or reference counting per token — the fast path.
///
/// ```swift
/// var reader = TokenReader(bytes: archiveBytes)
/// while let token = try reader.next() {
///     print(token.start, token.kind)
/// }
/// ```
public struct TokenReader: Sendable {
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
    struct Frame: Sendable {
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
            /// Reading one object only (``ArchiveIndex/tokens(ofObject:)``): done when it closes.
            case singleObject
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
    public internal(set) var offset = 0
    /// The header, once read.
    public internal(set) var header: StreamHeader?
    /// The limits in force.
    public let limits: DecodingLimits
    /// The shared-string table so far: the byte range of the text of each literal shared string.
    public internal(set) var sharedStringRanges: [Range<Int>] = []
    /// One object-table slot: what it holds and where it starts.
    struct SlotEntry {
        /// What it holds (``SlotKind`` raw value, low two bits) and, for a class or C string,
        /// the shared-string slot of its text (the rest).
        var packed: Int32
        /// The offset of its first byte, in 32 bits: only ``ArchiveIndex`` uses it, and it
        /// refuses inputs of 4 GiB or more.
        var offset: UInt32

        /// The ``packed`` form of a slot holding `kind`, whose text is shared string `text`.
        @_transparent
        static func packed(_ kind: SlotKind, text: Int) -> Int32 {
            Int32(truncatingIfNeeded: text) << 2 | Int32(kind.rawValue)
        }
    }

    /// The object table so far, one entry per slot (kept with the offsets, so that an index
    /// needs no table of its own).
    var slotEntries = SlotTable()

    /// The object table so far: what each slot holds.
    public var objectSlots: [SlotKind] { slotEntries.indices.map { slotKind($0) } }

    /// What object-table slot `index` holds, `nil` when it has not been read.
    public func kind(ofSlot index: Int) -> SlotKind? {
        index >= 0 && index < nextSlot ? slotKind(index) : nil
    }

    /// What object-table slot `index` (which must exist) holds.
    @inline(__always)
    func slotKind(_ index: Int) -> SlotKind {
        SlotKind(rawValue: UInt8(truncatingIfNeeded: slotEntries[index].packed & 3)) ?? .object
    }
    /// The next object-table slot a new item takes. Equal to `slotEntries.count` while reading
    /// forward; smaller when re-reading part of an archive already read (the tables are full,
    /// and new items are checked against them instead of appended).
    var nextSlot = 0
    /// The next shared-string slot a literal takes (as ``nextSlot``, for the shared-string table).
    var nextSharedString = 0

    /// Per shared-string slot: its compiled type string in ``program`` (entry −1 until used as a
    /// type), with the entry's operations, so that a group finds them with one table read.
    var typeEntries: [TypeEntry] = []

    /// A shared string's compiled type string: its entry in ``program`` and its operations.
    struct TypeEntry {
        /// The entry number, −1 while the shared string has not been used as a type.
        var entry: Int
        /// The entry's operations in ``program``.
        var operations: Range<Int>

        /// The entry of a shared string not used as a type yet.
        static let unused = TypeEntry(entry: -1, operations: 0..<0)
    }
    var program: TypeProgram

    /// The innermost frame; ``frames`` holds the ones around it.
    var top = Frame(kind: .topLevel)
    var frames: [Frame] = []
    var nesting = 0
    var littleEndian = true
    var isStreamer3 = false
    var pending: CompactToken?
    /// Values read so far that take no bytes and hold no other value (see ``countEmptyValue(at:)``).
    var emptyValues = 0
    /// Streamer 3: whether each shared string probed so far parses as types.
    var typeStringProbes: [Int: Bool] = [:]

    /// Creates a reader over `bytes`.
    public init(bytes: [UInt8], limits: DecodingLimits = .default) {
        self.init(bytes: bytes, limits: limits, compiled: CompiledTypeStrings())
    }

    /// Creates a reader over `bytes` that starts with the type strings `compiled` (taken from
    /// an earlier reader's ``compiledTypeStrings``), so that type strings seen before are not
    /// parsed again. Reading many small archives this way costs a fraction of reading each
    /// afresh.
    public init(bytes: [UInt8], limits: DecodingLimits = .default, compiled: CompiledTypeStrings) {
        self.bytes = bytes
        self.limits = limits
        // Type strings compiled under another type-nesting limit are not trusted under this one.
        // (Set once: a default value replaced here made the initializer copy the whole reader.)
        let usable = compiled.program.isReusable(withTypeNestingLimit: limits.maximumTypeNesting)
        self.program = usable ? compiled.program : TypeProgram()
    }

    /// The type strings this reader has compiled, with those it started with: hand them to the
    /// next reader (``init(bytes:limits:compiled:)``).
    public var compiledTypeStrings: CompiledTypeStrings { CompiledTypeStrings(program: program) }

    /// The shared-string table so far: slot `i` is the text of the `i`-th literal shared string.
    public var sharedStrings: [ArraySlice<UInt8>] { sharedStringRanges.map { bytes[$0] } }

    /// For object-table slots that hold a class or C string, the shared-string slot of its text.
    public var slotText: [Int: Int] {
        var result: [Int: Int] = [:]
        for slot in slotEntries.indices where slotKind(slot) != .object { result[slot] = Int(slotEntries[slot].packed >> 2) }
        return result
    }

    /// The text of the class or C string in object-table slot `index`, `nil` for an object or a
    /// slot not read yet.
    public func text(ofSlot index: Int) -> ArraySlice<UInt8>? {
        guard index >= 0, index < nextSlot, slotKind(index) != .object else { return nil }
        return bytes[sharedStringRanges[Int(slotEntries[index].packed >> 2)]]
    }

    /// The types of the type string in shared-string slot `index`, once a group has used it.
    public func types(ofSharedString index: Int) -> [ObjCType]? {
        guard index >= 0, index < typeEntries.count, typeEntries[index].entry >= 0 else { return nil }
        return program.types(ofEntry: typeEntries[index].entry)
    }

    /// Whether every byte has been read and every object closed.
    public var isAtEnd: Bool { header != nil && offset == bytes.count && frames.isEmpty && top.kind == .topLevel }

    /// The current nesting depth (objects, arrays and structs open).
    public var depth: Int { nesting }

    /// Reads the next token, or returns `nil` after the last byte. Throws ``WireError`` with the
    /// offset of the offending byte on malformed, truncated or foreign input.
    public mutating func next() throws(WireError) -> Token? {
        guard let compact = try nextCompact() else { return nil }
        return token(compact)
    }

    /// Reads every remaining token in plain-data form, the fast way (see ``scanToEnd()``).
    /// The tokens are those ``nextCompact()`` gives, and so is the error. Throws ``WireError``.
    public mutating func readAllCompact() throws(WireError) -> [CompactToken] {
        var collector = TokenCollector()
        collector.tokens.reserveCapacity(bytes.count / 4)
        try readToEnd(into: &collector)
        return collector.tokens
    }

    /// Reads every remaining token into an array. Throws ``WireError``.
    public mutating func readAll() throws(WireError) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 3)
        while let token = try next() { tokens.append(token) }
        return tokens
    }

    @inline(__always)
    mutating func push(_ frame: Frame) {
        frames.append(top)
        top = frame
    }

    @inline(__always)
    mutating func pop() {
        top = frames.popLast() ?? Frame(kind: .topLevel)
    }

    /// Reads the next token in plain-data form, or returns `nil` after the last byte. Throws
    /// ``WireError`` as ``next()`` does; the tokens are the same.
    public mutating func nextCompact() throws(WireError) -> CompactToken? {
        var one = OneToken()
        _ = try read(into: &one)
        return one.token
    }

    /// Reads the rest of the archive without handing out tokens, with every check ``next()``
    /// makes, and returns what it saw. Throws ``WireError`` as ``next()`` does. From the start
    /// of a streamer-4 archive this takes the fast path: one loop with its state in local
    /// variables instead of the resumable reader (`TokenReader+Walk.swift`).
    public mutating func scanToEnd() throws(WireError) -> ScanSummary {
        var summary = ScanSummary()
        try readToEnd(into: &summary)
        return summary
    }

    /// Reads tokens and hands each to `visitor` until the visitor asks to pause (returns false)
    /// or the archive ends. Returns true at the end. Everything is inlined into the caller, so a
    /// visitor that ignores most of a token costs nothing for the rest.
    @inline(__always)
    mutating func read<Visitor: CompactTokenVisitor>(into visitor: inout Visitor) throws(WireError) -> Bool {
        if header == nil {
            guard visitor.visit(try readHeader()) else { return false }
        }
        if let token = pending {
            pending = nil
            guard visitor.visit(token) else { return false }
        }
        while true {
            let start = offset
            let token: CompactToken
            switch top.kind {
            case .topLevel:
                if offset == bytes.count { return true }
                token = try readGroupStart()
            case .singleObject:
                return true
            case .objectContents:
                guard offset < bytes.count else {
                    throw WireError(.truncated, at: offset, "expected a type string or end of object (0x86), found end of data")
                }
                if bytes[offset] == HeadByte.endOfObject {
                    offset += 1
                    pop()
                    nesting -= 1
                    token = CompactToken(.endOfObject, start: start, end: offset, depth: nesting)
                } else {
                    token = try readGroupStart()
                }
            case .group:
                let pc = top.pc
                if pc == top.end {
                    pop()
                    continue
                }
                top.pc = pc + 1
                guard let value = try execute(Int(pc)) else { continue }
                token = value
            case .array:
                let pc = top.pc
                if pc < top.end {
                    top.pc = pc + 1
                    guard let value = try execute(Int(pc)) else { continue }
                    token = value
                } else if top.remaining > 1 {
                    top.remaining -= 1
                    top.pc = top.bodyStart
                    continue
                } else {
                    pop()
                    nesting -= 1
                    token = CompactToken(.arrayEnd, start: start, end: start, depth: nesting)
                }
            case .objectClassChain, .valueClassChain:
                token = try readChainLink(at: start)
            case .instanceSize:
                pop()
                let head = try readByte("the instance size of a streamer-3 object")
                let size = try readInteger(head: head, at: start, what: "instance size", allowInt64: false)
                var value = CompactToken(.instanceSize, start: start, end: offset, depth: nesting)
                value.value = size.value
                value.width = size.width
                token = value
            }
            guard hand(token, to: &visitor) else { return false }
            if let token = pending {
                pending = nil
                guard visitor.visit(token) else { return false }
            }
        }
    }

    // MARK: - Header

    @inline(never)
    mutating func readHeader() throws(WireError) -> CompactToken {
        if bytes.isEmpty { throw WireError(.empty, at: 0, "the input is empty") }
        guard bytes.count <= limits.maximumInputSize else {
            throw WireError(.limitExceeded, at: 0, "the input has \(bytes.count) bytes, more than the limit of \(limits.maximumInputSize)")
        }
        let version = bytes[0]
        offset = 1
        guard version == 3 || version == 4 else {
            // Other formats, named (none starts with byte 3 or 4, so a typedstream never pays
            // for these tests).
            if let foreign = ForeignFormat.recognise(bytes) { throw foreign.headerError(bytes) }
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
        header = StreamHeader(streamerVersion: version, byteOrder: order, systemVersion: system)
        isStreamer3 = version == 3
        var token = CompactToken(.header, start: 0, end: offset, depth: 0)
        token.value = system.value
        token.width = system.width
        return token
    }

    // MARK: - Primitive reads

    @inline(__always)
    mutating func readByte(_ what: Expectation) throws(WireError) -> UInt8 {
        guard offset < bytes.count else {
            throw WireError(.truncated, at: offset, "expected \(describe(what)), found end of data")
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a 2-, 4- or 8-byte payload in the stream's byte order.
    @inline(__always)
    mutating func readFixed(_ count: Int, what: Expectation) throws(WireError) -> UInt64 {
        guard bytes.count - offset >= count else {
            throw WireError(.truncated, at: offset, "expected \(count) bytes of \(describe(what)), found \(bytes.count - offset)")
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
    mutating func readInteger(head: UInt8, at start: Int, what: Expectation, allowInt64: Bool, allowInt32: Bool = true) throws(WireError) -> WireInteger {
        if HeadByte.isInline(head) { return WireInteger(Int64(Int8(bitPattern: head)), width: .inline) }
        switch head {
        case HeadByte.int16:
            return WireInteger(Int64(Int16(truncatingIfNeeded: try readFixed(2, what: what))), width: .int16)
        case HeadByte.int32 where allowInt32:
            return WireInteger(Int64(Int32(truncatingIfNeeded: try readFixed(4, what: what))), width: .int32)
        case HeadByte.int64 where allowInt64:
            return WireInteger(Int64(bitPattern: try readFixed(8, what: what)), width: .int64)
        default:
            throw WireError(.unexpectedHeadByte, at: start, "expected \(describe(what)) (an integer), found \(HeadByte.describe(head))")
        }
    }

    /// Reads a length or count: non-negative and at most the bytes that remain times `perItem`.
    @inline(__always)
    mutating func readLength(what: Expectation) throws(WireError) -> (Int, IntegerWidth) {
        let start = offset
        let head = try readByte(what)
        if head < 0x80 {
            // The common case: a small inline length.
            guard Int(head) <= bytes.count - offset else {
                throw WireError(.badLength, at: start, "\(describe(what)) \(head) runs past the end of the data (\(bytes.count - offset) bytes remain)")
            }
            return (Int(head), .inline)
        }
        let length = try readInteger(head: head, at: start, what: what, allowInt64: false)
        guard length.value >= 0 else {
            throw WireError(.badLength, at: start, "\(describe(what)) is negative (\(length.value))")
        }
        let remaining = bytes.count - offset
        if length.value > Int64(remaining) {
            throw WireError(.badLength, at: start, "\(describe(what)) \(length.value) runs past the end of the data (\(remaining) bytes remain)")
        }
        return (Int(length.value), length.width)
    }

    @inline(__always)
    mutating func readReference(head: UInt8, at start: Int, what: Expectation) throws(WireError) -> (Int, IntegerWidth) {
        let label = try readInteger(head: head, at: start, what: what, allowInt64: false)
        return (Int(label.value - HeadByte.referenceBias), label.width)
    }

    // MARK: - Strings

    /// Reads a shared string into the text fields of `token`; returns false (and sets nothing)
    /// when the head is `0x85` and `allowNil`.
    @inline(__always)
    mutating func readSharedString(into token: inout CompactToken, what: Expectation, allowNil: Bool) throws(WireError) -> Bool {
        let start = offset
        let head = try readByte(what)
        switch head {
        case HeadByte.null:
            guard allowNil else { throw WireError(.unexpectedHeadByte, at: start, "expected \(describe(what)), found nil (0x85)") }
            return false
        case HeadByte.new:
            let (length, width) = try readLength(what: what.length)
            let text = offset..<offset + length
            offset += length
            token.setText(try newSharedString(text, at: start), isReference: false, width: width, at: text)
            return true
        default:
            let (index, width) = try readReference(head: head, at: start, what: what)
            guard index >= 0, index < nextSharedString else {
                throw WireError(.badReference, at: start, "\(describe(what)) refers to shared string #\(index), but only \(nextSharedString) are defined")
            }
            token.setText(index, isReference: true, width: width, at: sharedStringRanges[index])
            return true
        }
    }

    /// The text of the shared string at the reader's position (a group's type string), without
    /// reading it: `nil` when something else is there, a token is pending, or it is not
    /// readable. Only the position moves and moves back, so no table of the reader is copied
    /// (a copied reader that read a new literal copied the whole shared-string table).
    mutating func peekSharedStringText() -> ArraySlice<UInt8>? {
        guard pending == nil else { return nil }
        let start = offset
        defer { offset = start }
        guard let head = try? readByte("a type string") else { return nil }
        switch head {
        case HeadByte.null:
            return nil
        case HeadByte.new:
            guard let (length, _) = try? readLength(what: "a type string length"), length <= bytes.count - offset else { return nil }
            return bytes[offset..<offset + length]
        default:
            guard let (index, _) = try? readReference(head: head, at: start, what: "a type string"), index >= 0, index < nextSharedString else { return nil }
            return bytes[sharedStringRanges[index]]
        }
    }

    /// Enters the literal shared string `text` in the next shared-string slot.
    @inline(__always)
    mutating func newSharedString(_ text: Range<Int>, at start: Int) throws(WireError) -> Int {
        let index = nextSharedString
        if index == sharedStringRanges.count {
            guard index < limits.maximumSharedStrings else {
                throw WireError(.limitExceeded, at: start, "more than \(limits.maximumSharedStrings) shared strings")
            }
            // The first entry makes room for sixteen, as the object table's first does (growing
            // from one entry reallocated four times for a message body's dozen strings).
            if index == 0 { sharedStringRanges.reserveCapacity(Self.firstTableRoom) }
            sharedStringRanges.append(text)
        } else if sharedStringRanges[index] != text {
            throw WireError(.invalidToken, at: start, "shared string #\(index) is not where the archive's index has it")
        }
        nextSharedString = index + 1
        return index
    }

    /// The room a table of the reader gets at its first entry (as ``SlotTable/append(_:)`` does).
    static let firstTableRoom = 16

    /// Enters a new item of `kind` in the next object-table slot. `tableIsUnique`: the caller
    /// made the table's memory its own (``SlotTable/makeUnique()``) and has not copied it since,
    /// as the walk does once before it starts.
    @inline(__always)
    mutating func newSlot(_ kind: SlotKind, text: Int = 0, at start: Int, tableIsUnique: Bool = false) throws(WireError) -> Int {
        let index = nextSlot
        if index == slotEntries.count {
            guard index < limits.maximumObjects else {
                throw WireError(.limitExceeded, at: start, "more than \(limits.maximumObjects) objects, classes and C strings")
            }
            let entry = SlotEntry(packed: SlotEntry.packed(kind, text: text), offset: UInt32(truncatingIfNeeded: start))
            if tableIsUnique {
                slotEntries.appendToUnique(entry)
            } else {
                slotEntries.append(entry)
            }
        } else if slotKind(index) != kind {
            throw WireError(.invalidToken, at: start, "object-table slot #\(index) is not what the archive's index has there")
        }
        nextSlot = index + 1
        return index
    }

    /// Records the text of the C string in slot `index` (taken before its text was read):
    /// shared string `text`. Already recorded when re-reading. (`@_transparent`: the walk
    /// calls it, see "Inlining" in `TokenReader+Walk.swift`.)
    @_transparent
    mutating func setText(_ text: Int, ofCStringSlot index: Int) {
        let packed = SlotEntry.packed(.cString, text: text)
        if slotEntries[index].packed != packed { slotEntries[index].packed = packed }
    }

    /// Reads a reference to an object-table slot holding `first` or `second` (its head byte,
    /// at `start`, was just consumed) into `token`.
    @inline(__always)
    mutating func readSlotReference(head: UInt8, at start: Int, into token: inout CompactToken, _ first: SlotKind, or second: SlotKind? = nil, what: Expectation) throws(WireError) {
        let (index, width) = try readReference(head: head, at: start, what: what)
        try checkSlot(index, at: start, first, or: second, what: what)
        token.setReference(to: index, width: width)
    }

    /// Checks that slot `index` exists and holds `first` or `second`.
    @inline(__always)
    func checkSlot(_ index: Int, at start: Int, _ first: SlotKind, or second: SlotKind? = nil, what: Expectation) throws(WireError) {
        guard index >= 0, index < nextSlot else {
            throw WireError(.badReference, at: start, "\(describe(what)) refers to object #\(index), but only \(nextSlot) are defined")
        }
        let kind = slotKind(index)
        guard kind == first || kind == second else {
            let allowed = [first] + (second.map { [$0] } ?? [])
            throw WireError(.referenceKindMismatch, at: start, "\(describe(what)) refers to #\(index), which is a \(kind), not a \(allowed.map { "\($0)" }.joined(separator: " or "))")
        }
    }

    // MARK: - Groups and values

    /// The compiled program of the type string in shared-string slot `index`, parsing it the
    /// first time it is used.
    @inline(__always)
    mutating func program(forSharedString index: Int, at start: Int) throws(WireError) -> Range<Int> {
        if let compiled = compiledOperations(ofSharedString: index) { return compiled }
        return try compileProgram(forSharedString: index, at: start)
    }

    /// The operations of the type string in shared-string slot `index`, if compiled already.
    @inline(__always)
    func compiledOperations(ofSharedString index: Int) -> Range<Int>? {
        guard index < typeEntries.count else { return nil }
        let found = typeEntries.inlinedElement(index)
        return found.entry >= 0 ? found.operations : nil
    }

    /// Parses and compiles the type string in shared-string slot `index` (or finds it among
    /// those compiled for an earlier archive) and returns its operations.
    @inline(never)
    mutating func compileProgram(forSharedString index: Int, at start: Int) throws(WireError) -> Range<Int> {
        typeEntries.pad(toInclude: index, with: .unused)
        let text = bytes[sharedStringRanges[index]]
        if let known = program.entry(for: text) {
            typeEntries[index] = TypeEntry(entry: known, operations: program.range(ofEntry: known))
            return typeEntries[index].operations
        }
        var limitsForTypes = ObjCTypeParser.Limits()
        limitsForTypes.maximumDepth = limits.maximumTypeNesting
        let types: [ObjCType]
        do {
            types = try ObjCType.parseGroup(bytes: text, limits: limitsForTypes)
        } catch {
            throw WireError(.badTypeString, at: start, "type string '\(String(decoding: text, as: UTF8.self))' does not parse: \(error.description)")
        }
        // Refuse the whole group up front, as NeXT does, rather than at the offending value.
        for type in types {
            if let part = type.unarchivablePart {
                throw WireError(.badTypeString, at: start, "type string '\(String(decoding: text, as: UTF8.self))' holds '\(part.encoding)', which cannot be archived in a typedstream")
            }
        }
        let entry = program.add(text, types: types, typeNestingLimit: limits.maximumTypeNesting)
        typeEntries[index] = TypeEntry(entry: entry, operations: program.range(ofEntry: entry))
        return typeEntries[index].operations
    }

    @inline(__always)
    mutating func readGroupStart() throws(WireError) -> CompactToken {
        let start = offset
        let depth = nesting
        if isStreamer3, let token = try readUntypedObjectIfPresent() {
            pending = token
            return CompactToken(.untypedGroup, start: start, end: start, depth: depth)
        }
        let (token, range) = try readTypeString()
        push(Frame(kind: .group, pc: Int32(range.lowerBound), end: Int32(range.upperBound)))
        return token
    }

    /// Reads a group's type string and returns it with the range of its compiled operations.
    @_transparent  // inlined by force: see "Inlining" in TokenReader+Walk.swift
    mutating func readTypeString() throws(WireError) -> (CompactToken, Range<Int>) {
        let start = offset
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
        var token = CompactToken(.typeString, start: start, end: start, depth: nesting)
        _ = try readSharedString(into: &token, what: "a type string", allowNil: false)
        token.end = offset
        let range = try program(forSharedString: token.textIndex, at: start)
        return (token, range)
    }

    /// Streamer 3 writes objects from `NXWriteObject` with no `"@"` type string in front. Where a
    /// group would start, this tells such an object from a type string and reads its head.
    @inline(never)
    private mutating func readUntypedObjectIfPresent() throws(WireError) -> CompactToken? {
        let start = offset
        guard offset < bytes.count else { return nil }
        let head = bytes[offset]
        if head == HeadByte.null {
            offset += 1
            return CompactToken(.object, start: start, end: offset, depth: nesting).with(form: .null)
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
        if index >= 0, index < nextSharedString, sharedStringParsesAsTypes(index) {
            return nil
        }
        if index >= 0, index < nextSlot {
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
        let parses = (try? ObjCType.parseGroup(bytes: bytes[sharedStringRanges[index]])) != nil
        typeStringProbes[index] = parses
        return parses
    }

    /// Counts one value that takes no bytes on the wire and holds no other value (a `!`, a
    /// struct with no fields, a union of size 0, an array of no elements). Their number is
    /// bounded over the whole input: otherwise a short type string used by many groups, or
    /// nested inside arrays (`[60000[60000!]]`), would make a few bytes yield billions of
    /// tokens. Every other value that takes no bytes holds at least one of these.
    mutating func countEmptyValue(at start: Int) throws(WireError) {
        emptyValues += 1
        guard emptyValues <= limits.maximumEmptyElementArray else {
            throw WireError(.limitExceeded, at: start, "more than \(limits.maximumEmptyElementArray) values that take no bytes on the wire (!, empty structs, arrays of them)")
        }
    }

    @inline(__always)
    mutating func enterNesting(at start: Int) throws(WireError) {
        guard nesting < limits.maximumNesting else {
            throw WireError(.limitExceeded, at: start, "nesting deeper than \(limits.maximumNesting) objects, arrays and structs")
        }
        nesting += 1
    }

    /// Reads an object whose head byte (at `start`) has been consumed; a new object's class
    /// chain and contents are read next.
    @inline(__always)
    mutating func readObject(head: UInt8, at start: Int) throws(WireError) -> CompactToken {
        let token = try readObjectHead(head, at: start)
        if token.form == .new { push(Frame(kind: .objectClassChain)) }
        return token
    }

    /// Reads an object whose head byte (at `start`) has been consumed, up to its class chain.
    @_transparent  // inlined by force: see "Inlining" in TokenReader+Walk.swift
    mutating func readObjectHead(_ head: UInt8, at start: Int) throws(WireError) -> CompactToken {
        var token = CompactToken(.object, start: start, end: start, depth: nesting)
        switch head {
        case HeadByte.null:
            token.form = .null
        case HeadByte.new:
            token.slot = try newSlot(.object, at: start)
            token.form = .new
            token.end = offset
            try enterNesting(at: start)
            return token
        default:
            try readSlotReference(head: head, at: start, into: &token, .object, or: .class, what: "an object reference")
        }
        token.end = offset
        return token
    }

    /// Reads the next link of the class chain the top frame stands for (at `start`); after the
    /// last link of an object's chain, enters the object's contents.
    @_transparent  // inlined by force: see "Inlining" in TokenReader+Walk.swift
    mutating func readChainLink(at start: Int) throws(WireError) -> CompactToken {
        let kind = top.kind
        var link = try readClassLink()
        link.start = start
        link.end = offset
        link.depth = nesting
        if link.form != .new {
            pop()
            if kind == .objectClassChain {
                push(Frame(kind: .objectContents))
                if isStreamer3 { push(Frame(kind: .instanceSize)) }
            }
        }
        return link
    }

    /// Reads one class link (its position is filled in by the caller); the chain is complete
    /// unless the link is `.new`.
    @_transparent  // inlined by force: see "Inlining" in TokenReader+Walk.swift
    mutating func readClassLink() throws(WireError) -> CompactToken {
        let start = offset
        var token = CompactToken(.classLink, start: start, end: start, depth: 0)
        let head = try readByte("a class")
        switch head {
        case HeadByte.null:
            token.form = .null
        case HeadByte.new:
            _ = try readSharedString(into: &token, what: "a class name", allowNil: false)
            guard token.payloadEnd - token.payloadStart <= limits.maximumClassNameLength else {
                throw WireError(.limitExceeded, at: start + 1, "class name of \(token.payloadEnd - token.payloadStart) bytes, longer than the limit of \(limits.maximumClassNameLength)")
            }
            let versionStart = offset
            let versionHead = try readByte("a class version")
            let version = try readInteger(head: versionHead, at: versionStart, what: "a class version", allowInt64: false)
            token.slot = try newSlot(.class, text: token.textIndex, at: start)
            token.form = .new
            token.value = version.value
            token.width = version.width
        default:
            try readSlotReference(head: head, at: start, into: &token, .class, what: "a class reference")
        }
        return token
    }

    /// Executes operation `pc`: reads one value, or opens or closes an array or struct.
    /// Returns `nil` when the operation only pushed a frame (a `#` chain).
    @_transparent  // inlined by force: see "Inlining" in TokenReader+Walk.swift
    mutating func execute(_ pc: Int) throws(WireError) -> CompactToken? {
        let op = program.ops[pc]
        let start = offset
        var token = CompactToken(.integer, start: start, end: start, depth: nesting)
        switch op.code {
        case .rawByte:
            token.code = .byte
            token.value = Int64(try readByte(Expectation("a byte", type: Int32(pc))))
        case .short:
            let head = try readByte(Expectation("a short", type: Int32(pc)))
            let value = try readInteger(head: head, at: start, what: Expectation("a short", type: Int32(pc)), allowInt64: false, allowInt32: false)
            token.value = value.value
            token.width = value.width
        case .integer:
            let head = try readByte(Expectation("an integer", type: Int32(pc)))
            let value = try readInteger(head: head, at: start, what: Expectation("an integer", type: Int32(pc)), allowInt64: true)
            token.value = value.value
            token.width = value.width
        case .float, .double:
            try readReal(op, at: pc, into: &token)
        case .counted:
            token.code = .unsharedString
            guard offset < bytes.count else { throw WireError(.truncated, at: offset, "expected counted bytes (+), found end of data") }
            if bytes[offset] == HeadByte.null {
                offset += 1
                token.form = .null
            } else {
                let (length, width) = try readLength(what: "the length of counted bytes (+)")
                token.form = .new
                token.width = width
                token.payloadStart = offset
                offset += length
                token.payloadEnd = offset
            }
        case .shared:
            token.code = .sharedString
            let present = try readSharedString(into: &token, what: op.a == 1 ? "an atom (%)" : "a selector (:)", allowNil: true)
            token.form = present ? .new : .null
        case .cString:
            token.code = .cString
            let head = try readByte("a C string (*)")
            switch head {
            case HeadByte.null:
                token.form = .null
            case HeadByte.new:
                // The slot is taken before the text is read (its index is the next slot), and
                // the text's shared-string slot recorded once known.
                let index = try newSlot(.cString, at: start)
                _ = try readSharedString(into: &token, what: "the text of a C string", allowNil: false)
                setText(token.textIndex, ofCStringSlot: index)
                token.form = .new
                token.slot = index
            default:
                try readSlotReference(head: head, at: start, into: &token, .cString, what: "a C string reference")
            }
        case .object:
            let head = try readByte("an object (@)")
            return try readObject(head: head, at: start)
        case .classChain:
            push(Frame(kind: .valueClassChain))
            return nil
        case .ignored:
            try countEmptyValue(at: start)
            token.code = .ignored
        case .rawBytes, .union:
            let count = Int(op.a)
            guard count <= bytes.count - offset else {
                if op.code == .union {
                    throw WireError(.truncated, at: offset, "expected \(count) bytes of union '\(program.encoding(ofOperation: pc))', found \(bytes.count - offset)")
                }
                throw WireError(.badLength, at: start, "array of \(count) bytes runs past the end of the data (\(bytes.count - offset) bytes remain)")
            }
            if count == 0 { try countEmptyValue(at: start) }
            token.code = .rawBytes
            token.payloadStart = offset
            offset += count
            token.payloadEnd = offset
        case .arrayStart:
            let (count, end, body, minimum) = TypeProgram.array(at: pc, in: program.ops)
            if minimum == 0 {
                guard count <= limits.maximumEmptyElementArray else {
                    throw WireError(.limitExceeded, at: start, "array of \(count) elements that take no bytes exceeds the limit \(limits.maximumEmptyElementArray)")
                }
            } else if count > (bytes.count - offset) / minimum {
                throw WireError(.badLength, at: start, "array of \(count) '\(program.encoding(ofOperation: pc))' needs at least \(count.multipliedReportingOverflow(by: minimum).partialValue) bytes, only \(bytes.count - offset) remain")
            }
            if count == 0 { try countEmptyValue(at: start) }
            try enterNesting(at: start)
            // The enclosing frame resumes after the array's end operation.
            top.pc = end + 1
            push(Frame(kind: .array, pc: count == 0 ? end : body, end: end, bodyStart: body, remaining: Int32(count)))
            token.code = .arrayStart
            token.value = Int64(count)
            return token
        case .arrayBounds, .arrayEnd:
            // Reached only through an array's start and a frame's `end`; never executed directly.
            return nil
        case .structStart:
            if program.ops[pc + 1].code == .structEnd { try countEmptyValue(at: start) }  // no fields
            try enterNesting(at: start)
            token.code = .structStart
            return token
        case .structEnd:
            nesting -= 1
            token.code = .structEnd
            token.depth = nesting
            return token
        case .unsupported:
            if op.a == 1 {
                throw WireError(.badTypeString, at: start, "union '\(program.encoding(ofOperation: pc))' has no computable size")
            }
            throw WireError(.badTypeString, at: start, "type '\(program.encoding(ofOperation: pc))' cannot be archived in a typedstream")
        }
        token.end = offset
        return token
    }

    /// Reads a `f` or `d` value into `token`: operation `op`, number `pc` of the program.
    private mutating func readReal(_ op: TypeProgram.Op, at pc: Int, into token: inout CompactToken) throws(WireError) {
        let start = token.start
        let isFloat = op.code == .float
        token.code = isFloat ? .float : .double
        let head = try readByte(Expectation("a real", type: Int32(pc)))
        if head == HeadByte.real {
            let bits = try readFixed(isFloat ? 4 : 8, what: isFloat ? "a float" : "a double")
            token.form = .ieee
            token.value = Int64(bitPattern: bits)
            return
        }
        let value = try readInteger(head: head, at: start, what: Expectation("a real", type: Int32(pc)), allowInt64: true)
        // Writers use the integer form only when the real equals it exactly; an integer the
        // real type cannot hold could not be written back, so it is refused.
        let exact = isFloat ? Int64(exactly: Float(value.value)) == value.value : Int64(exactly: Double(value.value)) == value.value
        guard exact else {
            throw WireError(.inexactReal, at: start, "the integer \(value.value), written for a real (\(program.encoding(ofOperation: pc))), is not exactly representable as a \(isFloat ? "float" : "double")")
        }
        token.form = .integral
        token.value = value.value
        token.width = value.width
    }
}

extension CompactToken {
    /// This token with `form` set.
    @inline(__always)
    func with(form: Form) -> CompactToken {
        var copy = self
        copy.form = form
        return copy
    }
}

/// What the reader expects next, for error messages: a fixed phrase, perhaps the type being
/// read (a compiled type text), perhaps "the length of". Plain data, so passing one costs nothing
/// and the message is only built when an error is thrown.
struct Expectation: ExpressibleByStringLiteral {
    var phrase: StaticString
    /// The operation reading the value (its program counter), whose type the message names, or −1.
    var type: Int32 = -1
    var isLength = false

    init(_ phrase: StaticString, type: Int32 = -1) {
        self.phrase = phrase
        self.type = type
    }

    init(stringLiteral phrase: StaticString) { self.phrase = phrase }

    /// "the length of" this.
    var length: Expectation {
        var copy = self
        copy.isLength = true
        return copy
    }
}

extension TokenReader {
    /// The words for `expectation` ("an integer (i)", "the length of a class name").
    func describe(_ expectation: Expectation) -> String {
        var text = expectation.isLength ? "the length of " : ""
        text += "\(expectation.phrase)"
        if expectation.type >= 0 { text += " (\(program.encoding(ofOperation: Int(expectation.type))))" }
        return text
    }
}
