import TypedStream
import TypedStreamFoundation

// STAND-IN — delete when `ModelDocument.Model` is on main.
//
// The real `Model` record is being written in module ModelDocument (branch `model`). Until it
// lands, this local class writes the same bytes for a version-2 document: class `Model` v0 :
// `NSObject` v0, then one group each: `@` name (NSString), `@` type (NSString), `{?=ffff}` rect,
// `I` flag, `i` kind, `i` para. To switch: make `ModelFactory` build `Model` values and let
// `BenchRegistry.typed` use `ModelArchive.registry(for: .v2)`.

/// Local stand-in for the users' `Model` record (document version 2 layout).
final class ModelStandIn: ArchivableObject, NaturalValueRepresentable {
    var archiveClassChain: [ArchiveClassLink] = [ArchiveClassLink("Model", version: 0), .nsObject]
    var nameObject: StringObject?
    var typeObject: StringObject?
    var rect: (Float, Float, Float, Float) = (0, 0, 0, 0)
    var flag: UInt32 = 0
    var kind: Int32 = 0
    var para: Int32 = 0

    init() {}

    func decodeContents(with decoder: Unarchiver) throws {
        archiveClassChain = decoder.currentClassChain
        nameObject = try decoder.decodeObject(of: StringObject.self)
        typeObject = try decoder.decodeObject(of: StringObject.self)
        let members = try decoder.decodeValue(ofObjCType: "{?=ffff}").members(4)
        rect = (try Float(archivedValue: members[0]), try Float(archivedValue: members[1]),
                try Float(archivedValue: members[2]), try Float(archivedValue: members[3]))
        flag = try decoder.decode()
        kind = try decoder.decode()
        para = try decoder.decode()
    }

    func encodeContents(with encoder: Archiver) throws {
        try encoder.encodeObject(nameObject)
        try encoder.encodeObject(typeObject)
        try encoder.encodeValue(.structure([rect.0.archivedValue, rect.1.archivedValue, rect.2.archivedValue, rect.3.archivedValue]), ofObjCType: "{?=ffff}")
        try encoder.encode(flag)
        try encoder.encode(kind)
        try encoder.encode(para)
    }

    /// The record as a dictionary of its fields.
    func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        .dictionary([
            .init(.string("name"), nested(nameObject)),
            .init(.string("type"), nested(typeObject)),
            .init(.string("rect"), .array([rect.0, rect.1, rect.2, rect.3].map { .number(.float($0)) })),
            .init(.string("flag"), .number(.uint(UInt64(flag)))),
            .init(.string("kind"), .number(.int(Int64(kind)))),
            .init(.string("para"), .number(.int(Int64(para)))),
        ])
    }
}

/// The class registries the bench decodes with.
enum BenchRegistry {
    /// The Foundation codecs plus the Model stand-in.
    static let typed: ClassRegistry = {
        var registry = ClassRegistry.foundation
        registry.register(ModelStandIn.self, forClassName: "Model")
        return registry
    }()
}
