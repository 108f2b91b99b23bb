/// What makes the class links of a token stream a graph, checked as the links come: every
/// object has a class (its first link is not nil), and no class chain loops (no class is, itself
/// or through its superclasses, its own superclass). ``ArchiveIndex`` and ``ArchiveReader``
/// check both through this one type, with the same errors.
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

    /// A new object in `slot`: its class chain comes next.
    @inline(__always)
    mutating func newObject(slot: Int) {
        place = .afterObject(slot)
        chainStart = slot + 1
    }

    /// Checks the class link `token` of an archive whose bytes are `bytes`; returns the error it
    /// makes, if any.
    @inline(__always)
    mutating func check(_ token: CompactToken, in bytes: [UInt8]) -> WireError? {
        var found: WireError? = nil
        switch place {
        case .afterObject(let object) where token.form == .null:
            found = WireError(.unexpectedHeadByte, at: token.start, "object #\(object) has no class (nil where its class should be)")
        case .afterClass where token.form == .reference && token.slot >= chainStart:
            let name = String(decoding: bytes[lastName], as: UTF8.self)
            found = WireError(.classChainLoop, at: token.start, "the superclass of class \(name) leads back to \(name): the class chain loops")
        case .none:
            // The first link of a `#` value.
            chainStart = token.slot
        default:
            break
        }
        if token.form == .new {
            lastName = token.payload
            place = .afterClass
        } else {
            place = .none
        }
        return found
    }
}
