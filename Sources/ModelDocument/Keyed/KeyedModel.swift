import Foundation
import TypedStreamExport

/// One Model in a keyed archive: class name `Model`, the Objective-C ivar names as keys.
/// (Keys: see ``KeyedModelArchive``.)
final class KeyedModel: NSObject, NSSecureCoding {
    static let className = "Model"
    static var supportsSecureCoding: Bool { true }

    var record: ModelRecord
    var version: DocumentVersion

    init(_ record: ModelRecord, version: DocumentVersion) {
        self.record = record
        self.version = version
        super.init()
    }

    func encode(with coder: NSCoder) {
        if let name = record.name { coder.encode(name as NSString, forKey: "md_name") }
        if let type = record.type { coder.encode(type as NSString, forKey: "md_type") }
        coder.encode(Self.rectString(record.rect) as NSString, forKey: "md_rt")
        coder.encode(Int(record.flag), forKey: "md_flag")
        coder.encode(Int(record.kind), forKey: "md_kind")
        if version.hasPara { coder.encode(Int(record.para), forKey: "md_para") }
        if version.hasReserved { coder.encode(Int(record.reserved), forKey: "md_reserved") }
        if let thumbnail = record.thumbnail { coder.encode(Data(thumbnail) as NSData, forKey: "md_image") }
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
        let rectText = try values.requiredString("md_rt")
        guard let rect = rect(parsing: rectText) else {
            throw values.invalid("md_rt", "\(KeyedArchiveGraph.excerpt(rectText)) is not a rectangle \"{{x, y}, {w, h}}\"")
        }
        let record = ModelRecord(name: try values.string("md_name"), type: try values.string("md_type"), rect: rect,
                                 flag: try values.integer("md_flag", as: UInt32.self), kind: try values.integer("md_kind", as: Int32.self),
                                 para: try values.integer("md_para", as: Int32.self), reserved: try values.integer("md_reserved", as: Int32.self),
                                 thumbnail: try values.data("md_image"))
        let version: DocumentVersion = values.contains("md_reserved") ? .v3Draft : values.contains("md_para") ? .v2 : .v1
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

    var version: Int
    var models: [KeyedModel]

    init(version: Int, models: [KeyedModel]) {
        self.version = version
        self.models = models
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(DocumentSettings.formatIdentifier as NSString, forKey: "format")
        coder.encode(version, forKey: "version")
        coder.encode(models as NSArray, forKey: "models")
    }

    required init?(coder: NSCoder) {
        guard coder.decodeObject(of: NSString.self, forKey: "format") as String? == DocumentSettings.formatIdentifier,
              let models = coder.decodeObject(of: [NSArray.self, KeyedModel.self], forKey: "models") as? [KeyedModel] else { return nil }
        version = coder.decodeInteger(forKey: "version")
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
        let format = try values.string("format")
        guard format == DocumentSettings.formatIdentifier else {
            throw values.invalid("format", "is \(format.map(KeyedArchiveGraph.excerpt) ?? "missing"), not \"\(DocumentSettings.formatIdentifier)\"")
        }
        guard let modelsRef = root.value["models"] else { throw values.invalid("models", "is missing") }
        let array = try reader.object(modelsRef, at: root.place + ".models")
        var models: [KeyedModel] = []
        for element in try reader.arrayElements(array, of: KeyedModel.className) {
            let (record, version) = try KeyedModel.fields(from: reader.values(of: element))
            models.append(KeyedModel(record, version: version))
        }
        return (try values.integer("version") ?? 0, models)
    }
}
