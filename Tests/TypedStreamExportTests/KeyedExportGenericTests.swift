import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// Objects of unknown classes: their documented keys (docs/keyed-mapping.md).
@Suite("Keyed export: generic objects")
struct KeyedExportGenericTests {
    private func exported(_ root: AnyObject, options: KeyedArchiveExporter.Options = .init()) throws -> PlistValue {
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        return try KeyedArchiveExporter.export(typedstream: bytes, options: options)
    }

    /// Every kind of value a group can hold, in an object of an unknown class.
    final class Gadget: ArchivableObject {
        var archiveClassChain = [ArchiveClassLink("Gadget", version: 3), ArchiveClassLink("Widget", version: 2), .nsObject]
        init() {}
        func decodeContents(with decoder: some ObjectDecoder) throws {}
        func encodeContents(with encoder: some ObjectEncoder) throws {
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
