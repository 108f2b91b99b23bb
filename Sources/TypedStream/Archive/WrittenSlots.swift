/// The object-table slots an ``ArchiveWriter`` has given objects, classes and C strings, found
/// by identity.
///
/// A graph entry read by ``ArchiveReader`` carries the slot it had in its source
/// (`sourceIndex`), and written back it mostly gets the same one; so the slot is kept in a
/// table at that number, checked by identity, and a dictionary takes only the rest: entries
/// made by hand (no source slot), entries whose place is taken (moved in from another archive)
/// and source slots far beyond the slots written so far (set by hand). Writing a message body
/// read from disk hashed about 40 identities before (an eighth of its encoding); now none.
struct WrittenSlots {
    /// By source slot: the identity of the entry placed there (0 when the place is free) …
    private var identities: [UInt] = []
    /// … and the slot it was written to.
    private var slots: [Int] = []
    /// Entries that have no place in the table.
    private var others: [ObjectIdentifier: Int] = [:]

    /// The slot written for `entry`, whose source slot is `source`; `nil` if none yet.
    @inline(__always)
    func slot(of entry: AnyObject, source: Int?) -> Int? {
        let id = ObjectIdentifier(entry)
        if let source, source >= 0, source < identities.count, identities[source] == UInt(bitPattern: id) {
            return slots[source]
        }
        // (A free place does not mean "not written": the entry may have come before the table
        // reached its source slot.)
        return others.isEmpty ? nil : others[id]
    }

    /// Records that `entry` (source slot `source`) was written to `slot`. The table grows only
    /// to about twice the slot numbers recorded (a larger source slot goes to the dictionary).
    mutating func record(_ entry: AnyObject, source: Int?, slot: Int) {
        let id = ObjectIdentifier(entry)
        if let source, source >= 0, source < 2 * slot + 1024 {
            if source >= identities.count {
                let count = max(source + 1, 2 * identities.count)
                identities.append(contentsOf: repeatElement(0, count: count - identities.count))
                slots.append(contentsOf: repeatElement(0, count: count - slots.count))
            }
            if identities[source] == 0 {
                identities[source] = UInt(bitPattern: id)
                slots[source] = slot
                return
            }
        }
        others[id] = slot
    }
}
