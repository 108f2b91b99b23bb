import Foundation
import ModelDocument
import Testing
import TypedStreamExport
@testable import TypedStreamTool
import TestSupport

/// A Model document has one keyed form: `convert --to keyed` of its typedstream writes what
/// `model export` writes, and `model import` reads it back to the document's records.
struct ModelKeyedFormTests {
    static let samples = ["model-v1", "model-v2", "model-v3-draft"]

    /// The archived values of a record (thumbnails live beside the typedstream, so `convert` has none).
    static func values(_ records: [ModelRecord]) -> [ModelRecord] {
        records.map { var record = $0; record.thumbnail = nil; return record }
    }

    @Test(arguments: samples) func convertedDocumentImportsToTheSameRecords(sample: String) throws {
        let folder = packageRoot.appendingPathComponent("Samples/" + sample)
        let document = try ModelDocument.open(at: folder.path)
        let typedstream = try [UInt8](Data(contentsOf: folder.appendingPathComponent("document.typedstream")))
        for format in ["keyed", "keyed-xml"] {
            let converted = TypedStreamCommand.run(["convert", "--to", format, "-"], standardInput: typedstream)
            #expect(converted.exitCode == .success)
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("model-keyed-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let archive = out.path + ".plist"
            defer { try? FileManager.default.removeItem(atPath: archive) }
            try Data(converted.outputBytes).write(to: URL(fileURLWithPath: archive))
            let imported = TypedStreamCommand.run(["model", "import", archive, out.path])
            #expect(imported.exitCode == .success, "\(imported.standardError)")
            let copy = try ModelDocument.open(at: out.path)
            #expect(copy.version == document.version)
            #expect(copy.records == Self.values(document.records))
        }
    }

    @Test(arguments: samples) func convertAndModelExportWriteTheSameForm(sample: String) throws {
        let folder = packageRoot.appendingPathComponent("Samples/" + sample)
        let typedstream = try [UInt8](Data(contentsOf: folder.appendingPathComponent("document.typedstream")))
        let converted = TypedStreamCommand.run(["convert", "--to", "keyed", "-"], standardInput: typedstream)
        let exportPath = FileManager.default.temporaryDirectory.appendingPathComponent("model-export-\(UUID().uuidString).plist").path
        defer { try? FileManager.default.removeItem(atPath: exportPath) }
        let exported = TypedStreamCommand.run(["model", "export", folder.path, "--to", "keyed", "-o", exportPath])
        #expect(exported.exitCode == .success, "\(exported.standardError)")
        let exportBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: exportPath)))

        let fromConvert = try KeyedModelArchive.decode(converted.outputBytes)
        let fromExport = try KeyedModelArchive.decode(exportBytes)
        #expect(fromConvert.version == fromExport.version)
        #expect(fromConvert.records == Self.values(fromExport.records))
        // Same classes, keys and root layout.
        let convertedShape = try Self.shape(converted.outputBytes), exportedShape = try Self.shape(exportBytes, droppingKeys: ["md_image"])
        #expect(convertedShape.root == "ModelDocument")
        #expect(convertedShape.root == exportedShape.root)
        #expect(convertedShape.keys == exportedShape.keys)
    }

    /// Non-Model archives keep the generic export.
    @Test func otherArchivesAreNotModelDocuments() throws {
        let strings = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/strings-array.typedstream")))
        #expect(KeyedModelArchive.documentRecords(typedstream: strings) == nil)
        let keyed = TypedStreamCommand.run(["convert", "--to", "keyed", "-"], standardInput: strings)
        #expect(try Self.shape(keyed.outputBytes).root == "NSMutableArray")
    }

    /// The root's class and, for each class name, the keys its objects use (read with our own
    /// plist reader, so UIDs are plain numbers).
    static func shape(_ bytes: [UInt8], droppingKeys dropped: Set<String> = []) throws -> (root: String, keys: [String: Set<String>]) {
        let plist = try KeyedArchiveImporter.plist(from: bytes)
        guard case .array(let objects)? = plist["$objects"], case .uid(let rootUID)? = plist["$top"]?["root"] else {
            Issue.record("not a keyed archive")
            return ("", [:])
        }
        func className(_ entry: PlistValue) -> String? {
            guard case .uid(let uid)? = entry["$class"], case .string(let name)? = objects[Int(uid)]["$classname"] else { return nil }
            return name
        }
        var keys: [String: Set<String>] = [:]
        for entry in objects {
            guard let name = className(entry), case .dictionary(let entries) = entry else { continue }
            keys[name, default: []].formUnion(Set(entries.map(\.key)).subtracting(dropped))
        }
        return (className(objects[Int(rootUID)]) ?? "?", keys)
    }
}
