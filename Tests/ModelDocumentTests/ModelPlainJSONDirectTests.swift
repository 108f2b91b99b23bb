import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamFoundation
import TypedStreamExport
@testable import ModelDocument

/// Model records in plain JSON written from their tokens — the record form answers from its
/// type strings alone (``ModelRecordForm/plainJSONFollowsTypesOnly``), so it is asked once per
/// shape — against the same form asked for every object: the bytes must be the same.
struct ModelPlainJSONDirectTests {
    /// ``ModelRecordForm`` asked for every object.
    struct AskedForEachObject: RecordForm {
        var className: String { Model.className }
        func plainJSON(_ object: PlainJSONObject, context: PlainJSONContext) -> PlainJSON.Natural? {
            ModelRecordForm().plainJSON(object, context: context)
        }
    }

    /// An object of class `Model` whose groups are a record's of 5, 6 or 7 groups (`shape`), or
    /// not a record's (10: two values after the rect; 11: a rect of two fields).
    final class ShapedModel: ArchivableObject {
        var archiveClassChain = [ArchiveClassLink("Model", version: 1), .nsObject]
        var shape = 0
        var name: AnyObject?
        var n: Int32 = 0
        init() {}
        init(_ shape: Int, _ name: AnyObject?, _ n: Int32) {
            self.shape = shape
            self.name = name
            self.n = n
        }
        func decodeContents(with decoder: some ObjectDecoder) throws {}
        func encodeContents(with encoder: some ObjectEncoder) throws {
            let rect = ArchivedValue.structure([.float(Float(n) / 3, form: nil), .float(2, form: nil), .float(-0.5, form: nil), .float(1e9, form: nil)])
            switch shape {
            case 10:
                // Two values in the group after the rect: the form gives the generic form.
                try encoder.encodeObject(name)
                try encoder.encodeObject(StringObject("t\(n)"))
                try encoder.encodeValues([rect], ofObjCTypes: "{?=ffff}")
                try encoder.encodeValues([.integer(Int64(n), width: nil), .integer(-1, width: nil)], ofObjCTypes: "Ii")
                try encoder.encodeValues([.integer(4, width: nil)], ofObjCTypes: "i")
            case 11:
                // A rect of two fields: not a record.
                try encoder.encodeObject(name)
                try encoder.encodeObject(name)
                try encoder.encodeValues([.structure([.float(1, form: nil), .float(2, form: nil)])], ofObjCTypes: "{?=ff}")
                try encoder.encodeValues([.integer(Int64(n), width: nil)], ofObjCTypes: "I")
                try encoder.encodeValues([.integer(4, width: nil)], ofObjCTypes: "i")
            default:
                // A record of 5, 6 or 7 groups (`shape`), its flag unsigned.
                try encoder.encodeObject(name)
                try encoder.encodeObject(n % 2 == 0 ? StringObject("text") : nil)
                try encoder.encodeValues([rect], ofObjCTypes: "{?=ffff}")
                try encoder.encodeValues([.integer(Int64(-n), width: nil)], ofObjCTypes: "I")
                for extra in 4..<shape {
                    try encoder.encodeValues([.integer(Int64(extra) * Int64(n), width: nil)], ofObjCTypes: "i")
                }
            }
        }
    }

    static func plain(_ bytes: [UInt8], eachObject: Bool, pretty: Bool) throws -> [UInt8] {
        var options = FoundationPlainJSON.options(pretty: pretty)
        options.recordForms = eachObject ? RecordForms([AskedForEachObject(), KeyedModelDocumentForm()]) : .modelDocument
        return try PlainJSON.encode(bytes, options: options)
    }

    static func expectSame(_ bytes: [UInt8], _ label: String) throws {
        for pretty in [true, false] {
            let each = try plain(bytes, eachObject: true, pretty: pretty)
            #expect(try plain(bytes, eachObject: false, pretty: pretty) == each, "\(label) (pretty: \(pretty))")
        }
    }

    @Test func sampleDocumentsWriteTheSameAsWhenTheFormIsAskedForEachRecord() throws {
        for name in ["model-v1", "model-v2", "model-v3-draft"] {
            let bytes = try [UInt8](Data(contentsOf: PackageRoot.samples.appendingPathComponent(name + "/document.typedstream")))
            let text = String(decoding: try Self.plain(bytes, eachObject: false, pretty: true), as: UTF8.self)
            #expect(text.contains(#""$class": "Model""#), "\(name)")
            try Self.expectSame(bytes, name)
        }
    }

    @Test func mixedShapesSharedNamesAndRepeatsWriteTheSame() throws {
        let shared = StringObject("shared name")
        var items: [AnyObject?] = []
        for n in 0..<40 {
            let name: AnyObject? = switch n % 5 {
            case 0: shared
            case 1: nil
            case 2: NumberObject(.int(Int64(n)))
            case 3: ShapedModel(6, StringObject("inner \(n)"), Int32(n))
            default: StringObject("name \(n)")
            }
            items.append(ShapedModel(n % 7 == 0 ? 10 : [5, 6, 7][n % 3], name, Int32(n)))
            if n % 9 == 0 { items.append(ShapedModel(11, shared, Int32(n))) }
            if n % 11 == 0 { items.append(items[n / 2]) }
        }
        let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject(items))
        let text = String(decoding: try Self.plain(bytes, eachObject: false, pretty: false), as: UTF8.self)
        // Records of each length, the generic form, and repeats are all there.
        #expect(text.contains(#""para":"#) && text.contains(#""reserved":"#) && text.contains(#""contents":"#))
        try Self.expectSame(bytes, "mixed shapes")
    }
}
