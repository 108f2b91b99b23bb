/// What makes the class links of a token stream a graph, checked as the links come: every
/// object has a class (its first link is not nil), no class chain loops (no class is, itself
/// or through its superclasses, its own superclass), and no chain is longer than
/// ``DecodingLimits/maximumClassChainLength``. ``ArchiveIndex`` and ``ArchiveReader`` check
/// them through this one type, with the same errors.
///
/// A loop is found by slot numbers alone: classes read before the chain being read have
/// loop-free chains of their own (their superclasses were fixed when they were read), so only a
/// reference to a class this chain took can lead back.
struct ClassChainCheck {
    private enum Place {
        /// Not in a chain.
        case none
        /// After a new object, whose slot is given.
        case afterObject(Int)
        /// After a new class.
        case afterClass
    }

    private var place = Place.none
    /// The first class slot taken by the chain being read.
    private var chainStart = 0
    /// The name (a range of the input) of the last class the chain took.
    private var lastName = 0..<0
    /// The longest chain accepted.
    private let maximumLength: Int
    /// The length of the chain from each class read (by slot) to its root.
    private var lengths: [Int: Int] = [:]
    /// The slots of the new classes the chain being read took, most derived first.
    private var newClasses: [Int] = []

    /// Checks with `limits`' longest class chain.
    init(limits: DecodingLimits) {
        maximumLength = limits.maximumClassChainLength
    }

    /// A new object in `slot`: its class chain comes next.
    @inline(__always)
    mutating func newObject(slot: Int) {
        place = .afterObject(slot)
        chainStart = slot + 1
        if !newClasses.isEmpty { newClasses.removeAll(keepingCapacity: true) }
    }

    /// Checks the class link `token` of an archive whose bytes are `bytes`; returns the error it
    /// makes, if any.
    @inline(__always)
    mutating func check(_ token: CompactToken, in bytes: [UInt8]) -> WireError? {
        // Most links: a class read before, ending a chain that took no new class (an object of
        // a known class). Nothing to check or record.
        if token.form == .reference, newClasses.isEmpty {
            place = .none
            return nil
        }
        return checkLink(form: token.form, slot: token.slot, start: token.start, payload: token.payload, in: bytes)
    }

    /// ``check(_:in:)`` for the links that start, extend or end a chain of new classes.
    @inline(never)
    private mutating func checkLink(form: CompactToken.Form, slot: Int, start: Int, payload: Range<Int>, in bytes: [UInt8]) -> WireError? {
        var found: WireError? = nil
        switch place {
        case .afterObject(let object) where form == .null:
            found = WireError(.unexpectedHeadByte, at: start, "object #\(object) has no class (nil where its class should be)")
        case .afterClass where form == .reference && slot >= chainStart:
            let name = String(decoding: bytes[lastName], as: UTF8.self)
            found = WireError(.classChainLoop, at: start, "the superclass of class \(name) leads back to \(name): the class chain loops")
        case .none:
            // The first link of a `#` value.
            chainStart = slot
            newClasses.removeAll(keepingCapacity: true)
        default:
            break
        }
        if form == .new {
            lastName = payload
            place = .afterClass
            newClasses.append(slot)
            if found == nil, newClasses.count > maximumLength { found = tooLong(at: start) }
        } else {
            place = .none
            // A chain of classes all read before was checked when they were read (and an
            // object of a known class costs no lookup).
            guard !newClasses.isEmpty else { return found }
            // The chain ends here (nil, or a class read before): its new classes' lengths.
            let tail = form == .reference ? lengths[slot] ?? 1 : 0
            if found == nil, newClasses.count + tail > maximumLength { found = tooLong(at: start) }
            for (index, newSlot) in newClasses.enumerated() { lengths[newSlot] = newClasses.count - index + tail }
            newClasses.removeAll(keepingCapacity: true)
        }
        return found
    }

    private func tooLong(at offset: Int) -> WireError {
        WireError(.limitExceeded, at: offset, "a class chain longer than \(maximumLength) classes (DecodingLimits.maximumClassChainLength)")
    }
}
