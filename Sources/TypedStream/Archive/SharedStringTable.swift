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
    public var texts: [ArraySlice<UInt8>] { storage }
    /// ``texts``.
    @usableFromInline var storage: [ArraySlice<UInt8>] = []
    /// The first slot of each text of ``texts``, for a lookup by content. Built only when such a
    /// lookup comes: a graph read by `ArchiveReader` and written with its recorded decisions
    /// never needs it, and hashing every text would be a tenth of a round trip of a message body.
    private var index = ByteStringIndex()
    /// The first slot holding the text of each slot, for the slots asked about so far (see
    /// ``firstSlot(sameAs:)``).
    @usableFromInline var firstOfSlot: [Int32] = []
    /// How many of ``texts`` ``index`` has taken in.
    private var indexed = 0
    /// Up to how many texts ``firstSlot(of:)`` searches instead of hashing.
    private static let searchedTexts = 24

    /// An empty table.
    public init() {}

    /// The number of slots taken.
    @inlinable
    public var count: Int { storage.count }

    /// The first slot written with `text`, if any.
    public mutating func firstSlot(of text: ArraySlice<UInt8>) -> Int? {
        // A short table is searched: comparing a few texts costs less than hashing one (an
        // archive of one message body has about a dozen).
        if storage.count <= Self.searchedTexts {
            return storage.firstIndex(of: text)
        }
        catchUp()
        let texts = storage
        return index.slot(of: text) { texts[$0] }
    }

    /// The first slot holding the same text as slot `slot` (a slot already taken): each slot's
    /// answer is found once, then read from ``firstOfSlot`` without comparing or hashing texts.
    @inlinable
    public mutating func firstSlot(sameAs slot: Int) -> Int {
        if slot < firstOfSlot.count { return Int(firstOfSlot[slot]) }
        return findFirstSlot(sameAs: slot)
    }

    /// ``firstSlot(sameAs:)`` for a slot not yet in ``firstOfSlot``: fills it up to there.
    @usableFromInline
    mutating func findFirstSlot(sameAs slot: Int) -> Int {
        if storage.count <= Self.searchedTexts {
            while firstOfSlot.count < storage.count {
                let text = storage[firstOfSlot.count]
                firstOfSlot.append(Int32(storage.firstIndex(of: text) ?? firstOfSlot.count))
            }
        } else {
            catchUp()
        }
        return Int(firstOfSlot[slot])
    }

    /// Brings ``index`` (and ``firstOfSlot``) up to date with ``texts``.
    private mutating func catchUp() {
        let texts = storage
        while indexed < texts.count {
            // One hash: the slot already filed for this text, or this slot, filed now.
            let first = index.firstSlot(of: texts[indexed], filing: indexed) { texts[$0] }
            if indexed == firstOfSlot.count { firstOfSlot.append(Int32(first)) }
            indexed += 1
        }
    }

    /// What `NSArchiver` writes for `text`: a reference to the first literal of the same text,
    /// else a literal.
    @inlinable
    public mutating func archiverDecision(for text: ArraySlice<UInt8>) -> SharedStringDecision {
        if let first = firstSlot(of: text) {
            return .reference(index: first, width: .archiverChoice(forReferenceTo: first))
        }
        return .literal(length: .archiverChoice(for: Int64(text.count)))
    }

    /// What `NSArchiver` writes where the text of slot `slot` (a slot already taken) comes
    /// again: a reference to the first literal of that text. For a reader's reference, which
    /// names its slot: no text is compared or hashed.
    @inlinable
    public mutating func archiverDecision(forTextOf slot: Int) -> SharedStringDecision {
        let first = firstSlot(sameAs: slot)
        return .reference(index: first, width: .archiverChoice(forReferenceTo: first))
    }

    /// What the writer writes for `text` given the `recorded` decision, if any: a recorded
    /// literal (its length width when allowed and big enough, else NSArchiver's); a recorded
    /// reference to a slot holding the same text (its width when allowed and big enough, else
    /// NSArchiver's); otherwise ``archiverDecision(for:)``.
    public mutating func decision(for text: ArraySlice<UInt8>, recorded: SharedStringDecision?) -> SharedStringDecision {
        if let recorded {
            switch recorded {
            case .literal(let length):
                return .literal(length: IntegerPlace.counted.width(recorded: length, for: Int64(text.count)))
            case .reference(let slot, let width):
                if slot >= 0, slot < storage.count, storage[slot] == text {
                    return .reference(index: slot, width: IntegerPlace.referenceWidth(recorded: width, slot: slot))
                }
            }
        }
        return archiverDecision(for: text)
    }

    /// Takes `decision` for `text`: a literal takes the next slot.
    @inlinable
    public mutating func record(_ text: ArraySlice<UInt8>, _ decision: SharedStringDecision) {
        if case .literal = decision { storage.append(text) }
    }
}
