import Foundation
import Testing
@testable import ModelDocument

@Suite struct KeyedTests {
    @Test(arguments: [DocumentVersion.v1, .v2, .v3Draft])
    func modelDocumentToKeyedAndBack(version: DocumentVersion) throws {
        let folder = TemporaryFolder("keyed")
        defer { folder.cleanUp() }
        var records = ModelDocument.placeholderRecords
        records.append(ModelRecord(name: nil, type: "", rect: ModelRect(x: -0.0, y: .infinity, width: 0.1, height: 1e-7),
                                   flag: UInt32.max, kind: Int32.min, para: Int32.max))
        if !version.hasPara { for i in records.indices { records[i].para = 0 } }
        if version.hasReserved { records[0].reserved = -5 }
        let source = try ModelDocument.create(at: folder.sub("source"), records: records, version: version)

        let keyed = try KeyedModelArchive.export(source)
        let decoded = try KeyedModelArchive.decode(keyed)
        #expect(decoded.version == version)
        #expect(decoded.records == records)
        #expect(decoded.records.last?.rect.x.sign == .minus)

        let copy = try KeyedModelArchive.importDocument(keyed, to: folder.sub("copy"))
        #expect(copy.records == records)
        #expect(try readBytes(folder.sub("copy/document.typedstream")) == readBytes(folder.sub("source/document.typedstream")))
        #expect(treeSnapshot(folder.sub("copy/thumbnails")) == treeSnapshot(folder.sub("source/thumbnails")))
    }

    @Test func keyedModelDocumentsAreStableAndOpenWithFoundation() throws {
        var records = ModelDocument.placeholderRecords
        records[0].thumbnail = [0, 1, 2, 0xFF]
        let bytes = try KeyedModelArchive.encode(records, version: .v2)
        // The same records give the same bytes.
        #expect(try KeyedModelArchive.encode(records, version: .v2) == bytes)
        // Foundation's NSKeyedUnarchiver, an independent reader, opens it with the documented keys.
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(FoundationModelDocumentReader.self, forClassName: "ModelDocument")
        unarchiver.setClass(FoundationModelReader.self, forClassName: "Model")
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FoundationModelDocumentReader
        #expect(unarchiver.error == nil)
        #expect(root?.format == "ModelDocument" && root?.version == 2)
        #expect(root?.models.map(\.name) == records.map(\.name))
        #expect(root?.models.map(\.para) == records.map { Int($0.para) })
        #expect(root?.models.first?.image == Data([0, 1, 2, 0xFF]))
    }

    @Test func keyedModelKeysAreTheDocumentedOnes() throws {
        let bytes = try KeyedModelArchive.encode([ModelRecord(name: "n", type: "t", rect: ModelRect(x: 1, y: 2.5, width: 3, height: 4), flag: 1, kind: 2, para: 3, thumbnail: [1])], version: .v2)
        let plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any]
        let objects = plist?["$objects"] as? [Any] ?? []
        let dictionaries = objects.compactMap { $0 as? [String: Any] }
        let model = dictionaries.first { $0["md_flag"] != nil }
        #expect(Set(model?.keys.map { $0 } ?? []) == ["$class", "md_name", "md_type", "md_rt", "md_flag", "md_kind", "md_para", "md_image"])
        let root = dictionaries.first { $0["models"] != nil }
        #expect(Set(root?.keys.map { $0 } ?? []) == ["$class", "format", "version", "models"])
        #expect(objects.contains { ($0 as? String) == "{{1, 2.5}, {3, 4}}" })
    }

    @Test func rectStrings() {
        let rect = ModelRect(x: 0.1, y: -3, width: .nan, height: 1e20)
        let text = KeyedModel.rectString(rect)
        #expect(text == "{{0.1, -3}, {nan, 1e+20}}")
        let back = KeyedModel.rect(parsing: text)
        #expect(back?.x == rect.x && back?.y == rect.y && back?.width.isNaN == true && back?.height == rect.height)
        for bad in ["", "{{1, 2}, {3}}", "{1, 2, 3, 4}", "{{a, b}, {c, d}}"] { #expect(KeyedModel.rect(parsing: bad) == nil) }
    }

    @Test func newerKeyedVersionIsRefused() throws {
        let bytes = try KeyedModelDocument(version: 9, models: []).archived()
        #expect(throws: ModelDocumentError(.newerVersion, "")) { try KeyedModelArchive.decode(bytes) }
    }
}

/// What Foundation's `NSKeyedUnarchiver` reads from a keyed Model document's root.
final class FoundationModelDocumentReader: NSObject, NSCoding {
    var format: String?
    var version = 0
    var models: [FoundationModelReader] = []

    func encode(with coder: NSCoder) {}

    init?(coder: NSCoder) {
        format = coder.decodeObject(forKey: "format") as? String
        version = coder.decodeInteger(forKey: "version")
        models = coder.decodeObject(forKey: "models") as? [FoundationModelReader] ?? []
    }
}

/// What Foundation's `NSKeyedUnarchiver` reads from one Model of a keyed Model document.
final class FoundationModelReader: NSObject, NSCoding {
    var name: String?
    var rect: String?
    var para: Int?
    var image: Data?

    func encode(with coder: NSCoder) {}

    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "md_name") as? String
        rect = coder.decodeObject(forKey: "md_rt") as? String
        para = coder.containsValue(forKey: "md_para") ? coder.decodeInteger(forKey: "md_para") : nil
        image = coder.decodeObject(forKey: "md_image") as? Data
    }
}
