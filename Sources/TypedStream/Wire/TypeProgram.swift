import ObjCTypeEncoding

/// A type string compiled for the token reader: a flat list of operations, so reading values
/// never walks the recursive ``ObjCType`` tree (no reference counting, no recursion) — one
/// switch on a small integer per value.
struct TypeProgram: Sendable {
    /// What an operation reads.
    enum Code: UInt8 {
        /// `c C B`: one raw byte.
        case rawByte
        /// `s S`: a short (inline or int16).
        case short
        /// `i I l L q Q`: an integer (inline, int16, int32, int64).
        case integer
        /// `f`.
        case float
        /// `d`.
        case double
        /// `+`: counted bytes.
        case counted
        /// `%` (atom) or `:` (selector): a shared string; `a` is 1 for `%`.
        case shared
        /// `*`.
        case cString
        /// `@`.
        case object
        /// `#`.
        case classChain
        /// `!`: nothing.
        case ignored
        /// `[Nc]` / `[NC]`: `a` raw bytes.
        case rawBytes
        /// `[N t]`: `a` = count, `b` = minimum wire size of one element, `c` = index of the
        /// matching ``arrayEnd``.
        case arrayStart
        /// End of an array body; `c` = index of the matching ``arrayStart``.
        case arrayEnd
        /// `{`.
        case structStart
        /// `}`.
        case structEnd
        /// A union: `a` raw bytes.
        case union
        /// A type the format cannot carry (`^ b v ?`) or a union without a size.
        case unsupported
    }

    /// One operation.
    struct Op: Sendable {
        var code: Code
        /// Index into ``opTypes``: the operation's type, whose encoding messages name.
        var type: Int32
        var a: Int32 = 0
        var b: Int32 = 0
        var c: Int32 = 0
    }

    /// All operations of all compiled type strings.
    private(set) var ops: [Op] = []
    /// The types referred to by ``Op/type``, kept as types: they are spelled out
    /// (``encoding(ofType:)``) only when a message names one, which keeps compiling cheap for
    /// small archives.
    private var opTypes: [ObjCType] = []

    /// The compiled type strings: their texts, operation ranges and types, by entry number.
    private var entryTexts: [[UInt8]] = []
    private var entryRanges: [Range<Int>] = []
    private var entryTypes: [[ObjCType]] = []
    /// Entry numbers by the hash of their text (the first entry of each hash; a colliding text
    /// gets an entry of its own but is not found by text).
    private var entryByHash = WordTable<Int>()
    /// The ``DecodingLimits/maximumTypeNesting`` the type strings were checked with.
    private(set) var typeNestingLimit: Int?

    /// The most operations a program keeps before ``CompiledTypeStrings`` starts afresh.
    static let maximumRememberedOperations = 1 << 20

    /// The entry of type string `text`, if compiled before.
    func entry(for text: ArraySlice<UInt8>) -> Int? {
        // Compared through the buffers (the generic comparison of an array with a slice costs
        // about 280 instructions a message body).
        guard let entry = entryByHash[Self.hash(text)], text.sameBytes(as: entryTexts[entry]) else { return nil }
        return entry
    }

    /// The operations of entry `entry`.
    @inline(__always)
    func range(ofEntry entry: Int) -> Range<Int> { entryRanges[entry] }

    /// The types of entry `entry`.
    func types(ofEntry entry: Int) -> [ObjCType] { entryTypes[entry] }

    /// Compiles `types`, the parsed form of type string `text` (checked with the given type
    /// nesting limit), and returns its entry number.
    mutating func add(_ text: ArraySlice<UInt8>, types: [ObjCType], typeNestingLimit: Int) -> Int {
        self.typeNestingLimit = typeNestingLimit
        let entry = entryTexts.count
        if entry == 0 { makeFirstRoom() }
        entryTexts.append(Array(text))
        entryRanges.append(compile(types))
        entryTypes.append(types)
        let hash = Self.hash(text)
        if entryByHash[hash] == nil { entryByHash.set(entry, for: hash) }
        return entry
    }

    /// The number of type strings compiled.
    var rememberedCount: Int { entryTexts.count }

    /// How many type strings the tables have room for at the first: an archive has a handful
    /// (a message body five, the 1 MB `data` input of the bench nine), and five tables grown
    /// one doubling at a time from nothing reallocated about twenty times an archive.
    static let usualEntryCount = 16

    /// Makes room in every table for ``usualEntryCount`` type strings.
    private mutating func makeFirstRoom() {
        entryTexts.reserveCapacity(Self.usualEntryCount)
        entryRanges.reserveCapacity(Self.usualEntryCount)
        entryTypes.reserveCapacity(Self.usualEntryCount)
        ops.reserveCapacity(2 * Self.usualEntryCount)
        opTypes.reserveCapacity(2 * Self.usualEntryCount)
        entryByHash = WordTable(capacity: Self.usualEntryCount)
    }

    /// FNV-1a over the bytes; never 0 (a ``WordTable`` key: a 0 becomes 1, which only lets
    /// two texts share a hash, as any collision does).
    private static func hash(_ text: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash == 0 ? 1 : hash
    }

    /// Compiles `types` (one group) and returns the range of its operations.
    private mutating func compile(_ types: [ObjCType]) -> Range<Int> {
        let start = ops.count
        for type in types { emit(type) }
        return start..<ops.count
    }

    /// The encoding of type `index` (an ``Op/type``), for messages.
    func encoding(ofType index: Int32) -> String { opTypes[Int(index)].encoding }

    /// Keeps `type` for ``Op/type`` and returns its index.
    private mutating func typeIndex(_ type: ObjCType) -> Int32 {
        opTypes.append(type)
        return Int32(opTypes.count - 1)
    }

    private static func clamp(_ value: Int) -> Int32 { Int32(clamping: value) }

    private mutating func emit(_ type: ObjCType) {
        let t = typeIndex(type)
        switch type {
        case .char, .unsignedChar, .bool: ops.append(Op(code: .rawByte, type: t))
        case .short, .unsignedShort: ops.append(Op(code: .short, type: t))
        case .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong: ops.append(Op(code: .integer, type: t))
        case .float: ops.append(Op(code: .float, type: t))
        case .double: ops.append(Op(code: .double, type: t))
        case .bytes: ops.append(Op(code: .counted, type: t))
        case .atom: ops.append(Op(code: .shared, type: t, a: 1))
        case .selector: ops.append(Op(code: .shared, type: t, a: 0))
        case .cString: ops.append(Op(code: .cString, type: t))
        case .object: ops.append(Op(code: .object, type: t))
        case .classObject: ops.append(Op(code: .classChain, type: t))
        case .ignored: ops.append(Op(code: .ignored, type: t))
        case .qualified(_, let inner): emit(inner)
        case .array(let count, let element):
            switch element.unqualified {
            case .char, .unsignedChar:
                ops.append(Op(code: .rawBytes, type: t, a: Self.clamp(count)))
            default:
                let startIndex = ops.count
                ops.append(Op(code: .arrayStart, type: typeIndex(element), a: Self.clamp(count), b: Self.clamp(element.minimumWireSize)))
                emit(element)
                let endIndex = ops.count
                ops.append(Op(code: .arrayEnd, type: t, c: Int32(startIndex)))
                ops[startIndex].c = Int32(endIndex)
            }
        case .structure(_, let fields):
            ops.append(Op(code: .structStart, type: t))
            for field in fields { emit(field.type) }
            ops.append(Op(code: .structEnd, type: t))
        case .union:
            if let size = type.layout(.ilp32)?.size {
                ops.append(Op(code: .union, type: t, a: Self.clamp(size)))
            } else {
                ops.append(Op(code: .unsupported, type: t, a: 1))
            }
        case .pointer, .bitfield, .void, .unknown:
            ops.append(Op(code: .unsupported, type: t))
        }
    }
}
