import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// The hooks through which a higher module gives a class without a codec here its keyed and
/// plain-JSON forms (``RecordForm``, ``RecordForms``), shown with a made-up `Sprite` class:
/// groups `i` frame and `@` image.
@Suite("Record form hooks")
struct RecordFormHookTests {
    /// Writes a Sprite as its owner would.
    final class Sprite: ArchivableObject {
        var archiveClassChain = [ArchiveClassLink("Sprite", version: 2), .nsObject]
        var frame: Int32
        var image: AnyObject?
        var extra: Int32?
        init() { frame = 0 }
        init(frame: Int32, image: AnyObject?, extra: Int32? = nil) {
            self.frame = frame
            self.image = image
            self.extra = extra
        }
        func decodeContents(with decoder: some ObjectDecoder) throws {}
        func encodeContents(with encoder: some ObjectEncoder) throws {
            try encoder.encode(frame)
            try encoder.encodeObject(image)
            if let extra { try encoder.encode(extra) }
        }
    }

    /// Sprite's forms: keys `frame` and `image`; plain JSON `{"$class", "frame", "image"}`.
    struct SpriteForm: RecordForm {
        var className: String { "Sprite" }

        func encodeKeyed(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> Bool {
            let groups = object.groups
            guard groups.count == 2, groups[0].typeText == "i", groups[1].typeText == "@",
                  case .integer(let frame, _) = groups[0].value(at: 0) else { return false }
            encoder.encode(.integer(frame), forKey: "frame")
            try encoder.encode(groups[1].value(at: 0), of: object, forKey: "image")
            return true
        }

        func decodeKeyed(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> AnyObject? {
            guard let frame = try decoder.integer(forKey: "frame") else { return nil }
            let sprite = GenericObject()
            decoder.remember(sprite)
            sprite.archiveClassChain = zip(decoder.classNames, [2, 0]).map { ArchiveClassLink($0.0, version: $0.1) }
            sprite.groups = [
                ArchivedGroup(typeString: ArraySlice("i".utf8), types: [.int], values: [.integer(frame, width: nil)]),
                ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)],
                              values: [try decoder.groupValue(objectForKey: "image", in: sprite)]),
            ]
            return sprite
        }

        func plainJSON(_ object: PlainJSONObject, context: PlainJSONContext) -> PlainJSON.Natural? {
            guard object.groups.count == 2 else { return nil }
            return .object([.init("$class", .json(.string(className))), .init("frame", .value(group: 0, index: 0)),
                            .init("image", .value(group: 1, index: 0))])
        }
    }

    static let forms = RecordForms([SpriteForm()])

    static func root(_ archive: PlistValue) -> PlistValue? {
        guard case .uid(let uid)? = archive["$top"]?["root"], case .array(let objects)? = archive["$objects"] else { return nil }
        return objects[Int(uid)]
    }

    @Test func keyedExportAndImportGoThroughTheForm() throws {
        let image = StringObject("sprite.png")
        let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject([Sprite(frame: -4, image: image), Sprite(frame: 9, image: image)]))
        var exportOptions = KeyedArchiveExporter.Options()
        exportOptions.recordForms = Self.forms
        let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: exportOptions)
        guard case .array(let refs)? = Self.root(plist)?["NS.objects"], case .array(let objects)? = plist["$objects"],
              case .uid(let first) = refs[0], case .uid(let second) = refs[1] else { Issue.record("not an array"); return }
        guard case .dictionary(let entries) = objects[Int(first)] else { Issue.record("not an object"); return }
        #expect(entries.map(\.key) == ["$class", "frame", "image"])
        #expect(objects[Int(first)]["frame"] == .integer(-4))
        #expect(objects[Int(first)]["image"] == objects[Int(second)]["image"])

        var importOptions = KeyedArchiveImporter.Options()
        importOptions.recordForms = Self.forms
        let keyed = BinaryPlistWriter.write(plist)
        #expect(try KeyedArchiveImporter.typedstream(fromKeyed: keyed, options: importOptions) == bytes)
        // Without the form, the importer cannot read the keys.
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveImporter.typedstream(fromKeyed: keyed) }
    }

    @Test func otherShapesAndEmptyRegistriesAreGeneric() throws {
        var options = KeyedArchiveExporter.Options()
        options.recordForms = Self.forms
        let odd = try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: Sprite(frame: 1, image: nil, extra: 3)), options: options)
        #expect(Self.root(odd)?["TSGroups"] != nil)
        #expect(Self.root(odd)?["frame"] == nil)
        let plain = try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: Sprite(frame: 1, image: nil)))
        #expect(Self.root(plain)?["TSGroups"] != nil)
        #expect(Self.root(plain)?["TSVersion"] == .integer(2))
    }

    @Test func plainJSONAsksTheFormFirst() throws {
        let bytes = try Archiver.archivedBytes(withRootObject: Sprite(frame: 7, image: StringObject("a")))
        var options = FoundationPlainJSON.options(pretty: false)
        options.recordForms = Self.forms
        let parsed = try JSONSerialization.jsonObject(with: Data(try PlainJSON.encode(bytes, options: options))) as? [String: Any]
        let sprite = (parsed?["values"] as? [Any])?.first as? [String: Any]
        #expect(sprite?["$class"] as? String == "Sprite")
        #expect(sprite?["frame"] as? Int == 7)
        #expect(sprite?["image"] as? String == "a")
        #expect(sprite?.count == 3)
        let generic = String(decoding: try FoundationPlainJSON.encode(bytes, pretty: false), as: UTF8.self)
        #expect(generic.contains(#""contents""#) && !generic.contains(#""frame""#))
    }

    @Test func theRegistryHoldsOneFormPerClass() {
        struct Other: RecordForm { var className: String { "Sprite" } }
        var forms = RecordForms()
        #expect(forms.isEmpty && forms.form(forClassName: "Sprite") == nil)
        forms.register(SpriteForm())
        #expect(forms == Self.forms && forms.hashValue == Self.forms.hashValue)
        forms.register(Other())
        #expect(forms.classNames == ["Sprite"])
        #expect(forms.form(forClassName: "Sprite") is Other)
        #expect(forms != Self.forms)
    }
}
