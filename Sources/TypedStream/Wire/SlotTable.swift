/// The reader's object table: one ``TokenReader/SlotEntry`` per slot, a value with the copy
/// semantics of an array, whose `append` is inlined into the reading loops.
///
/// `Array.append` calls two functions of the standard library out of line on every call (one
/// to make the buffer unique, one to make room), which the optimizer will not inline into the
/// large reading loops: about 30 instructions per new object, class or C string. Here an append
/// is a uniqueness test, a capacity test and a store; copying, growing and reserving are out of
/// line and rare.
///
/// Copies share their memory until one of them changes: a change first makes the memory its
/// own (copy on write). The count lives in the value, not the memory, so two copies can never
/// see each other's entries.
struct SlotTable: @unchecked Sendable {
    /// The memory (entries `0..<count` initialized).
    private typealias Storage = PlainMemory<TokenReader.SlotEntry>

    private var storage: Storage
    /// The number of entries.
    private(set) var count = 0

    /// The memory of every empty table (so that making a reader allocates nothing).
    private static let empty = Storage(capacity: 0)

    /// An empty table.
    init() { storage = Self.empty }

    /// The slot numbers.
    var indices: Range<Int> { 0..<count }

    /// Entry `index`, which must exist.
    @inline(__always)
    subscript(index: Int) -> TokenReader.SlotEntry {
        get {
            precondition(index >= 0 && index < count, "object-table slot out of range")
            return storage.base[index]
        }
        set {
            precondition(index >= 0 && index < count, "object-table slot out of range")
            makeUnique()
            storage.base[index] = newValue
        }
    }

    /// Adds `entry` at the end.
    @inline(__always)
    mutating func append(_ entry: TokenReader.SlotEntry) {
        makeUnique()
        appendToUnique(entry)
    }

    /// Adds `entry` at the end of a table whose memory is its own: the caller made it so with
    /// ``makeUnique()`` and has not copied the table since (the walk, which holds its reader
    /// exclusively). Skips the uniqueness test of ``append(_:)`` — a call into the runtime, and
    /// the registers it clobbers, per new object.
    @inline(__always)
    mutating func appendToUnique(_ entry: TokenReader.SlotEntry) {
        assert(isKnownUniquelyReferenced(&storage), "appendToUnique on a shared table")
        if count == storage.capacity { makeUnique(capacity: grownCapacity) }
        (storage.base + count).initialize(to: entry)
        count += 1
    }

    /// The capacity a full table grows to: double, and at least ``TokenReader/firstTableRoom``.
    private var grownCapacity: Int { max(TokenReader.firstTableRoom, 2 * count) }

    /// Gives the table memory of its own if it shares it (see ``appendToUnique(_:)``). Appends
    /// follow a copy, so a full table's copy has room for more — an empty table gets its first
    /// room at once — and the next append does not copy again.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { makeUnique(capacity: count == storage.capacity ? grownCapacity : storage.capacity) }
    }

    /// Makes room for `capacity` entries in all, so that appends up to it never regrow.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { makeUnique(capacity: capacity) }
    }

    /// Gives the table memory of its own for `capacity` entries (at least `count`).
    @inline(never)
    private mutating func makeUnique(capacity: Int) {
        let larger = Storage(capacity: max(capacity, count))
        larger.base.initialize(from: storage.base, count: count)
        storage = larger
    }
}
