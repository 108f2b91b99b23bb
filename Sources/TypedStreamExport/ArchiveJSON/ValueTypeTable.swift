import ObjCTypeEncoding

/// The types of a group's values as the lossless JSON's token encoder needs them, flattened into
/// one table of plain entries: a frame refers to its types by their place in the table, so
/// opening a group, an array or a struct and taking each value's type costs no array of
/// ``ObjCType``s (an indirect enum: every copy a retain) and no allocation.
///
/// Each type string's types are entered once, the first time its shared-string slot is asked
/// for, and kept (the table grows by at most one entry per character of the archive's type
/// strings). Entry 0 stands for a type not known (a value past its group's types).
struct ValueTypeTable {
    /// One type, unqualified.
    struct Entry {
        /// What the encoder does differently for it.
        enum Kind: UInt8 {
            /// Any type written as it comes (objects, strings, reals, `int`-sized integers …).
            case other
            /// `s` or `S`: its integer is read back at 16 bits.
            case short
            /// An array: `first` is its element's entry.
            case array
            /// A struct: its fields are the `count` entries from `first`.
            case structure
        }

        var kind: Kind
        /// The bits of an unsigned integer type (16, 32, 64), 0 for any other type.
        var unsignedBits: UInt8
        /// Whether a value of the type can hold an object (`@` anywhere inside it).
        var canHoldObject: Bool
        var first: Int32
        var count: Int32
    }

    /// A group's types: `count` entries from `first`.
    struct Group {
        var first: Int32
        var count: Int32
        /// Whether any of them can hold an object.
        var canHoldObject: Bool
        /// Whether the group is one object (`@`): its first token says whether it defines one.
        var isOneObject: Bool
    }

    private(set) var entries: [Entry] = [Entry(kind: .other, unsignedBits: 0, canHoldObject: false, first: 0, count: 0)]
    /// The groups entered, by shared-string slot.
    private var groups: [Int: Group] = [:]
    /// The groups met last, by shared-string slot modulo their count (a group's type string is
    /// nearly always one of a few), each with its slot.
    private var recent: [(slot: Int, group: Group)] = Array(repeating: (-1, Group(first: 0, count: 0, canHoldObject: false, isOneObject: false)), count: 16)

    /// The entry of an untyped group's one value (streamer 3): an object.
    let untypedGroup: Group

    init() {
        entries.append(Entry(kind: .other, unsignedBits: 0, canHoldObject: true, first: 0, count: 0))
        untypedGroup = Group(first: 1, count: 1, canHoldObject: true, isOneObject: false)
    }

    /// Entry `index`.
    @inline(__always)
    subscript(index: Int32) -> Entry { entries[Int(index)] }

    /// The group of the type string in shared-string slot `slot`, whose types `types` gives
    /// (asked only the first time).
    @inline(__always)
    mutating func group(ofSharedString slot: Int, types: () -> [ObjCType]?) -> Group {
        let place = slot & (recent.count - 1)
        if recent[place].slot == slot { return recent[place].group }
        let group = groups[slot] ?? enter(slot, types() ?? [])
        recent[place] = (slot, group)
        return group
    }

    private mutating func enter(_ slot: Int, _ types: [ObjCType]) -> Group {
        let unqualified = types.map(\.unqualified)
        let first = enter(unqualified)
        let group = Group(first: first, count: Int32(unqualified.count), canHoldObject: unqualified.contains(where: Self.canHoldObject),
                          isOneObject: unqualified.count == 1 && Self.isObject(unqualified[0]))
        groups[slot] = group
        return group
    }

    /// Enters `types` (unqualified) as consecutive entries, their parts after them, without
    /// recursion; answers the first one's index.
    private mutating func enter(_ types: [ObjCType]) -> Int32 {
        let first = entries.count
        var pending: [(index: Int, type: ObjCType)] = []
        for type in types {
            pending.append((entries.count, type))
            entries.append(entries[0])
        }
        var next = 0
        while next < pending.count {
            let (index, type) = pending[next]
            next += 1
            var entry = Entry(kind: .other, unsignedBits: UInt8(type.unsignedBits ?? 0), canHoldObject: Self.canHoldObject(type), first: 0, count: 0)
            switch type {
            case .short, .unsignedShort:
                entry.kind = .short
            case .array(_, let element):
                entry.kind = .array
                entry.first = Int32(entries.count)
                entry.count = 1
                pending.append((entries.count, element.unqualified))
                entries.append(entries[0])
            case .structure(_, let fields):
                entry.kind = .structure
                entry.first = Int32(entries.count)
                entry.count = Int32(fields.count)
                for field in fields {
                    pending.append((entries.count, field.type.unqualified))
                    entries.append(entries[0])
                }
            default:
                break
            }
            entries[index] = entry
        }
        return Int32(first)
    }

    private static func isObject(_ type: ObjCType) -> Bool {
        if case .object = type { return true }
        return false
    }

    /// Whether a value of `type` can hold an object (`@` anywhere inside it).
    static func canHoldObject(_ type: ObjCType) -> Bool {
        var pending = [type]
        while let t = pending.popLast() {
            switch t.unqualified {
            case .object: return true
            case .array(_, let element): pending.append(element)
            case .structure(_, let fields): pending.append(contentsOf: fields.map(\.type))
            default: break
            }
        }
        return false
    }
}
