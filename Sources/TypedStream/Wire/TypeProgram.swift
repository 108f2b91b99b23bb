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
        /// `[N t]`: `a` = count. The next operation is the array's ``arrayBounds``, then come
        /// the element's operations, then its ``arrayEnd``.
        case arrayStart
        /// Follows an ``arrayStart``: `a` = index of the matching ``arrayEnd``. Never executed.
        case arrayBounds
        /// End of an array body: `a` = minimum wire size of one element. Never executed.
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

    /// One operation: 8 bytes, what it reads and one number (an array, which needs three,
    /// spreads them over its ``Code/arrayStart``, ``Code/arrayBounds`` and ``Code/arrayEnd``).
    struct Op: Sendable {
        var code: Code
        var a: Int32 = 0
    }

    /// All operations of all compiled type strings, entry after entry.
    private(set) var ops: [Op] = []

    /// The shape of the array whose ``Code/arrayStart`` is operation `pc` of `ops`: its element
    /// count, the index of its ``Code/arrayEnd``, the first operation of its element and the
    /// minimum wire size of one element.
    @inline(__always)
    static func array(at pc: Int, in ops: [Op]) -> (count: Int, end: Int32, body: Int32, minimum: Int) {
        let end = ops[pc + 1].a
        return (Int(ops[pc].a), end, Int32(pc + 2), Int(ops[Int(end)].a))
    }

    /// Where each compiled type string starts in ``texts`` and in ``ops``, by entry number, and
    /// one more past the last entry, so that entry `e` spans `starts[e]..<starts[e + 1]`; empty
    /// until the first entry.
    private var starts: [EntryStart] = []
    /// The texts of the compiled type strings, one after the other (one buffer, not one array
    /// per text: 200 000 distinct type strings cost their bytes, not 200 000 allocations).
    private var texts: [UInt8] = []
    /// The parsed types of each entry that keeps them (see ``keepsTypes(ofEntry:textCount:)``),
    /// by entry number; an empty array for an entry that does not, whose types are parsed
    /// again from its text when asked for.
    private var entryTypes: [[ObjCType]] = []

    /// How many entries keep their parsed types whatever their length: all of any ordinary
    /// archive's (a few dozen), so that a group's types are never parsed twice there.
    static let typeKeepingEntries = 4_096
    /// Past ``typeKeepingEntries``, the longest type string whose types are parsed again at each
    /// request rather than kept: parsing so few bytes costs about what a group's other work
    /// does, while the tree of each of 800 000 distinct type strings would take 400 bytes.
    static let longestReparsedText = 48

    /// Whether entry `entry`, whose text has `textCount` bytes, keeps its parsed types.
    private static func keepsTypes(ofEntry entry: Int, textCount: Int) -> Bool {
        entry < typeKeepingEntries || textCount > longestReparsedText
    }
    /// Entry numbers by the hash of their text (the first entry of each hash; a colliding text
    /// gets an entry of its own but is not found by text).
    private var entryByHash = WordTable<Int32>()
    /// ``offsetBasis``, read once per program rather than at every hash.
    private let hashBasis = TypeProgram.offsetBasis
    /// The ``DecodingLimits/maximumTypeNesting`` the type strings were checked with.
    private(set) var typeNestingLimit: Int?

    /// Where an entry starts in ``texts`` and ``ops``.
    private struct EntryStart: Sendable {
        var text: Int
        var operation: Int
    }

    /// The most operations a program keeps before ``CompiledTypeStrings`` starts afresh.
    static let maximumRememberedOperations = 1 << 20
    /// The most bytes of type-string text a program keeps before ``CompiledTypeStrings`` starts
    /// afresh.
    static let maximumRememberedTextBytes = 1 << 24

    /// Whether a reader may start from this program (checked with `typeNestingLimit`) rather
    /// than afresh: it was checked with the same limit and has not grown past its budgets.
    func isReusable(withTypeNestingLimit limit: Int) -> Bool {
        ops.count <= Self.maximumRememberedOperations && texts.count <= Self.maximumRememberedTextBytes
            && (typeNestingLimit == nil || typeNestingLimit == limit)
    }

    /// The entry of type string `text`, if compiled before.
    func entry(for text: ArraySlice<UInt8>) -> Int? {
        guard let found = entryByHash[hash(text)] else { return nil }
        let entry = Int(found)
        let range = textRange(ofEntry: entry)
        // Compared through the buffers (the generic comparison of two slices costs about 280
        // instructions a message body).
        guard text.sameBytes(as: texts[range]) else { return nil }
        return entry
    }

    /// The operations of entry `entry`.
    @inline(__always)
    func range(ofEntry entry: Int) -> Range<Int> {
        starts[entry].operation..<starts[entry + 1].operation
    }

    /// Where the text of entry `entry` is in ``texts``.
    private func textRange(ofEntry entry: Int) -> Range<Int> {
        starts[entry].text..<starts[entry + 1].text
    }

    /// The types of entry `entry`.
    func types(ofEntry entry: Int) -> [ObjCType] {
        let text = textRange(ofEntry: entry)
        if Self.keepsTypes(ofEntry: entry, textCount: text.count) { return entryTypes[entry] }
        var limits = ObjCTypeParser.Limits()
        if let typeNestingLimit { limits.maximumDepth = typeNestingLimit }
        // It parsed when it was compiled, under the same limits.
        guard let types = try? ObjCType.parseGroup(bytes: texts[text], limits: limits) else {
            preconditionFailure("a compiled type string no longer parses")
        }
        return types
    }

    /// Compiles `types`, the parsed form of type string `text` (checked with the given type
    /// nesting limit), and returns its entry number.
    mutating func add(_ text: ArraySlice<UInt8>, types: [ObjCType], typeNestingLimit: Int) -> Int {
        self.typeNestingLimit = typeNestingLimit
        if starts.isEmpty { makeFirstRoom() }
        let entry = starts.count - 1
        var emitter = Emitter(ops: [], types: nil)
        swap(&emitter.ops, &ops)  // appended to in place, not copied
        for type in types { emitter.emit(type) }
        swap(&emitter.ops, &ops)
        texts.append(contentsOf: text)
        starts.append(EntryStart(text: texts.count, operation: ops.count))
        entryTypes.append(Self.keepsTypes(ofEntry: entry, textCount: text.count) ? types : [])
        entryByHash.setIfAbsent(Int32(entry), for: hash(text))
        return entry
    }

    /// The number of type strings compiled.
    var rememberedCount: Int { max(starts.count - 1, 0) }

    /// How many type strings the tables have room for at the first: an archive has a handful
    /// (a message body five, the 1 MB `data` input of the bench nine), and tables grown one
    /// doubling at a time from nothing reallocated about twenty times an archive.
    static let usualEntryCount = 16

    /// Makes room in every table for ``usualEntryCount`` type strings.
    private mutating func makeFirstRoom() {
        starts.reserveCapacity(Self.usualEntryCount + 1)
        starts.append(EntryStart(text: 0, operation: 0))
        texts.reserveCapacity(8 * Self.usualEntryCount)
        entryTypes.reserveCapacity(Self.usualEntryCount)
        ops.reserveCapacity(2 * Self.usualEntryCount)
        entryByHash = WordTable(capacity: Self.usualEntryCount)
    }

    /// FNV-1a over the bytes, from an offset basis drawn once per process; never 0 (a
    /// ``WordTable`` key: a 0 becomes 1, which only lets two texts share a hash, as any
    /// collision does).
    private func hash(_ text: ArraySlice<UInt8>) -> UInt64 {
        var hash = hashBasis
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash == 0 ? 1 : hash
    }

    /// The offset basis of ``hash(_:)``: random, so that an archive cannot be crafted whose
    /// many type strings all land in one stretch of the table (each new one would then search
    /// past all the others, a cost growing with the square of their number). It costs nothing
    /// per byte, unlike a keyed hash; the table is never written out, so its order may differ
    /// from run to run.
    private static let offsetBasis = UInt64.random(in: 1...UInt64.max)

    /// The encoding of the type operation `pc` reads (for an array start, of its element), for
    /// messages. Operations keep no types: the entry's text is parsed and compiled again, noting
    /// each operation's type, which costs nothing until a message names one.
    func encoding(ofOperation pc: Int) -> String {
        // The last entry starting at or before `pc` (the entry after the last starts at the end).
        let entry = starts.partitionPoint { $0.operation <= pc } - 1
        var emitter = Emitter(ops: [], types: [])
        for type in types(ofEntry: entry) { emitter.emit(type) }
        let named = emitter.types ?? []
        let index = pc - starts[entry].operation
        return named.indices.contains(index) ? named[index].encoding : "?"
    }

    /// Compiles types into operations, noting the type each operation names in messages when
    /// ``types`` is not `nil`.
    private struct Emitter {
        var ops: [Op]
        var types: [ObjCType]?

        /// Appends one operation and the type it names in messages.
        private mutating func append(_ op: Op, naming named: ObjCType) {
            ops.append(op)
            types?.append(named)
        }

        /// Appends the operations of `type` (recursing on the type's nesting, which the parser
        /// has checked against ``DecodingLimits/maximumTypeNesting``).
        mutating func emit(_ type: ObjCType) {
            switch type {
            case .char, .unsignedChar, .bool: append(Op(code: .rawByte), naming: type)
            case .short, .unsignedShort: append(Op(code: .short), naming: type)
            case .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong: append(Op(code: .integer), naming: type)
            case .float: append(Op(code: .float), naming: type)
            case .double: append(Op(code: .double), naming: type)
            case .bytes: append(Op(code: .counted), naming: type)
            case .atom: append(Op(code: .shared, a: 1), naming: type)
            case .selector: append(Op(code: .shared, a: 0), naming: type)
            case .cString: append(Op(code: .cString), naming: type)
            case .object: append(Op(code: .object), naming: type)
            case .classObject: append(Op(code: .classChain), naming: type)
            case .ignored: append(Op(code: .ignored), naming: type)
            case .qualified(_, let inner): emit(inner)
            case .array(let count, let element):
                switch element.unqualified {
                case .char, .unsignedChar:
                    append(Op(code: .rawBytes, a: clamp(count)), naming: type)
                default:
                    let startIndex = ops.count
                    append(Op(code: .arrayStart, a: clamp(count)), naming: element)
                    append(Op(code: .arrayBounds), naming: element)
                    emit(element)
                    ops[startIndex + 1].a = Int32(ops.count)
                    append(Op(code: .arrayEnd, a: clamp(element.minimumWireSize)), naming: type)
                }
            case .structure(_, let fields):
                append(Op(code: .structStart), naming: type)
                for field in fields { emit(field.type) }
                append(Op(code: .structEnd), naming: type)
            case .union:
                if let size = type.layout(.ilp32)?.size {
                    append(Op(code: .union, a: clamp(size)), naming: type)
                } else {
                    append(Op(code: .unsupported, a: 1), naming: type)
                }
            case .pointer, .bitfield, .void, .unknown:
                append(Op(code: .unsupported), naming: type)
            }
        }

        private func clamp(_ value: Int) -> Int32 { Int32(clamping: value) }
    }
}
