/// A set of distinct property-list values by their ``PlistCode`` bytes: what the keyed encoder
/// stores once per plain value (its `$objects` entries) and the binary writer once per scalar.
///
/// Two values are the same exactly when their codes are the same bytes: strings by their exact
/// UTF-8 bytes (Swift's `==` on strings would merge `"é"` and `"e\u{301}"` into one), reals and
/// dates by bit pattern (`0.0` and `-0.0` stay apart; a NaN matches a NaN of the same bits), an
/// integer never a real — without building a ``PlistValue``. The bytes themselves stay where
/// the caller keeps them (a code buffer); an entry records where they are and a number the
/// caller chose. Hashing is the standard library's seeded `Hasher` over the bytes, so a crafted
/// archive cannot choose collisions; slots are open-addressed and compared by a 32-bit hash
/// fragment before the bytes.
struct PlistCodeSet {
    /// One distinct value: where its code is in the caller's buffer, and the caller's number.
    struct Entry {
        var start: Int
        var count: UInt32
        var value: UInt32
    }

    /// The entries, in the order they were added.
    private(set) var entries: [Entry] = []
    /// `hash fragment << 32 | entry index + 1`; 0 for an empty slot.
    private var slots: [UInt64] = []

    /// The number of distinct values.
    var count: Int { entries.count }

    /// The hash of a value's code.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The index of the entry whose code (in `storage`) is `bytes`, hashed `hash`.
    func find(_ bytes: UnsafeRawBufferPointer, hash: UInt32, in storage: UnsafeRawBufferPointer) -> Int? {
        guard !entries.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let mask = slots.count &- 1
                var index = Int(hash) & mask
                while true {
                    let slot = slots[index]
                    if slot == 0 { return nil }
                    if UInt32(truncatingIfNeeded: slot >> 32) == hash {
                        let entry = entries[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) &- 1]
                        if Int(entry.count) == bytes.count,
                           bytes.count == 0 || memcmp(storage.baseAddress! + entry.start, bytes.baseAddress!, bytes.count) == 0 {
                            return Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) &- 1
                        }
                    }
                    index = (index &+ 1) & mask
                }
            }
        }
    }

    /// Adds a value not in the set: its code is `count` bytes at `start` of the caller's buffer,
    /// hashed `hash`; `value` is the caller's number (below 2³²). A code of 4 GiB or more is
    /// not added (it is then never found: such a value is stored again where it recurs).
    mutating func insert(start: Int, count: Int, hash: UInt32, value: Int) {
        guard let count = UInt32(exactly: count) else { return }
        if (entries.count + 1) * 2 > slots.count { grow() }
        let index = entries.count
        entries.append(Entry(start: start, count: count, value: UInt32(truncatingIfNeeded: value)))
        place(UInt64(hash) << 32 | UInt64(index + 1))
    }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: slot >> 32) & mask
        slots.withUnsafeMutableBufferPointer { slots in
            while slots[index] != 0 { index = (index &+ 1) & mask }
            slots[index] = slot
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(16, old.count * 2))
        for slot in old where slot != 0 { place(slot) }
    }

    /// Byte comparison, without Foundation.
    private func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int {
        var i = 0
        while i &+ 8 <= count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return 1 }
            i &+= 8
        }
        while i < count {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return 1 }
            i &+= 1
        }
        return 0
    }
}
