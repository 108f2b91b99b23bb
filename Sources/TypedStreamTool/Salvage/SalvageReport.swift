import TypedStream
import TypedStreamExport

/// What `salvage` tells about one input: where the damage is, what was kept and what was lost,
/// as lines for standard error or as one JSON object.
struct SalvageReport {
    /// The input's name as shown (`<stdin>` for standard input).
    var file: String
    /// What survived.
    var salvage: ArchiveSalvage
    /// The length of the archive written.
    var outputLength: Int
    /// Whether the archive written starts with the input's first ``ArchiveSalvage/keptLength``
    /// bytes.
    var prefixIdentical: Bool

    /// How many reference cuts the text lists one per line; the JSON lists them all.
    static let listedCuts = 20

    /// Bytes from the damage on (none when undamaged).
    var bytesFromDamage: Int {
        guard let damage = salvage.damage else { return 0 }
        return max(0, salvage.inputLength - damage.offset)
    }

    /// How many top-level groups were lost: the one the damage cut short (groups after the
    /// damage are not counted: nothing is known of them).
    var lostGroupCount: Int { salvage.damagedGroupOffset == nil ? 0 : 1 }

    /// The report as lines of text.
    var lines: [String] {
        let s = salvage
        guard let damage = s.damage else {
            return ["\(file): undamaged (\(s.inputLength) bytes, \(plural(s.keptGroupCount, "top-level group")), \(plural(s.keptObjectCount, "object"))); written unchanged"]
        }
        let rest = bytesFromDamage == 0 ? "where the data ends" : "\(plural(bytesFromDamage, "byte")) from there on not read"
        var lines = ["\(file): damaged at offset \(TextFormatting.hexOffset(damage.offset)) (\(damage.offset)), \(rest): \(damage.reason)"]
        var kept = "\(file): kept the header and \(plural(s.keptGroupCount, "whole top-level group")) (\(s.keptLength) bytes"
        kept += prefixIdentical ? ", byte for byte)" : ", written anew)"
        kept += " holding \(plural(s.keptObjectCount, "object"))"
        if let start = s.damagedGroupOffset {
            kept += "; the group at offset \(TextFormatting.hexOffset(start)) (\(start)) is cut short: "
            kept += "\(plural(s.recoveredObjectCount, "whole object")) recovered from it as \(plural(s.addedGroupCount, "added \"@\" group"))"
        }
        kept += "; lost \(plural(s.lostObjectCount, "object")) begun before the damage"
        if !s.cutReferences.isEmpty { kept += "; \(plural(s.cutReferences.count, "reference")) to them written as nil" }
        lines.append(kept)
        for cut in s.cutReferences.prefix(Self.listedCuts) {
            lines.append("  reference cut: #\(cut.from) \(cut.fromClass) → #\(cut.to) \(cut.toClass), written as nil")
        }
        if s.cutReferences.count > Self.listedCuts {
            lines.append("  … and \(s.cutReferences.count - Self.listedCuts) more (all in --report json)")
        }
        return lines
    }

    /// The report as one JSON object (the keys are described in `salvage`'s help).
    var json: JSONValue {
        let s = salvage
        let damage: JSONValue = s.damage.map { error in
            .object([.init("offset", .integer(error.offset)), .init("code", .string(error.code.rawValue)), .init("reason", .string(error.reason))])
        } ?? .null
        let cuts: [JSONValue] = s.cutReferences.map { cut in
            .object([.init("from", .integer(cut.from)), .init("fromClass", .string(cut.fromClass)),
                     .init("to", .integer(cut.to)), .init("toClass", .string(cut.toClass))])
        }
        return .object([
            .init("file", .string(file)),
            .init("damaged", .bool(s.damage != nil)),
            .init("inputLength", .integer(s.inputLength)),
            .init("damage", damage),
            .init("bytesFromDamage", .integer(bytesFromDamage)),
            .init("keptLength", .integer(s.keptLength)),
            .init("damagedGroupOffset", s.damagedGroupOffset.map { .integer($0) } ?? .null),
            .init("groups", .object([.init("kept", .integer(s.keptGroupCount)), .init("lost", .integer(lostGroupCount)),
                                     .init("added", .integer(s.addedGroupCount))])),
            .init("objects", .object([.init("kept", .integer(s.keptObjectCount)), .init("recovered", .integer(s.recoveredObjectCount)),
                                      .init("lost", .integer(s.lostObjectCount))])),
            .init("cutReferences", .array(cuts)),
            .init("outputLength", .integer(outputLength)),
            .init("prefixIdentical", .bool(prefixIdentical)),
        ])
    }

    /// The marker `salvage --plain` puts last in `"values"`: `{"$salvage": {…}}`.
    var plainMarker: JSONValue? {
        guard let damage = salvage.damage else { return nil }
        return .object([.init("$salvage", .object([
            .init("offset", .integer(damage.offset)),
            .init("reason", .string(damage.reason)),
            .init("keptGroups", .integer(salvage.keptGroupCount)),
            .init("addedGroups", .integer(salvage.addedGroupCount)),
            .init("lostObjects", .integer(salvage.lostObjectCount)),
            .init("cutReferences", .integer(salvage.cutReferences.count)),
        ]))])
    }

    private func plural(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }
}
