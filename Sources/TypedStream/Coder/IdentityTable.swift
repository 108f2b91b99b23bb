/// Values by object identity: an open-addressing table (linear probing, a power-of-two number
/// of slots, at most half of them used) whose hash is the identity's address times one odd
/// constant.
///
/// The ``Unarchiver`` looks up every `@` value it decodes by the identity of its graph entry.
/// The standard dictionary hashes each identity with SipHash — about 200 instructions a lookup,
/// a few percent of a typed decode; one multiplication is enough here. The keys are addresses
/// the allocator chose, not values an archive chooses, so they cannot be crafted to collide.
struct IdentityTable<Value> {
    private struct Slot {
        /// The identity's address; 0 for an empty slot (no object lives at address 0).
        var key: UInt
        var value: Value?
    }

    private var slots: [Slot] = []
    /// The number of entries.
    private(set) var count = 0
    /// `64 - log2(slots.count)`: the hash's top bits index the slots.
    private var shift = 64

    /// An empty table with room for `capacity` entries before it first grows (none allocated
    /// for 0).
    init(capacity: Int = 0) {
        if capacity > 0 { resize(toHold: capacity) }
    }

    /// The value for `key`, if there is one.
    subscript(key: ObjectIdentifier) -> Value? {
        guard count > 0 else { return nil }
        let address = UInt(bitPattern: key)
        return slots.withUnsafeBufferPointer { slots in
            var index = Self.home(of: address, shift: shift)
            while true {
                let slot = slots[index]
                if slot.key == address { return slot.value }
                if slot.key == 0 { return nil }
                index = (index &+ 1) & (slots.count &- 1)
            }
        }
    }

    /// Sets the value for `key` (replacing any value it had).
    mutating func set(_ value: Value, for key: ObjectIdentifier) {
        if (count + 1) * 2 > slots.count { resize(toHold: count + 1) }
        set(value, forAddress: UInt(bitPattern: key))
    }

    /// Sets the value for the identity at `address`, in a table with room for it.
    private mutating func set(_ value: Value, forAddress address: UInt) {
        let mask = slots.count &- 1
        var index = Self.home(of: address, shift: shift)
        while slots[index].key != 0 && slots[index].key != address { index = (index &+ 1) & mask }
        if slots[index].key == 0 { count += 1 }
        slots[index] = Slot(key: address, value: value)
    }

    /// The slot where the search for `address` starts.
    @inline(__always)
    private static func home(of address: UInt, shift: Int) -> Int {
        // Fibonacci hashing: the multiplication spreads the address's middle bits (the low ones
        // are alignment zeros) into the top bits, which pick the slot.
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// Rehashes into a power-of-two number of slots, at least twice `entries` (and 8).
    private mutating func resize(toHold entries: Int) {
        var size = 8
        while size < entries * 2 { size *= 2 }
        let old = slots
        slots = Array(repeating: Slot(key: 0, value: nil), count: size)
        shift = 64 - size.trailingZeroBitCount
        count = 0
        for slot in old where slot.key != 0 {
            if let value = slot.value { set(value, forAddress: slot.key) }
        }
    }
}
