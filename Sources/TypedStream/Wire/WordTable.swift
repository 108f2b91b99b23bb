/// Values by a nonzero 64-bit word — an object's address, a hash already computed — in an
/// open-addressing table (linear probing, a power-of-two number of slots, at most three
/// quarters of them used, as the standard dictionary) that spreads the word with one
/// multiplication.
///
/// The standard dictionary hashes every key with SipHash, about 90 instructions a lookup before
/// the table is searched: for the ``Unarchiver``, which looks up every `@` value it decodes by
/// the identity of its graph entry, and for every reader, which looks up its type strings by
/// their hash, that would be a few percent of a typed decode and a twentieth of indexing a
/// message body. The words used here are
/// addresses the allocator chose and hashes of type strings that are then compared byte for
/// byte, so a crafted archive can make lookups miss, never find a wrong value.
struct WordTable<Value> {
    fileprivate struct Slot {
        /// The key; 0 for an empty slot.
        var word: UInt64
        var value: Value?
    }

    private var slots: [Slot] = []
    /// The number of entries.
    private(set) var count = 0
    /// `64 - log2(slots.count)`: the spread word's top bits index the slots.
    private var shift: UInt64 = 64

    /// An empty table with room for `capacity` entries before it first grows (nothing allocated
    /// for 0).
    init(capacity: Int = 0) {
        if capacity > 0 { resize(toHold: capacity) }
    }

    /// The value for `word` (nonzero), if there is one.
    subscript(word: UInt64) -> Value? {
        guard count > 0 else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var index = home(of: word)
            while true {
                // The key alone is read while probing (copying a slot would retain its value).
                let found = slots[index].word
                if found == word { return slots[index].value }
                if found == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }

    /// Sets the value for `word` (replacing any value it had). `word` must not be 0.
    mutating func set(_ value: Value, for word: UInt64) {
        let index = slotForInsertion(of: word)
        if slots[index].word == 0 { count += 1 }
        slots[index] = Slot(word: word, value: value)
    }

    /// Sets the value for `word` unless it has one already (one search, where a lookup and a
    /// ``set(_:for:)`` make two). `word` must not be 0.
    mutating func setIfAbsent(_ value: Value, for word: UInt64) {
        let index = slotForInsertion(of: word)
        guard slots[index].word == 0 else { return }
        count += 1
        slots[index] = Slot(word: word, value: value)
    }

    /// The slot holding `word`, or the empty slot where it goes, after growing the table if one
    /// more entry would fill it past three quarters. `word` must not be 0.
    private mutating func slotForInsertion(of word: UInt64) -> Int {
        precondition(word != 0, "a WordTable key is never 0")
        if (count + 1) * 4 > slots.count * 3 { resize(toHold: count + 1) }
        let mask = slots.count &- 1
        var index = home(of: word)
        while slots[index].word != 0 && slots[index].word != word { index = (index &+ 1) & mask }
        return index
    }

    /// The slot where the search for `word` starts.
    @inline(__always)
    private func home(of word: UInt64) -> Int {
        // Fibonacci hashing: the multiplication spreads every bit of the word (an address's low
        // bits are alignment zeros) into the top bits, which pick the slot.
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Rehashes into a power-of-two number of slots, at least 4/3 of `entries` (and 8).
    private mutating func resize(toHold entries: Int) {
        var size = 8
        while size * 3 < entries * 4 { size *= 2 }
        let old = slots
        slots = Array(repeating: Slot(word: 0, value: nil), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        count = 0
        for slot in old where slot.word != 0 {
            if let value = slot.value { set(value, for: slot.word) }
        }
    }
}

extension WordTable {
    /// The value for the object whose identity is `identity`.
    subscript(identity: ObjectIdentifier) -> Value? { self[UInt64(UInt(bitPattern: identity))] }

    /// Sets the value for the object whose identity is `identity`.
    mutating func set(_ value: Value, for identity: ObjectIdentifier) {
        set(value, for: UInt64(UInt(bitPattern: identity)))
    }
}

extension WordTable: Sendable where Value: Sendable {}
extension WordTable.Slot: Sendable where Value: Sendable {}
