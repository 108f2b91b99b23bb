import TypedStream

/// The tables both directions of the lossless JSON keep while they walk an archive in the
/// writer's order: the writer's own shared-string table (``SharedStringTable``, which says what
/// ``ArchiveWriter`` writes for a text, so the JSON can leave out every decision that equals
/// it and the importer can fill it back in), and the object-table slot count.
struct WireTables {
    /// The shared-string table, as the writer keeps it.
    var strings = SharedStringTable()
    /// Object-table slots claimed so far.
    private(set) var slotCount = 0

    /// What the writer writes for `text` without a recorded decision.
    mutating func defaultDecision(for text: ArraySlice<UInt8>) -> SharedStringDecision {
        strings.decision(for: text, recorded: nil)
    }

    /// What the writer writes for `text` given the recorded decision (which it ignores where it
    /// cannot be honoured).
    mutating func effectiveDecision(for text: ArraySlice<UInt8>, recorded: SharedStringDecision?) -> SharedStringDecision {
        strings.decision(for: text, recorded: recorded)
    }

    /// Why `decision` cannot be honoured for `text` at this point, or `nil` when it can: the
    /// importer's message for a decision the writer would not follow.
    func problem(with decision: SharedStringDecision, for text: ArraySlice<UInt8>) -> String? {
        let texts = strings.texts
        switch decision {
        case .literal(let width):
            guard IntegerPlace.counted.allows(width) else { return "a literal's length is never written as \(width.name)" }
            guard width.canHold(Int64(text.count)) else { return "length \(text.count) does not fit the width \(width.name)" }
        case .reference(let index, let width):
            guard index >= 0, index < texts.count else {
                return "reference to shared string #\(index), but only \(texts.count) precede it"
            }
            guard texts[index] == text else { return "shared string #\(index) holds different text" }
            guard IntegerPlace.counted.allows(width), width.canHold(Int64(index) + HeadByte.referenceBias) else {
                return "reference #\(index) does not fit the width \(width.name)"
            }
        }
        return nil
    }

    /// Follows `decision` (which must be writable): a literal takes the next shared-string slot.
    mutating func record(_ text: ArraySlice<UInt8>, _ decision: SharedStringDecision) {
        strings.record(text, decision)
    }

    /// Claims the next object-table slot (a new object, class or C string).
    mutating func claimSlot() -> Int {
        defer { slotCount += 1 }
        return slotCount
    }
}
