import Foundation
import Testing
@testable import ModelDocument
import TestSupport

/// The sample documents in `Samples/` are made by this code. This test rebuilds them in a
/// temporary folder and compares every file with the checked-in copy. To regenerate them after
/// an intended change, run:
///
///     TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter ModelDocumentTests.SampleDocumentTests
///
/// and review the diff.
@Suite struct SampleDocumentTests {
    struct Sample: Sendable {
        var folder: String
        var version: DocumentVersion
        var records: [ModelRecord]
        var note: String
        /// A model deleted in a second save (so the sample carries an undo history).
        var deletedAfterCreation: String?
    }

    static let samples: [Sample] = [
        Sample(folder: "model-v1", version: .v1, records: VersioningTests.v1Records + [
            ModelRecord(name: "Three", type: "sketch", rect: ModelRect(x: 8, y: 8, width: 64, height: 48), flag: 2, kind: 0, thumbnail: PlaceholderImages.green),
        ], note: """
            A version 1 Model document: three Models written with five groups each
            (`@` name, `@` type, `{?=ffff}` rect, `I` flag, `i` kind — no `md_para`).
            "One" has no thumbnail (normal: opening is silent about it); "Two" has a
            two-byte stand-in; "Three" a 2×2 PNG. Try `model migrate` on a copy.
            """),
        Sample(folder: "model-v2", version: .v2, records: ModelDocument.placeholderRecords, note: """
            A version 2 (current) Model document: the placeholder Models of a first run
            ("Sunrise", "Harbour", "Field notes"), six groups each, with 2×2 PNG thumbnails.
            Saved twice: "Sunrise" was deleted in the second save, so `history.plist` holds one
            undoable edit — `model undo` on a copy brings it back, byte for byte.
            """, deletedAfterCreation: "Sunrise"),
        Sample(folder: "model-v3-draft", version: .v3Draft, records: [
            ModelRecord(name: "Reserved", type: "draft", rect: ModelRect(x: 0, y: 0, width: 1, height: 1), flag: 1, kind: 2, para: 3, reserved: 0),
            ModelRecord(name: "Future", type: nil, rect: ModelRect(x: 0.5, y: 0.5, width: 2, height: 2), flag: 0, kind: 0, para: 0, reserved: 7),
        ], note: """
            A version 3 (draft) Model document: seven groups per Model, the seventh an `i`
            reserved for a future field (0 from this program; "Future" carries 7 to show it is
            kept). No thumbnails.
            """),
    ]

    static var packageRoot: String { PackageRoot.path }

    static func readme(_ sample: Sample, files: [String]) -> String {
        """
        # \(sample.folder)

        \(sample.note)

        Files: \(files.joined(separator: ", ")).
        Made by `Tests/ModelDocumentTests/SampleDocumentTests.swift`; regenerate with
        `TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter ModelDocumentTests.SampleDocumentTests`.

        """
    }

    /// Builds `sample` in a fresh folder and returns its files (README included).
    static func build(_ sample: Sample, in folder: TemporaryFolder) throws -> [String: [UInt8]] {
        let directory = folder.sub(sample.folder)
        let document = try ModelDocument.create(at: directory, records: sample.records, version: sample.version)
        if let name = sample.deletedAfterCreation {
            try document.delete(named: name)
            try document.save()
        }
        var files = treeSnapshot(directory)
        files["README.md"] = Array(readme(sample, files: files.keys.sorted()).utf8)
        return files
    }

    @Test func samplesAreUpToDate() throws {
        let folder = TemporaryFolder("samples")
        defer { folder.cleanUp() }
        let regenerate = Golden.isRegenerating
        for sample in Self.samples {
            let built = try Self.build(sample, in: folder)
            let target = Self.packageRoot + "/Samples/" + sample.folder
            if regenerate {
                try? FileManager.default.removeItem(atPath: target)
                for (relative, bytes) in built {
                    let path = target + "/" + relative
                    try DurableIO.makeDirectories(String(path[..<path.lastIndex(of: "/")!]))
                    try writeBytes(path, bytes)
                }
                print("regenerated \(target)")
            }
            let checkedIn = treeSnapshot(target)
            #expect(checkedIn.keys.sorted() == built.keys.sorted(), "\(sample.folder): files differ; regenerate the samples")
            for (name, bytes) in built where checkedIn[name] != bytes {
                Issue.record("\(sample.folder)/\(name) differs from what the code makes; regenerate the samples")
            }
        }
    }

    @Test func samplesOpen() throws {
        for sample in Self.samples {
            let directory = Self.packageRoot + "/Samples/" + sample.folder
            guard DurableIO.exists(directory) else { Issue.record("\(directory) is missing"); continue }
            let document = try ModelDocument.open(at: directory)
            #expect(document.version == sample.version)
            var expected = sample.records
            if sample.folder == "model-v2" { expected.removeFirst() }
            #expect(document.records == expected)
            #expect(document.canUndo == (sample.folder == "model-v2"))
            #expect(document.warnings.isEmpty)
        }
    }
}
