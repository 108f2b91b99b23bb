import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// A stand-in for the users' Model class, written with the same groups: `@ @ {?=ffff} I i` and,
/// when `para` is set, `i`; `reserved` adds the version 3 draft's extra `i`.
final class TestModel: ArchivableObject {
    var archiveClassChain = [ArchiveClassLink("Model", version: 0), .nsObject]
    var name: StringObject?
    var type: StringObject?
    var rect: (Float, Float, Float, Float) = (0, 0, 0, 0)
    var flag: UInt32 = 0
    var kind: Int32 = 0
    var para: Int32?
    var reserved: Int32?

    init() {}

    init(name: StringObject?, type: StringObject?, rect: (Float, Float, Float, Float), flag: UInt32, kind: Int32, para: Int32?) {
        self.name = name
        self.type = type
        self.rect = rect
        self.flag = flag
        self.kind = kind
        self.para = para
    }

    func decodeContents(with decoder: Unarchiver) throws {
        name = try decoder.decodeObject(of: StringObject.self)
        type = try decoder.decodeObject(of: StringObject.self)
        guard case .structure(let m) = try decoder.decodeValue(ofObjCType: "{?=ffff}"), m.count == 4,
              case .float(let x, _) = m[0], case .float(let y, _) = m[1], case .float(let w, _) = m[2], case .float(let h, _) = m[3]
        else { throw CoderError(.badContents, "rect") }
        rect = (x, y, w, h)
        flag = try decoder.decode()
        kind = try decoder.decode()
        if decoder.hasMoreGroups { para = try decoder.decode() }
        if decoder.hasMoreGroups { reserved = try decoder.decode() }
    }

    func encodeContents(with encoder: Archiver) throws {
        try encoder.encodeObject(name)
        try encoder.encodeObject(type)
        try encoder.encodeValue(.structure([.float(rect.0, form: nil), .float(rect.1, form: nil), .float(rect.2, form: nil), .float(rect.3, form: nil)]),
                                ofObjCType: "{?=ffff}")
        try encoder.encode(flag)
        try encoder.encode(kind)
        if let para { try encoder.encode(para) }
        if let reserved { try encoder.encode(reserved) }
    }
}

/// Reads a keyed Model with Foundation on Linux, as an Objective-C `initWithCoder:` would.
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

/// Model records and objects of unknown classes: their documented keys (docs/keyed-mapping.md).
@Suite("Keyed export: Model records and generic objects")
struct KeyedExportModelTests {
    private func exported(_ root: AnyObject, options: KeyedArchiveExporter.Options = .init()) throws -> PlistValue {
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        return try KeyedArchiveExporter.export(typedstream: bytes, options: options)
    }

    @Test func modelRecordsGetReadableKeys() throws {
        let photo = StringObject("photo")
        let first = TestModel(name: StringObject("Sunrise"), type: photo, rect: (10, 20.5, 100, 0.1), flag: 0xFFFF_FFFF, kind: -3, para: 7)
        let second = TestModel(name: nil, type: photo, rect: (0, 0, 0, 0), flag: 1, kind: 2, para: nil)
        let archive = try exported(ArrayObject([first, second]))
        let objects = KeyedTestSupport.objects(archive)
        guard case .array(let refs)? = KeyedTestSupport.root(archive)?["NS.objects"], refs.count == 2 else {
            Issue.record("root is not an array of two"); return
        }
        let a = KeyedTestSupport.resolve(refs[0], in: archive), b = KeyedTestSupport.resolve(refs[1], in: archive)
        guard case .dictionary(let entries)? = a else { Issue.record("not an object"); return }
        #expect(entries.map(\.key) == ["$class", "name", "type", "rect", "flag", "kind", "para"])
        #expect(KeyedTestSupport.classes(of: a, in: archive) == ["Model", "NSObject"])
        #expect(KeyedTestSupport.resolve(a?["name"], in: archive) == .string("Sunrise"))
        #expect(KeyedTestSupport.resolve(a?["type"], in: archive) == .string("photo"))
        #expect(KeyedTestSupport.resolve(a?["rect"], in: archive) == .string("{{10, 20.5}, {100, 0.1}}"))
        #expect(a?["flag"] == .integer(4_294_967_295))
        #expect(a?["kind"] == .integer(-3))
        #expect(a?["para"] == .integer(7))
        // The version 1 record: nil name is UID 0, no para; the shared type string is one UID.
        #expect(b?["name"] == .uid(0))
        #expect(b?["para"] == nil)
        #expect(b?["type"] == a?["type"])
        #expect(KeyedTestSupport.resolve(b?["rect"], in: archive) == .string("{{0, 0}, {0, 0}}"))
        #expect(a?["$class"] == b?["$class"])
        #expect(objects.filter { $0["$classname"] == .string("Model") }.count == 1)
    }

    @Test func foundationReadsModelRecordsWithTheirKeys() throws {
        let model = TestModel(name: StringObject("Dusk"), type: StringObject("video"), rect: (1, 2, 3, 4.5), flag: 9, kind: 1, para: -1)
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

    @Test func aTypedModelCodecStillGetsTheModelKeys() throws {
        // When a registry decodes Model typed (ModelDocument's codec), the exporter re-encodes it
        // and recognises the generic copy.
        var registry = ClassRegistry.foundation
        registry.register(TestModel.self, forClassName: "Model")
        let model = TestModel(name: StringObject("Noon"), type: nil, rect: (0, 0, 8, 8), flag: 2, kind: 3, para: 4)
        let archive = try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: model), registry: registry)
        let root = KeyedTestSupport.root(archive)
        #expect(KeyedTestSupport.resolve(root?["name"], in: archive) == .string("Noon"))
        #expect(KeyedTestSupport.resolve(root?["rect"], in: archive) == .string("{{0, 0}, {8, 8}}"))
        #expect(root?["para"] == .integer(4))
    }

    @Test func otherShapesAndUnknownClassesKeepTheirGroups() throws {
        let draft = TestModel(name: StringObject("x"), type: nil, rect: (1, 2, 3, 4), flag: 0, kind: 0, para: 5)
        draft.reserved = 6
        let archive = try exported(draft)
        let root = KeyedTestSupport.root(archive)
        #expect(root?["name"] == nil)
        #expect(root?["TSVersion"] == .integer(0))
        #expect(root?["TSClassVersions"] == .array([.integer(0), .integer(0)]))
        guard case .array(let groups)? = root?["TSGroups"] else { Issue.record("no TSGroups"); return }
        #expect(groups.map { $0["type"] } == ["@", "@", "{?=ffff}", "I", "i", "i", "i"].map { PlistValue.string($0) })
        #expect(groups[1]["values"] == .array([.uid(0)]))
        #expect(groups[2]["values"] == .array([.array([.real(1), .real(2), .real(3), .real(4)])]))
        #expect(groups[6]["values"] == .array([.integer(6)]))
        #expect(KeyedTestSupport.resolve(groups[0]["values"].flatMap { if case .array(let v) = $0 { v.first } else { nil } }, in: archive) == .string("x"))

        // Turning recognition off gives the generic form for a well-shaped Model too.
        var options = KeyedArchiveExporter.Options()
        options.recognizesModelRecords = false
        let plain = try exported(TestModel(name: nil, type: nil, rect: (0, 0, 0, 0), flag: 0, kind: 0, para: 1), options: options)
        #expect(KeyedTestSupport.root(plain)?["TSGroups"] != nil)
    }

    /// Every kind of value a group can hold, in an object of an unknown class.
    final class Gadget: ArchivableObject {
        var archiveClassChain = [ArchiveClassLink("Gadget", version: 3), ArchiveClassLink("Widget", version: 2), .nsObject]
        init() {}
        func decodeContents(with decoder: Unarchiver) throws {}
        func encodeContents(with encoder: Archiver) throws {
            let child = StringObject("child")
            try encoder.encodeValues([encoder.archivedValue(for: child), .object(nil, referenceWidth: nil), .integer(-1, width: nil), .integer(-1, width: nil)],
                                     ofObjCTypes: "@@iI")
            try encoder.encodeValues([.byte(0xFF), .byte(200), .integer(-2, width: nil), .integer(-1, width: nil)], ofObjCTypes: "cCsS")
            try encoder.encodeValues([.integer(-5, width: nil), .float(0.5, form: nil), .double(-2.25, form: nil)], ofObjCTypes: "qfd")
            try encoder.encodeValues([.cString(encoder.cString(Array("text".utf8)), referenceWidth: nil), .cString(nil, referenceWidth: nil),
                                      .sharedString(ArraySlice("atom".utf8), decision: nil), .sharedString(ArraySlice("sel:".utf8), decision: nil)],
                                     ofObjCTypes: "**%:")
            try encoder.encodeValues([.classObject(ArchivedClass(name: Array("NSView".utf8), version: 41), referenceWidth: nil), .classObject(nil, referenceWidth: nil)],
                                     ofObjCTypes: "##")
            try encoder.encodeValues([.array([.integer(1, width: nil), .integer(-2, width: nil), .integer(3, width: nil)]), .bytes([9, 8, 7, 6])], ofObjCTypes: "[3s][4c]")
            try encoder.encodeValues([.structure([.float(1.5, form: nil), .structure([.integer(7, width: nil)])])], ofObjCTypes: "{Pair=f{Inner=I}}")
            try encoder.encodeBytes([0, 1, 2])
            try encoder.encodeBytes(nil)
            try encoder.encodeObject(child)
        }
    }

    @Test func genericObjectsMapEveryValueKind() throws {
        let archive = try exported(Gadget())
        let root = KeyedTestSupport.root(archive)
        #expect(KeyedTestSupport.classes(of: root, in: archive) == ["Gadget", "Widget", "NSObject"])
        #expect(root?["TSVersion"] == .integer(3))
        #expect(root?["TSClassVersions"] == .array([.integer(3), .integer(2), .integer(0)]))
        guard case .array(let groups)? = root?["TSGroups"] else { Issue.record("no TSGroups"); return }
        let childUID: PlistValue = .uid(2)
        let expected: [(String, [PlistValue])] = [
            ("@@iI", [childUID, .uid(0), .integer(-1), .integer(4_294_967_295)]),
            ("cCsS", [.integer(-1), .integer(200), .integer(-2), .integer(65535)]),
            ("qfd", [.integer(-5), .real(0.5), .real(-2.25)]),
            ("**%:", [.string("text"), .uid(0), .string("atom"), .string("sel:")]),
            ("##", [.uid(3), .uid(0)]),
            ("[3s][4c]", [.array([.integer(1), .integer(-2), .integer(3)]), .data([9, 8, 7, 6])]),
            ("{Pair=f{Inner=I}}", [.array([.real(1.5), .array([.integer(7)])])]),
            ("+", [.data([0, 1, 2])]),
            ("+", [.uid(0)]),
            ("@", [childUID]),
        ]
        #expect(groups.count == expected.count)
        for (group, (type, values)) in zip(groups, expected) {
            #expect(group == .dictionary([PlistEntry("type", .string(type)), PlistEntry("values", .array(values))]))
        }
        #expect(KeyedTestSupport.resolve(childUID, in: archive) == .string("child"))
        let viewClass = KeyedTestSupport.resolve(.uid(3), in: archive)
        #expect(KeyedTestSupport.classes(of: viewClass, in: archive) == ["TSClassReference"])
        #expect(viewClass?["TSClasses"] == .array([.string("NSView")]))
        #expect(viewClass?["TSClassVersions"] == .array([.integer(41)]))
    }

    @Test func topLevelGroupsAndSeveralRoots() throws {
        let archiver = Archiver()
        let list = ArrayObject(strings: ["red"])
        try archiver.encodeObject(list)
        try archiver.encodeValues([archiver.archivedValue(for: list), .integer(42, width: nil)], ofObjCTypes: "@i")
        try archiver.encodeObject(StringObject("tail"))
        let archive = try KeyedArchiveExporter.export(typedstream: try archiver.encodedBytes())
        guard case .dictionary(let top)? = archive["$top"] else { Issue.record("no $top"); return }
        #expect(top.map(\.key) == ["root", "TSItem1", "TSItem2"])
        let group = KeyedTestSupport.resolve(archive["$top"]?["TSItem1"], in: archive)
        #expect(KeyedTestSupport.classes(of: group, in: archive) == ["TSGroup"])
        #expect(group?["type"] == .string("@i"))
        #expect(group?["values"] == .array([archive["$top"]?["root"] ?? .uid(0), .integer(42)]))
        #expect(KeyedTestSupport.resolve(archive["$top"]?["TSItem2"], in: archive) == .string("tail"))
        // No items at all: a nil root.
        #expect(try KeyedArchiveExporter.export([])["$top"] == .dictionary([PlistEntry("root", .uid(0))]))
    }

    @Test func classReferencesAreOneObjectPerClass() throws {
        let entry = ArchivedClass(name: Array("NSButton".utf8), version: 4, superclass: ArchivedClass(name: Array("NSObject".utf8), version: 0))
        let archive = try KeyedArchiveExporter.export(root: ArrayObject([ClassReference(entry), ClassReference(entry)]))
        let root = KeyedTestSupport.root(archive)
        #expect(root?["NS.objects"] == .array([.uid(2), .uid(2)]))
        let reference = KeyedTestSupport.resolve(.uid(2), in: archive)
        #expect(KeyedTestSupport.classes(of: reference, in: archive) == ["TSClassReference"])
        #expect(reference?["TSClasses"] == .array([.string("NSButton"), .string("NSObject")]))
        #expect(reference?["TSClassVersions"] == .array([.integer(4), .integer(0)]))
    }

    @Test func typedCodecsWithoutAKeyedLayoutExportGenerically() throws {
        // NSColor has a codec but no keyed layout here: it keeps its groups.
        let color = ColorObject(.calibratedRGB(red: 1, green: 0.5, blue: 0, alpha: 1))
        let archive = try KeyedArchiveExporter.export(root: ArrayObject([color, color]))
        let root = KeyedTestSupport.root(archive)
        #expect(root?["NS.objects"] == .array([.uid(2), .uid(2)]))
        let exported = KeyedTestSupport.resolve(.uid(2), in: archive)
        #expect(KeyedTestSupport.classes(of: exported, in: archive) == color.archiveClassChain.map(\.name))
        #expect(exported?["TSGroups"] != nil)
    }
}
