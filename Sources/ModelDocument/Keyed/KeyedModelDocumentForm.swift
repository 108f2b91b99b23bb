import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// The way back from the keyed Model document (root `ModelDocument`, see ``KeyedModelArchive``)
/// to the document's typedstream, through the keyed importer's hooks: the root becomes the
/// `NSMutableArray` of ``Model``s that ``ModelArchive/encodeDocument(_:version:rootChain:)``
/// writes, each Model in the document's version (read by ``ModelRecordForm`` from its `md_…`
/// keys). A document written by this program comes back byte for byte; thumbnails (`md_image`)
/// live beside the typedstream and are left out.
///
/// ```swift
/// var options = KeyedArchiveImporter.Options()
/// options.recordForms = .modelDocument
/// let typedstream = try KeyedArchiveImporter.typedstream(fromKeyed: keyedDocument, options: options)
/// ```
public struct KeyedModelDocumentForm: RecordForm {
    /// Creates the form.
    public init() {}

    /// `"ModelDocument"`.
    public var className: String { KeyedModelDocument.className }

    /// The document's root array. Throws ``KeyedArchiveError`` `badObject` when `format` is not
    /// `"ModelDocument"`, the version is not one this program understands, `models` is not an
    /// array of Models in the keys of that version.
    public func decodeKeyed(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> AnyObject? {
        typealias Key = KeyedModelDocument.Key
        let format = try decoder.string(forKey: Key.format)
        guard format == DocumentSettings.formatIdentifier else {
            throw decoder.error(Key.format, "is \(format.map(KeyedArchiveGraph.excerpt) ?? "missing"), not \"\(DocumentSettings.formatIdentifier)\"")
        }
        let number = try decoder.integer(forKey: Key.version) ?? 0
        guard let version = DocumentVersion(rawValue: Int(truncatingIfNeeded: number)), Int64(version.rawValue) == number else {
            throw decoder.error(Key.version, "\(number) is not a document version this program understands (1 to \(DocumentVersion.newestUnderstood.rawValue))")
        }
        guard let array = try decoder.object(forKey: Key.models) as? ArrayObject else {
            throw decoder.error(Key.models, "is not an array")
        }
        var models: [Model] = []
        models.reserveCapacity(array.elements.count)
        for (index, element) in array.elements.enumerated() {
            guard let model = element as? Model else {
                throw decoder.error(Key.models, "element \(index) is not a Model in the keys of a document")
            }
            guard model.layout == version else {
                throw decoder.error(Key.models, "element \(index) has the keys of version \(model.layout), the document says \(version)")
            }
            models.append(model)
        }
        return ModelArchive.documentRoot(models, version: version)
    }
}
