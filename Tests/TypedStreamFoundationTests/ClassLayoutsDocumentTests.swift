import Foundation
import Testing
import TestSupport
@testable import TypedStreamFoundation

/// `docs/class-layouts.md` lists every catalogued layout as the catalogue has it. After a change
/// to the catalogue, `TYPEDSTREAM_WRITE_DOCS=1 swift test --filter classLayoutsDocumentIsCurrent`
/// writes it again (review the diff).
@Test func classLayoutsDocumentIsCurrent() throws {
    let url = PackageRoot.url.appendingPathComponent("docs/class-layouts.md")
    let expected = ClassLayoutsDocument.markdown()
    if ProcessInfo.processInfo.environment["TYPEDSTREAM_WRITE_DOCS"] == "1" {
        try Data(expected.utf8).write(to: url, options: .atomic)
    }
    let onDisk = try String(contentsOf: url, encoding: .utf8)
    #expect(onDisk == expected, "docs/class-layouts.md is not what the catalogue says; see this test's comment")
}

/// The Markdown of the catalogue: one section per class, one row per step.
enum ClassLayoutsDocument {
    static func markdown() -> String {
        var out = """
        # Class layouts

        What each catalogued class writes in its part of an object, root class first, as the
        `ClassLayouts` catalogue (`Sources/TypedStreamFoundation/Layouts/`) holds it: one row per
        group (or run of groups), its type string, how often it occurs, and the name of each value —
        with, in parentheses, the key Apple's keyed archiver uses for it, which the keyed export
        writes (see [keyed-mapping.md](keyed-mapping.md)). Objects of these classes decode to
        `LaidOutObject`; the tree and `decode --plain` show the names. Generated from the
        catalogue by the test `classLayoutsDocumentIsCurrent`.

        | classes | layouts |
        |---|---|
        | \(Set(ClassLayouts.all.map(\.className)).count) | \(ClassLayouts.all.count) |

        """
        for layout in ClassLayouts.all.sorted(by: { ($0.className, $0.versions.lowerBound) < ($1.className, $1.versions.lowerBound) }) {
            let versions = layout.versions.count == 1 ? "v\(layout.versions.lowerBound)" : "v\(layout.versions.lowerBound)–\(layout.versions.upperBound)"
            out += "\n## \(layout.className) \(versions)\n\n"
            guard !layout.steps.isEmpty else {
                out += "Writes nothing of its own.\n"
                continue
            }
            out += "| type string | occurs | values |\n|---|---|---|\n"
            for step in layout.steps {
                let occurs: String
                switch step.repetition {
                case .once: occurs = "once"
                case .optional: occurs = "optional"
                case .counted(let by): occurs = "`\(by)` times"
                case .any: occurs = "any number of times"
                }
                let names = step.fields.map { field in
                    "`\(field.name)`" + (field.keyedName.map { " (`\($0)`)" } ?? "")
                }.joined(separator: ", ")
                let type = step.typeString.replacingOccurrences(of: "|", with: "\\|")
                out += "| `\(type)` | \(occurs) | \(names) |\n"
            }
        }
        return out
    }
}
