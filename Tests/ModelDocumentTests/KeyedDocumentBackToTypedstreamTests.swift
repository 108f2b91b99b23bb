import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamExport
@testable import ModelDocument

/// The keyed form a Model document itself writes (`model export`, and `convert --to keyed` of its
/// typedstream) comes back through the keyed importer, with ModelDocument's forms registered, as
/// the document's typedstream byte for byte; hostile variants are refused.
@Suite struct KeyedDocumentBackToTypedstreamTests {
    static var importOptions: KeyedArchiveImporter.Options {
        var options = KeyedArchiveImporter.Options()
        options.recordForms = .modelDocument
        return options
    }

    static func back(_ keyed: [UInt8]) throws(KeyedArchiveError) -> [UInt8] {
        try KeyedArchiveImporter.typedstream(fromKeyed: keyed, options: importOptions)
    }

    /// Both keyed forms of the document in `directory` come back as its typedstream.
    static func expectRoundTrip(_ directory: String) throws {
        let typedstream = try DurableIO.read(DurableIO.join(directory, DocumentFiles.archive))
        let document = try ModelDocument.open(at: directory)
        let exported = try KeyedModelArchive.export(document)  // with thumbnails
        let converted = try #require(try KeyedModelArchive.convert(typedstream: typedstream))
        #expect(try back(exported) == typedstream, "\(directory): model export")
        #expect(try back(converted) == typedstream, "\(directory): convert --to keyed")
        let xml = try XMLPlistWriter.write(KeyedArchiveImporter.plist(from: converted))
        #expect(try back(Array(xml.utf8)) == typedstream, "\(directory): XML")
    }

    @Test(arguments: ["model-v1", "model-v2", "model-v3-draft"]) func samplesComeBack(sample: String) throws {
        try Self.expectRoundTrip(PackageRoot.samples.appendingPathComponent(sample).path)
    }

    @Test(arguments: DocumentVersion.allCases) func generatedDocumentsComeBack(version: DocumentVersion) throws {
        let folder = TemporaryFolder("keyed-back")
        defer { folder.cleanUp() }
        var records: [ModelRecord] = []
        for index in 0..<40 {
            // Repeated types (stored once in the keyed archive), nil names and types, odd floats.
            records.append(ModelRecord(name: index % 7 == 3 ? nil : "model \(index) ✓", type: index % 5 == 0 ? nil : ["photo", "note", "sketch"][index % 3],
                                       rect: ModelRect(x: Float(index) / 3, y: -0.0, width: 1e-7 * Float(index), height: 3.4e38),
                                       flag: index == 1 ? 0xFFFF_FFFF : UInt32(index), kind: Int32(-index), para: version.hasPara ? Int32(index * 1000) : 0,
                                       reserved: version.hasReserved ? Int32(index) : 0, thumbnail: index % 4 == 0 ? [UInt8(index), 1, 2] : nil))
        }
        _ = try ModelDocument.create(at: folder.sub("doc"), records: records, version: version)
        try Self.expectRoundTrip(folder.sub("doc"))
    }

    /// A keyed document built by hand: root `ModelDocument`, `models` an NSArray of Models with `modelKeys`.
    static func keyed(version: Int64, models modelKeys: [[PlistEntry]], strings: [String]) -> [UInt8] {
        // $objects: 0 $null, 1 root, 2 "ModelDocument" string, 3 array, 4 root class, 5 array class, 6 Model class,
        // 7… strings, then the models.
        let firstModel = 7 + strings.count
        var objects: [PlistValue] = [
            .string("$null"),
            .dictionary([PlistEntry("$class", .uid(4)), PlistEntry("format", .uid(2)), PlistEntry("version", .integer(version)), PlistEntry("models", .uid(3))]),
            .string("ModelDocument"),
            .dictionary([PlistEntry("$class", .uid(5)), PlistEntry("NS.objects", .array((0..<modelKeys.count).map { .uid(UInt32(firstModel + $0)) }))]),
            .dictionary([PlistEntry("$classname", .string("ModelDocument")), PlistEntry("$classes", .array([.string("ModelDocument"), .string("NSObject")]))]),
            .dictionary([PlistEntry("$classname", .string("NSArray")), PlistEntry("$classes", .array([.string("NSArray"), .string("NSObject")]))]),
            .dictionary([PlistEntry("$classname", .string("Model")), PlistEntry("$classes", .array([.string("Model"), .string("NSObject")]))]),
        ]
        objects += strings.map { PlistValue.string($0) }
        objects += modelKeys.map { .dictionary([PlistEntry("$class", .uid(6))] + $0) }
        return BinaryPlistWriter.write(.dictionary([
            PlistEntry("$archiver", .string("NSKeyedArchiver")), PlistEntry("$version", .integer(100000)),
            PlistEntry("$top", .dictionary([PlistEntry("root", .uid(1))])), PlistEntry("$objects", .array(objects)),
        ]))
    }

    @Test func aHandMadeDocumentComesBackAsTheDocumentWritesIt() throws {
        // Two models share one name string in the keyed archive; the typedstream holds each its own.
        let model: [PlistEntry] = [PlistEntry("md_name", .uid(7)), PlistEntry("md_rt", .uid(8)), PlistEntry("md_flag", .integer(1)),
                                   PlistEntry("md_kind", .integer(2)), PlistEntry("md_para", .integer(3))]
        let bytes = try Self.back(Self.keyed(version: 2, models: [model, model], strings: ["same", "{{1, 2}, {3, 4}}"]))
        let record = ModelRecord(name: "same", rect: ModelRect(x: 1, y: 2, width: 3, height: 4), flag: 1, kind: 2, para: 3)
        #expect(bytes == (try ModelArchive.encodeDocument([Model(record), Model(record)], version: .v2)))
    }

    @Test func badDocumentsAreRefused() throws {
        let v1: [PlistEntry] = [PlistEntry("md_rt", .uid(7)), PlistEntry("md_flag", .integer(1)), PlistEntry("md_kind", .integer(2))]
        let rect = ["{{1, 2}, {3, 4}}"]
        let cases: [(String, [UInt8])] = [
            ("keys of version 1 in a version 2 document", Self.keyed(version: 2, models: [v1], strings: rect)),
            ("a version this program does not understand", Self.keyed(version: 4, models: [v1], strings: rect)),
            ("a readable-key record in a document", Self.keyed(version: 1, models: [[PlistEntry("rect", .uid(7)), PlistEntry("flag", .integer(0)), PlistEntry("kind", .integer(0))]], strings: rect)),
        ]
        for (name, bytes) in cases {
            do {
                _ = try Self.back(bytes)
                Issue.record("\(name): no error")
            } catch {
                #expect(error.code == .badObject, "\(name): \(error)")
            }
        }
    }

    @Test func oneStringCopiedIntoManyModelsIsBounded() throws {
        // 3 000 models naming one 64 KiB string would copy 196 MB into the typedstream: past
        // 64 bytes per byte of the archive's strings plus 1 MiB, so refused.
        let big = String(repeating: "x", count: 1 << 16)
        let model: [PlistEntry] = [PlistEntry("md_name", .uid(7)), PlistEntry("md_rt", .uid(8)), PlistEntry("md_flag", .integer(1)), PlistEntry("md_kind", .integer(2))]
        let keyed = Self.keyed(version: 1, models: Array(repeating: model, count: 3000), strings: [big, "{{1, 2}, {3, 4}}"])
        do {
            _ = try Self.back(keyed)
            Issue.record("no error")
        } catch {
            #expect(error.code == .badObject)
            #expect(error.reason.contains("budget"), "\(error)")
        }
        // A few copies are fine.
        #expect(try Self.back(Self.keyed(version: 1, models: Array(repeating: model, count: 3), strings: [big, "{{1, 2}, {3, 4}}"])).count > 3 << 16)
    }
}
