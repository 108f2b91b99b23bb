import Foundation
import TypedStreamExport

/// One Model in a keyed archive: class name `Model`, the Objective-C ivar names as keys.
/// (Keys: see ``KeyedModelArchive``; names from ``ModelField``.) The one reading and writing of
/// those keys: `model export`, `model import`, `convert --to keyed` of a document's typedstream
/// and its way back (``ModelRecordForm``'s import) all go through this class.
final class KeyedModel: NSObject, NSSecureCoding {
    static let className = Model.className

    /// The keys, as written: the Objective-C ivar names (``ModelField/ivarKey``).
    enum Key {
        static let name = ModelField.name.ivarKey
        static let type = ModelField.type.ivarKey
        static let rect = ModelField.rect.ivarKey
        static let flag = ModelField.flag.ivarKey
        static let kind = ModelField.kind.ivarKey
        static let para = ModelField.para.ivarKey
        static let reserved = ModelField.reserved.ivarKey
        /// The thumbnail's bytes (`model export` only: never in the typedstream).
        static let image = "md_image"
    }
    static var supportsSecureCoding: Bool { true }

    var record: ModelRecord
    var version: DocumentVersion

    init(_ record: ModelRecord, version: DocumentVersion) {
        self.record = record
        self.version = version
        super.init()
    }

    func encode(with coder: NSCoder) {
        if let name = record.name { coder.encode(name as NSString, forKey: Key.name) }
        if let type = record.type { coder.encode(type as NSString, forKey: Key.type) }
        coder.encode(Self.rectString(record.rect) as NSString, forKey: Key.rect)
        coder.encode(Int(record.flag), forKey: Key.flag)
        coder.encode(Int(record.kind), forKey: Key.kind)
        if version.hasPara { coder.encode(Int(record.para), forKey: Key.para) }
        if version.hasReserved { coder.encode(Int(record.reserved), forKey: Key.reserved) }
        if let thumbnail = record.thumbnail { coder.encode(Data(thumbnail) as NSData, forKey: Key.image) }
    }

    /// Decoding needs the document version, which lives on the root: it is read later by
    /// ``KeyedModelDocument``; here every present key is taken.
    required init?(coder: NSCoder) {
        guard let (record, version) = try? Self.fields(from: CoderValues(coder: coder)) else { return nil }
        self.record = record
        self.version = version
        super.init()
    }

    /// The record a Model's keys hold, and the document version its keys imply (`md_reserved`:
    /// 3 draft, `md_para`: 2, else 1). Throws ``ModelDocumentError`` `keyedArchive` for a
    /// missing `md_rt`, a rectangle that does not parse, an integer out of range.
    static func fields(from values: some KeyedValues) throws(ModelDocumentError) -> (record: ModelRecord, version: DocumentVersion) {
        let rectText = try values.requiredString(Key.rect)
        guard let rect = rect(parsing: rectText) else {
            throw values.invalid(Key.rect, "\(KeyedArchiveGraph.excerpt(rectText)) is not a rectangle \"{{x, y}, {w, h}}\"")
        }
        let record = ModelRecord(name: try values.string(Key.name), type: try values.string(Key.type), rect: rect,
                                 flag: try values.integer(Key.flag, as: UInt32.self), kind: try values.integer(Key.kind, as: Int32.self),
                                 para: try values.integer(Key.para, as: Int32.self), reserved: try values.integer(Key.reserved, as: Int32.self),
                                 thumbnail: try values.data(Key.image))
        let version: DocumentVersion = values.contains(Key.reserved) ? .v3Draft : values.contains(Key.para) ? .v2 : .v1
        return (record, version)
    }

    /// `"{{x, y}, {w, h}}"`.
    static func rectString(_ rect: ModelRect) -> String {
        "{{\(ModelRect.spell(rect.x)), \(ModelRect.spell(rect.y))}, {\(ModelRect.spell(rect.width)), \(ModelRect.spell(rect.height))}}"
    }

    /// Parses `"{{x, y}, {w, h}}"`.
    static func rect(parsing text: String) -> ModelRect? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}") else { return nil }
        let inner = text.dropFirst(2).dropLast(2)
        let halves = inner.components(separatedBy: "}, {")
        guard halves.count == 2 else { return nil }
        return ModelRect(argument: halves[0] + "," + halves[1])
    }
}

/// The root of a keyed Model document: class name `ModelDocument`, keys `format`
/// (`"ModelDocument"`), `version` (integer) and `models` (an `NSArray` of `Model`).
final class KeyedModelDocument: NSObject, NSSecureCoding {
    static let className = "ModelDocument"
    static var supportsSecureCoding: Bool { true }

    /// The keys, as written.
    enum Key {
        static let format = "format"
        static let version = "version"
        static let models = "models"
    }

    var version: Int
    var models: [KeyedModel]

    init(version: Int, models: [KeyedModel]) {
        self.version = version
        self.models = models
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(DocumentSettings.formatIdentifier as NSString, forKey: Key.format)
        coder.encode(version, forKey: Key.version)
        coder.encode(models as NSArray, forKey: Key.models)
    }

    required init?(coder: NSCoder) {
        guard coder.decodeObject(of: NSString.self, forKey: Key.format) as String? == DocumentSettings.formatIdentifier,
              let models = coder.decodeObject(of: [NSArray.self, KeyedModel.self], forKey: Key.models) as? [KeyedModel] else { return nil }
        version = coder.decodeInteger(forKey: Key.version)
        self.models = models
        super.init()
    }

    /// The version and models of a keyed Model document read by `reader` (no Foundation).
    /// Throws ``ModelDocumentError`` `keyedArchive`.
    static func read(_ reader: KeyedArchiveReader) throws(ModelDocumentError) -> (version: Int, models: [KeyedModel]) {
        let root = try reader.root()
        guard root.className == className else {
            throw reader.error("the root object ($objects[\(root.uid)]) is of class \(KeyedArchiveGraph.excerpt(root.className)), not \(className)")
        }
        let values = reader.values(of: root)
        let format = try values.string(Key.format)
        guard format == DocumentSettings.formatIdentifier else {
            throw values.invalid(Key.format, "is \(format.map(KeyedArchiveGraph.excerpt) ?? "missing"), not \"\(DocumentSettings.formatIdentifier)\"")
        }
        guard let modelsRef = root.value[Key.models] else { throw values.invalid(Key.models, "is missing") }
        let array = try reader.object(modelsRef, at: root.place + "." + Key.models)
        var models: [KeyedModel] = []
        for element in try reader.arrayElements(array, of: KeyedModel.className) {
            let (record, version) = try KeyedModel.fields(from: reader.values(of: element))
            models.append(KeyedModel(record, version: version))
        }
        return (try values.integer(Key.version) ?? 0, models)
    }
}
