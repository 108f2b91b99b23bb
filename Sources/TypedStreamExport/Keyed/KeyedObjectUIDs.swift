/// The UIDs of the objects a keyed export has noted by identity (those written as dictionaries,
/// and data): an open-addressing table keyed by the object's address (the encoder keeps every
/// object it notes alive, so an address is never reused during an export). Addresses are the
/// allocator's, not the input's, so probing stays short; a multiplication spreads them over
/// the slots.
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

/// The UIDs of the plain objects (strings and numbers, stored once by value) a keyed export met
/// lately, by identity: a small direct-mapped cache that spares an object met again (a
/// dictionary key every dictionary shares) the encoding and hashing of its value, without
/// noting every plain object in ``KeyedObjectUIDs``. A slot holds its object, so an address in
/// the cache is never reused by another object; a slot taken by another object forgets the
/// first (which is then found again by its value, under the same UID).
struct RecentPlainUIDs {
    private static let slotBits = 12
    private var objects: [AnyObject?] = Array(repeating: nil, count: 1 << slotBits)
    private var uids: [UInt32] = Array(repeating: 0, count: 1 << slotBits)

    @inline(__always)
    private static func slot(of object: AnyObject) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt(64 - slotBits))
    }

    /// The UID noted for `object`, if it is still in its slot.
    subscript(object: AnyObject) -> UInt32? {
        let slot = Self.slot(of: object)
        return objects[slot] === object ? uids[slot] : nil
    }

    /// Notes `object`'s UID, forgetting the object its slot held.
    mutating func note(_ object: AnyObject, uid: UInt32) {
        let slot = Self.slot(of: object)
        objects[slot] = object
        uids[slot] = uid
    }
}
