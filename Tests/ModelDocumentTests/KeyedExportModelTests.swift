import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport
@testable import ModelDocument

/// Reads a keyed Model record with Foundation on Linux, as an Objective-C `initWithCoder:` would.
final class KeyedModelReader: NSObject, NSCoding {
    var name: String?
    var type: String?
    var rect: String?
    var flag = 0, kind = 0, para: Int?

    func encode(with coder: NSCoder) {}

    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String
        type = coder.decodeObject(forKey: "type") as? String
        rect = coder.decodeObject(forKey: "rect") as? String
        flag = coder.decodeInteger(forKey: "flag")
        kind = coder.decodeInteger(forKey: "kind")
        para = coder.containsValue(forKey: "para") ? coder.decodeInteger(forKey: "para") : nil
    }
}

/// Model records outside a whole document, through the export module's hooks with ModelDocument's
/// forms registered (`RecordForms.modelDocument`): their readable keys (docs/keyed-mapping.md),
/// the way back byte for byte, and the generic form for other shapes or without the forms.
@Suite("Keyed export: Model records")
struct KeyedExportModelTests {
    static var exportOptions: KeyedArchiveExporter.Options {
        var options = KeyedArchiveExporter.Options()
        options.recordForms = .modelDocument
        return options
    }

    static var importOptions: KeyedArchiveImporter.Options {
        var options = KeyedArchiveImporter.Options()
        options.recordForms = .modelDocument
        return options
    }

    /// A Model in `layout` holding the given values (`name`/`type` objects as given, so they can be shared).
    static func model(_ name: StringObject?, _ type: StringObject?, _ rect: ModelRect, flag: UInt32, kind: Int32, para: Int32 = 0,
                      reserved: Int32 = 0, layout: DocumentVersion) -> Model {
        let model = Model()
        model.layout = layout
        model.nameObject = name
        model.typeObject = type
        model.rect = rect
        model.flag = flag
        model.kind = kind
        model.para = para
        model.reserved = reserved
        return model
    }

    private func exported(_ root: AnyObject, options: KeyedArchiveExporter.Options = exportOptions) throws -> PlistValue {
        try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: root), options: options)
    }

    private static func objects(_ archive: PlistValue) -> [PlistValue] {
        guard case .array(let list)? = archive["$objects"] else { return [] }
        return list
    }

    private static func resolve(_ ref: PlistValue?, in archive: PlistValue) -> PlistValue? {
        guard case .uid(let uid)? = ref else { return nil }
        let list = objects(archive)
        return Int(uid) < list.count ? list[Int(uid)] : nil
    }

    private static func root(_ archive: PlistValue) -> PlistValue? { resolve(archive["$top"]?["root"], in: archive) }

    private static func classes(of entry: PlistValue?, in archive: PlistValue) -> [String] {
        guard case .array(let names)? = resolve(entry?["$class"], in: archive)?["$classes"] else { return [] }
        return names.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    /// typedstream → keyed (binary and XML) → typedstream.
    private func roundTrips(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: Self.exportOptions)
        return [try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(plist), options: Self.importOptions),
                try KeyedArchiveImporter.typedstream(fromKeyed: Array(try XMLPlistWriter.write(plist).utf8), options: Self.importOptions)]
    }

    @Test func modelRecordsGetReadableKeys() throws {
        let photo = StringObject("photo")
        let first = Self.model(StringObject("Sunrise"), photo, ModelRect(x: 10, y: 20.5, width: 100, height: 0.1), flag: 0xFFFF_FFFF, kind: -3, para: 7, layout: .v2)
        let second = Self.model(nil, photo, .zero, flag: 1, kind: 2, layout: .v1)
        let archive = try exported(ArrayObject([first, second]))
        guard case .array(let refs)? = Self.root(archive)?["NS.objects"], refs.count == 2 else {
            Issue.record("root is not an array of two"); return
        }
        let a = Self.resolve(refs[0], in: archive), b = Self.resolve(refs[1], in: archive)
        guard case .dictionary(let entries)? = a else { Issue.record("not an object"); return }
        #expect(entries.map(\.key) == ["$class", "name", "type", "rect", "flag", "kind", "para"])
        #expect(Self.classes(of: a, in: archive) == ["Model", "NSObject"])
        #expect(Self.resolve(a?["name"], in: archive) == .string("Sunrise"))
        #expect(Self.resolve(a?["type"], in: archive) == .string("photo"))
        #expect(Self.resolve(a?["rect"], in: archive) == .string("{{10, 20.5}, {100, 0.1}}"))
        #expect(a?["flag"] == .integer(4_294_967_295))
        #expect(a?["kind"] == .integer(-3))
        #expect(a?["para"] == .integer(7))
        // The version 1 record: nil name is UID 0, no para; the shared type string is one UID.
        #expect(b?["name"] == .uid(0))
        #expect(b?["para"] == nil)
        #expect(b?["type"] == a?["type"])
        #expect(Self.resolve(b?["rect"], in: archive) == .string("{{0, 0}, {0, 0}}"))
        #expect(a?["$class"] == b?["$class"])
        #expect(Self.objects(archive).filter { $0["$classname"] == .string("Model") }.count == 1)
    }

    @Test func aLoneRecordKeepsItsReadableKeys() throws {
        let model = Model(ModelRecord(name: "Noon", type: nil, rect: ModelRect(x: 0, y: 0, width: 8, height: 8), flag: 2, kind: 3, para: 4))
        let root = Self.root(try exported(model))
        #expect(root?["para"] == .integer(4))
        #expect(root?["TSGroups"] == nil)
        // Also when Model is decoded by its own codec: the exporter re-encodes it generically.
        let bytes = try ModelArchive.encodeRecord(model, version: .v2)
        let typed = try KeyedArchiveExporter.export(typedstream: bytes, registry: ModelArchive.registry(for: .v2), options: Self.exportOptions)
        #expect(Self.root(typed)?["para"] == .integer(4))
        #expect(Self.root(typed)?["type"] == .uid(0))
    }

    @Test func foundationReadsModelRecordsWithTheirKeys() throws {
        let model = Model(ModelRecord(name: "Dusk", type: "video", rect: ModelRect(x: 1, y: 2, width: 3, height: 4.5), flag: 9, kind: 1, para: -1))
        let bytes = BinaryPlistWriter.write(try exported(model))
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(KeyedModelReader.self, forClassName: "Model")
        let reader = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? KeyedModelReader
        #expect(unarchiver.error == nil)
        #expect(reader?.name == "Dusk")
        #expect(reader?.type == "video")
        #expect(reader?.rect == "{{1, 2}, {3, 4.5}}")
        #expect(reader.map { NSRectFromString($0.rect ?? "") } == NSRect(x: 1, y: 2, width: 3, height: 4.5))
        #expect(reader?.flag == 9 && reader?.kind == 1 && reader?.para == -1)
    }

    @Test func otherShapesAndNoFormsKeepTheGroups() throws {
        let draft = Self.model(StringObject("x"), nil, ModelRect(x: 1, y: 2, width: 3, height: 4), flag: 0, kind: 0, para: 5, reserved: 6, layout: .v3Draft)
        let root = Self.root(try exported(draft))
        #expect(root?["name"] == nil)
        #expect(root?["TSVersion"] == .integer(0))
        #expect(root?["TSClassVersions"] == .array([.integer(0), .integer(0)]))
        guard case .array(let groups)? = root?["TSGroups"] else { Issue.record("no TSGroups"); return }
        #expect(groups.map { $0["type"] } == DocumentVersion.v3Draft.groupTypes.map { PlistValue.string($0) })
        #expect(groups[6]["values"] == .array([.integer(6)]))

        // Without the forms registered, a well-shaped Model is generic too.
        let plain = try exported(Model(ModelRecord(name: nil, type: nil, para: 1)), options: KeyedArchiveExporter.Options())
        #expect(Self.root(plain)?["TSGroups"] != nil)
    }

    @Test func modelRecordsComeBackByteForByte() throws {
        let photo = StringObject("photo")
        let models = ArrayObject([
            Self.model(StringObject("Sunrise"), photo, ModelRect(x: 10, y: 20.5, width: 100, height: 0.1), flag: 0xFFFF_FFFF, kind: -3, para: 7, layout: .v2),
            Self.model(nil, photo, ModelRect(x: 0, y: -0.0, width: 1e-7, height: 3.4e38), flag: 1, kind: 2, layout: .v1),
        ])
        let bytes = try Archiver.archivedBytes(withRootObject: models)
        for again in try roundTrips(bytes) { #expect(again == bytes) }

        let draft = Self.model(StringObject("d"), nil, ModelRect(x: 1, y: 2, width: 3, height: 4), flag: 0, kind: 0, para: 5, reserved: 9, layout: .v3Draft)
        let lone = Model(ModelRecord(name: "lone", type: "t", flag: 3))
        lone.archiveClassChain = [ArchiveClassLink(Model.className, version: 3), .nsObject]
        for root: AnyObject in [draft, lone, ArrayObject([draft, lone, StringObject("tail")])] {
            let bytes = try Archiver.archivedBytes(withRootObject: root)
            for again in try roundTrips(bytes) { #expect(again == bytes) }
        }
    }

    @Test func badModelKeysThrow() throws {
        func archive(_ model: [PlistEntry], _ extra: [PlistValue] = []) -> [UInt8] {
            let objects: [PlistValue] = [.string("$null"), .dictionary([PlistEntry("$class", .uid(2))] + model),
                                         .dictionary([PlistEntry("$classname", .string("Model")), PlistEntry("$classes", .array([.string("Model"), .string("NSObject")]))])] + extra
            return BinaryPlistWriter.write(.dictionary([
                PlistEntry("$archiver", .string("NSKeyedArchiver")), PlistEntry("$version", .integer(100000)),
                PlistEntry("$top", .dictionary([PlistEntry("root", .uid(1))])), PlistEntry("$objects", .array(objects)),
            ]))
        }
        let cases: [(String, [UInt8])] = [
            ("a bad rect", archive([PlistEntry("rect", .uid(3)), PlistEntry("flag", .integer(0)), PlistEntry("kind", .integer(0))], [.string("{1, 2}")])),
            ("no flag", archive([PlistEntry("rect", .uid(3)), PlistEntry("kind", .integer(0))], [.string("{{1, 2}, {3, 4}}")])),
            ("a bad md_rt", archive([PlistEntry("md_rt", .uid(3))], [.string("{1, 2}")])),
            ("md_flag out of range", archive([PlistEntry("md_rt", .uid(3)), PlistEntry("md_flag", .integer(-1))], [.string("{{1, 2}, {3, 4}}")])),
            ("neither form", archive([PlistEntry("other", .integer(1))])),
        ]
        for (name, bytes) in cases {
            #expect(throws: KeyedArchiveError.self, "\(name)") { try KeyedArchiveImporter.typedstream(fromKeyed: bytes, options: Self.importOptions) }
            do {
                _ = try KeyedArchiveImporter.typedstream(fromKeyed: bytes, options: Self.importOptions)
            } catch {
                #expect(error.code == .badObject, "\(name): \(error)")
            }
        }
    }
}
