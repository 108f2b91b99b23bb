/// The shared-string table as it is written: the text of each literal, by shared-string slot,
/// and the rule by which the writer writes a text as a literal or as a reference to an earlier
/// one. ``ArchiveWriter`` writes with it; the lossless JSON walks an archive with one to leave
/// out every decision that equals the writer's, and to fill it back in.
///
/// ```swift
/// var table = SharedStringTable()
/// let text = ArraySlice("NSString".utf8)
/// table.decision(for: text, recorded: nil)   // .literal(length: .inline)
/// table.record(text, .literal(length: .inline))
/// table.decision(for: text, recorded: nil)   // .reference(index: 0, width: .inline)
/// ```
public struct SharedStringTable: Sendable {
    /// The text of each literal written so far, by shared-string slot.
    public private(set) var texts: [ArraySlice<UInt8>] = []
    /// The first slot of each text of ``texts``, for a lookup by content. Built only when such a
    /// lookup comes: a graph read by `ArchiveReader` and written with its recorded decisions
    /// never needs it, and hashing every text would be a tenth of a round trip of a message body.
    private var index: [ArraySlice<UInt8>: Int] = [:]
    /// The first slot holding the text of each slot ``index`` has taken in.
    private var firstOfSlot: [Int32] = []
    /// How many of ``texts`` ``index`` has taken in.
    private var indexed = 0
    /// Up to how many texts ``firstSlot(of:)`` searches instead of hashing.
    private static let searchedTexts = 24

    /// An empty table.
    public init() {}

    /// The number of slots taken.
    public var count: Int { texts.count }

    /// The first slot written with `text`, if any.
    public mutating func firstSlot(of text: ArraySlice<UInt8>) -> Int? {
        // A short table is searched: comparing a few texts costs less than hashing one (an
        // archive of one message body has about a dozen).
        if texts.count <= Self.searchedTexts {
            return texts.firstIndex(of: text)
        }
        catchUp()
        return index[text]
    }

    /// The first slot holding the same text as slot `slot` (a slot already taken): found
    /// without hashing the text once ``index`` holds the slot.
    public mutating func firstSlot(sameAs slot: Int) -> Int {
        if texts.count <= Self.searchedTexts {
            return texts.firstIndex(of: texts[slot]) ?? slot
        }
        catchUp()
        return Int(firstOfSlot[slot])
    }

    /// Brings ``index`` and ``firstOfSlot`` up to date with ``texts``.
    private mutating func catchUp() {
        while indexed < texts.count {
            let earlier = texts[indexed]
            if let first = index[earlier] {
                firstOfSlot.append(Int32(first))
            } else {
                index[earlier] = indexed
                firstOfSlot.append(Int32(indexed))
            }
            indexed += 1
        }
    }

    /// What `NSArchiver` writes for `text`: a reference to the first literal of the same text
    /// (``firstSlot(sameAs:)`` of `slot` when the caller knows a slot holding it, as a reader
    /// does for a reference), else a literal.
    public mutating func archiverDecision(for text: ArraySlice<UInt8>, holdingSlot slot: Int? = nil) -> SharedStringDecision {
        if let first = slot.map({ firstSlot(sameAs: $0) }) ?? firstSlot(of: text) {
            return .reference(index: first, width: .archiverChoice(forReferenceTo: first))
        }
        return .literal(length: .archiverChoice(for: Int64(text.count)))
    }

    /// What the writer writes for `text` given the `recorded` decision, if any: a recorded
    /// literal (its length width when allowed and big enough, else NSArchiver's); a recorded
    /// reference to a slot holding the same text (its width when allowed and big enough, else
    /// NSArchiver's); otherwise ``archiverDecision(for:holdingSlot:)``.
    public mutating func decision(for text: ArraySlice<UInt8>, recorded: SharedStringDecision?) -> SharedStringDecision {
        if let recorded {
            switch recorded {
            case .literal(let length):
                return .literal(length: IntegerPlace.counted.width(recorded: length, for: Int64(text.count)))
            case .reference(let slot, let width):
                if slot >= 0, slot < texts.count, texts[slot] == text {
                    return .reference(index: slot, width: IntegerPlace.referenceWidth(recorded: width, slot: slot))
                }
            }
        }
        return archiverDecision(for: text)
    }

    /// Takes `decision` for `text`: a literal takes the next slot.
    public mutating func record(_ text: ArraySlice<UInt8>, _ decision: SharedStringDecision) {
        if case .literal = decision { texts.append(text) }
    }
}
