import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TestSupport

/// The finds of the `jsonimporter` fuzz target (Samples/malformed/fuzz-jsonimporter-*), replayed
/// with its property: JSON the importer accepts is written or refused by the writer, and what
/// the writer writes reads back as an archive.
@Suite("JSON importer fuzz finds")
struct JSONImporterFindsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples/malformed").standardizedFileURL
    static let finds: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasPrefix("fuzz-jsonimporter-") }.sorted()

    @Test func thereAreFinds() { #expect(!Self.finds.isEmpty) }

    @Test(arguments: finds)
    func find(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        for limits in [jsonImporterFuzzLimits, .default] {
            guard let archive = try? ArchiveJSON.decode(bytes, options: .init(limits: limits)),
                  let written = try? ArchiveWriter.write(archive, limits: limits) else { continue }
            #expect(throws: Never.self, "\(name): bytes written from imported JSON do not read back") {
                _ = try ArchiveReader.read(written, limits: limits)
                _ = try ArchiveIndex(bytes: written, limits: limits)
            }
        }
    }

    /// The first find: a class chain that refers back to a class it defines (LoopA → LoopB →
    /// LoopA) was imported, written, and refused by the reader; now the importer refuses it.
    @Test func aClassChainThatLoopsIsRefused() {
        let json = #"""
        {"format": "typedstream-json", "formatVersion": 1, "header": {"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000},
         "groups": [{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "LoopA", "version": 0}, {"id": 2, "name": "LoopB", "version": 0}, {"ref": 1}], "groups": []}]}]}
        """#
        #expect(throws: ArchiveJSONError.self) { try ArchiveJSON.decode(Array(json.utf8)) }
    }

    /// A find of the target with the adversarial seeds: an object holding a reference to
    /// itself (legal) was imported into an archive that did not own its objects, and the cycle
    /// was never freed. Now the archive owns them, and a document that fails part-way empties
    /// what it made.
    @Test func anObjectThatRefersToItselfIsFreedWithItsArchive() throws {
        let header = #"{"format": "typedstream-json", "formatVersion": 1, "header": {"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}, "groups": ["#
        let selfish = #"{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "Loop", "version": 0}], "groups": [{"type": "@", "values": [{"ref": 0}]}]}]}"#
        weak var object: ArchivedObject?
        do {
            let archive = try ArchiveJSON.decode(Array((header + selfish + "]}").utf8))
            guard case .object(let first, _) = archive.groups[0].values[0] else { Issue.record("no object"); return }
            object = first
            #expect(object != nil)
            #expect(try ArchiveReader.read(ArchiveWriter.write(archive)).groups.count == 1)
        }
        #expect(object == nil, "the object that refers to itself was not freed")
        // The same object, then a group that fails: nothing made is kept.
        #expect(throws: ArchiveJSONError.self) { try ArchiveJSON.decode(Array((header + selfish + #", {"type": "i", "values": ["x"]}]}"#).utf8)) }
    }
}
