/// A number kept per graph entry (object, class or C string), found by the entry's identity.
///
/// A graph entry read by ``ArchiveReader`` carries the slot it had in its source
/// (`sourceIndex`), so a value is kept in a table at that number, checked by identity, and a
/// dictionary takes only the rest: entries made by hand (no source slot), entries whose place
/// is taken (moved in from another archive) and source slots far beyond the entries recorded
/// so far (set by hand). For a graph read from one archive nothing is hashed.
///
/// ``ArchiveWriter`` keeps in it the slot it wrote each entry to (hashing the 40 or so
/// identities of a message body would be an eighth of its encoding). Reading `sourceIndex`
/// costs a run-time exclusivity check (the graph classes are public and mutable), about what a
/// hash costs, which is why ``Unarchiver`` keeps its decoded instances in a ``WordTable``
/// keyed by identity instead.
struct EntryTable {
    /// By source slot: the identity of the entry placed there (0 when the place is free) …
    private var identities: [UInt] = []
    /// … and its number.
    private var values: [Int] = []
    /// Entries that have no place in the table.
    private var others: [ObjectIdentifier: Int] = [:]
    /// The number of entries recorded (the table grows to about twice that, at most).
    private var recorded = 0

    /// An empty table.
    init() {}

    /// The number recorded for `entry`, whose source slot is `source`; `nil` if none.
    @inline(__always)
    func value(for entry: AnyObject, source: Int?) -> Int? {
        let id = ObjectIdentifier(entry)
        if let source, source >= 0, source < identities.count, identities[source] == UInt(bitPattern: id) {
            return values[source]
        }
        // (A free place does not mean "not recorded": the entry may have come before the
        // table reached its source slot.)
        return others.isEmpty ? nil : others[id]
    }

    /// Records `value` for `entry` (source slot `source`), replacing what was recorded for it.
    mutating func record(_ value: Int, for entry: AnyObject, source: Int?) {
        let id = ObjectIdentifier(entry)
        recorded += 1
        if let source, source >= 0, source < 2 * recorded + 1024 {
            if source >= identities.count {
                let count = max(source + 1, 2 * identities.count, 64)
                identities.append(contentsOf: repeatElement(0, count: count - identities.count))
                values.append(contentsOf: repeatElement(0, count: count - values.count))
            }
            // A free place, or this entry's own (the table is looked at first, so a value
            // recorded here wins over one the dictionary took earlier).
            let placed = identities[source]
            if placed == 0 || placed == UInt(bitPattern: id) {
                identities[source] = UInt(bitPattern: id)
                values[source] = value
                return
            }
        }
        others[id] = value
    }
}
