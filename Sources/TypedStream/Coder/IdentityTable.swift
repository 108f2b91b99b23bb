/// A map from object identity to a number: open addressing over one array of (identity,
/// number) pairs, placed by address, so a lookup mostly costs one cache line, and objects made
/// one after the other are found near one another.
///
/// The encoder looks every object up by identity and adds each new one. A `Dictionary` keyed
/// by `ObjectIdentifier` hashes each identity twice with the standard hasher (about 60
/// instructions each) and keeps keys and values in separate arrays, two cache misses per
/// object once the table outgrows the cache (600 000 objects for a 10 MB archive).
struct IdentityTable {
    /// The places: identity bits (0: free) and number.
    private var places: [(key: UInt, value: Int)]
    /// The numbers recorded.
    private(set) var count = 0
    /// `places.count - 1` (a power of two less one).
    private var mask: Int

    /// An empty table.
    init() {
        places = Array(repeating: (0, 0), count: 16)
        mask = 15
    }

    /// Where `key` is, or the free place where it would go.
    @inline(__always)
    private func place(of key: UInt) -> Int {
        // The address itself, without its alignment bits, folded once: objects made one after
        // the other (a decoded archive's, in the order the encoder meets them) fall in places
        // near one another, so a large table is walked rather than hit at random (at 50 MB,
        // 3 million objects, a random place per object would cost a cache miss each).
        let bits = key >> 4
        var position = Int(truncatingIfNeeded: bits ^ (bits >> 20)) & mask
        while places[position].key != 0 && places[position].key != key {
            position = (position &+ 1) & mask
        }
        return position
    }

    /// The number recorded for `id`, if any.
    @inline(__always)
    subscript(id: ObjectIdentifier) -> Int? {
        let key = UInt(bitPattern: id)
        let position = place(of: key)
        return places[position].key == key ? places[position].value : nil
    }

    /// Records `value` for `id`, replacing what was recorded for it.
    mutating func record(_ value: Int, for id: ObjectIdentifier) {
        let key = UInt(bitPattern: id)
        let position = place(of: key)
        if places[position].key == key {
            places[position].value = value
            return
        }
        places[position] = (key, value)
        count += 1
        // At most half full: probes stay short.
        if count * 2 > places.count { grow() }
    }

    private mutating func grow() {
        let old = places
        places = Array(repeating: (0, 0), count: old.count * 2)
        mask = places.count - 1
        for entry in old where entry.key != 0 {
            places[place(of: entry.key)] = entry
        }
    }
}
