import TypedStreamExport
import TypedStreamFoundation

/// One Model in a keyed archive: class name `Model`, the Objective-C ivar names as keys.
/// (Keys: see ``KeyedModelArchive``; names from ``ModelField``.) The one reading and writing of
/// those keys: `model export`, `model import`, `convert --to keyed` of a document's typedstream
/// and its way back (``ModelRecordForm``'s import) all go through this class. Written by our
/// own keyed exporter (``KeyedArchiveRepresentable``), as `NSKeyedArchiver` lays out an object
/// whose `encodeWithCoder:` writes these keys in this order; read by ``KeyedArchiveReader``.
final class KeyedModel: KeyedArchiveRepresentable {
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

    var record: ModelRecord
    var version: DocumentVersion

    init(_ record: ModelRecord, version: DocumentVersion) {
        self.record = record
        self.version = version
    }

    /// `$classes`: `Model`, `NSObject`.
    var keyedClassNames: [String] { [Self.className, "NSObject"] }

    /// The keys, in `encodeWithCoder:` order: strings and the thumbnail as objects, the rest
    /// as integers.
    func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        if let name = record.name { try encoder.encodeStringObject(name, forKey: Key.name) }
        if let type = record.type { try encoder.encodeStringObject(type, forKey: Key.type) }
        try encoder.encodeStringObject(Self.rectString(record.rect), forKey: Key.rect)
        encoder.encode(.integer(Int64(record.flag)), forKey: Key.flag)
        encoder.encode(.integer(Int64(record.kind)), forKey: Key.kind)
        if version.hasPara { encoder.encode(.integer(Int64(record.para)), forKey: Key.para) }
        if version.hasReserved { encoder.encode(.integer(Int64(record.reserved)), forKey: Key.reserved) }
        if let thumbnail = record.thumbnail { encoder.encode(try encoder.plainReference(.data(thumbnail)), forKey: Key.image) }
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
final class KeyedModelDocument: KeyedArchiveRepresentable {
    static let className = "ModelDocument"

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
    }

    /// `$classes`: `ModelDocument`, `NSObject`.
    var keyedClassNames: [String] { [Self.className, "NSObject"] }

    /// `format`, `version`, then `models` as an `NSArray`.
    func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        try encoder.encodeStringObject(DocumentSettings.formatIdentifier, forKey: Key.format)
        encoder.encode(.integer(Int64(version)), forKey: Key.version)
        try encoder.encode(ArrayObject(models), forKey: Key.models)
    }

    /// The binary keyed archive of the document: deterministic, the same bytes for the same
    /// records.
    func archived() throws(ModelDocumentError) -> [UInt8] {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try write(to: &out)
        out.flush()
        return capture.bytes
    }

    /// Writes ``archived()`` to `out` (nothing is written when it throws).
    func write(to out: inout OutputWriter) throws(ModelDocumentError) {
        do {
            try KeyedArchiveExporter.writeBinary([.object(self)], to: &out)
        } catch {
            throw ModelDocumentError(.keyedArchive, "cannot write the keyed archive: \(error.reason)")
        }
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
