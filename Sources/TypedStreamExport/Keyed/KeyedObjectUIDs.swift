/// The UIDs of the objects a keyed export has met, by identity: an open-addressing table keyed
/// by the object's address (the encoder keeps every object it met alive, so an address is never
/// reused during an export). Addresses are the allocator's, not the input's, so probing stays
/// short; a multiplication spreads them over the slots.
struct KeyedObjectUIDs {
    /// The addresses; 0 for an empty slot.
    private var addresses: [UInt] = []
    private var uids: [UInt32] = []
    private var count = 0
    /// `64 - log2(slot count)`: the spread address's top bits index the slots.
    private var shift: UInt = 64

    @inline(__always)
    private func home(of address: UInt) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The UID of `object`, if it has one.
    subscript(object: ObjectIdentifier) -> UInt32? {
        guard count > 0 else { return nil }
        let address = UInt(bitPattern: object)
        return addresses.withUnsafeBufferPointer { addresses in
            let mask = addresses.count &- 1
            var index = home(of: address)
            while true {
                let found = addresses[index]
                if found == address { return uids[index] }
                if found == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }

    /// Gives `object` (not in the table) the UID `uid`.
    mutating func insert(_ object: ObjectIdentifier, uid: UInt32) {
        if (count + 1) * 2 > addresses.count { grow() }
        place(UInt(bitPattern: object), uid)
        count += 1
    }

    private mutating func place(_ address: UInt, _ uid: UInt32) {
        let mask = addresses.count - 1
        var index = home(of: address)
        while addresses[index] != 0 { index = (index &+ 1) & mask }
        addresses[index] = address
        uids[index] = uid
    }

    private mutating func grow() {
        let oldAddresses = addresses, oldUIDs = uids
        let size = max(64, oldAddresses.count * 2)
        addresses = Array(repeating: 0, count: size)
        uids = Array(repeating: 0, count: size)
        shift = UInt(64 - size.trailingZeroBitCount)
        for (address, uid) in zip(oldAddresses, oldUIDs) where address != 0 { place(address, uid) }
    }
}
