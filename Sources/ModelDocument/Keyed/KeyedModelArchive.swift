import Foundation
import TypedStreamExport

/// Converts Model documents to keyed archives (`NSKeyedArchiver`, binary property list) and
/// back, so old documents can move to the keyed world without loss of any value.
///
/// The keyed archive's root is an object of class `ModelDocument` with the keys `format`
/// (`"ModelDocument"`), `version` (integer, as in the settings file) and `models` (an `NSArray`).
/// Each model is an object of class `Model` keyed by the Objective-C ivar names:
///
/// | key | encoded with | holds |
/// |---|---|---|
/// | `md_name` | `encodeObject:forKey:` (NSString) | absent when nil |
/// | `md_type` | `encodeObject:forKey:` (NSString) | absent when nil |
/// | `md_rt` | `encodeObject:forKey:` (NSString) | `"{{x, y}, {w, h}}"` as `NSStringFromCGRect` writes it, each float in its shortest exact spelling |
/// | `md_flag` | `encodeInteger:forKey:` | `md_flag` |
/// | `md_kind` | `encodeInteger:forKey:` | `md_kind` |
/// | `md_para` | `encodeInteger:forKey:` | version 2 and later only |
/// | `md_reserved` | `encodeInteger:forKey:` | version 3 draft only |
/// | `md_image` | `encodeObject:forKey:` (NSData) | the thumbnail's bytes; absent when none |
///
/// What does not travel: which string objects the sequential archive shared between records,
/// and `NSMutableString` versus `NSString` — the keyed archive holds values, not the sequential
/// archive's object identities. A document written by this program comes back byte for byte.
///
/// ```swift
/// let keyed = try KeyedModelArchive.export(document)
/// let copy = try KeyedModelArchive.importDocument(keyed, to: "/tmp/Copy")
/// ```
public enum KeyedModelArchive {
    /// The file name `typedstream model export DIR --to keyed` writes inside the document folder
    /// by default.
    public static let defaultFileName = "document.keyedarchive"

    /// The keyed archive of `records` in `version`.
    public static func encode(_ records: [ModelRecord], version: DocumentVersion) throws(ModelDocumentError) -> [UInt8] {
        try document(records, version: version).archived()
    }

    /// Writes the keyed archive of `records` in `version` to `out` (nothing is written when it
    /// throws).
    public static func write(_ records: [ModelRecord], version: DocumentVersion, to out: inout OutputWriter) throws(ModelDocumentError) {
        try document(records, version: version).write(to: &out)
    }

    /// Writes the keyed archive of `records` in `version` to `out` as an XML property list, the
    /// form `convert --to keyed-xml` gives (nothing is written when it throws). Throws
    /// ``ModelDocumentError`` `notRepresentable` as ``encode(_:version:)``, or
    /// ``KeyedArchiveError`` `notRepresentableInXML` for a string XML 1.0 cannot hold.
    public static func writeXML(_ records: [ModelRecord], version: DocumentVersion, to out: inout OutputWriter) throws {
        try KeyedArchiveExporter.writeXML([.object(document(records, version: version))], to: &out)
    }

    /// The root object of the keyed archive of `records` in `version`. Throws
    /// ``ModelDocumentError`` `notRepresentable` when a record holds what `version` cannot.
    private static func document(_ records: [ModelRecord], version: DocumentVersion) throws(ModelDocumentError) -> KeyedModelDocument {
        for record in records {
            let lost = record.fieldsLost(in: version)
            guard lost.isEmpty else {
                throw ModelDocumentError(.notRepresentable, "document version \(version) cannot hold \(lost.joined(separator: ", "))")
            }
        }
        return KeyedModelDocument(version: version.rawValue, models: records.map { KeyedModel($0, version: version) })
    }

    /// The version and records of a keyed Model archive. Throws ``ModelDocumentError``
    /// `keyedArchive` when it is not one, `newerVersion` for a version this program does not
    /// understand, `malformedArchive` when a model's keys do not match the version. The bytes
    /// are read and checked by our own bounded readers (``KeyedArchiveReader``), never by
    /// Foundation's `NSKeyedUnarchiver`.
    public static func decode(_ bytes: [UInt8], path: String? = nil) throws(ModelDocumentError) -> (version: DocumentVersion, records: [ModelRecord]) {
        let document = try KeyedModelDocument.read(KeyedArchiveReader(bytes, path: path))
        let version = try DocumentSettings(version: document.version).documentVersion(path: path)
        for (index, model) in document.models.enumerated() where model.version != version {
            throw ModelDocumentError(.malformedArchive, path: path, "model \(index) has the keys of version \(model.version), the document says \(version)")
        }
        return (version, document.models.map(\.record))
    }

    /// The keyed archive of an open document (its version, records and thumbnails).
    public static func export(_ document: ModelDocument) throws(ModelDocumentError) -> [UInt8] {
        try encode(document.records, version: document.version)
    }

    /// Where ``export(_:toFile:)`` writes by default: ``defaultFileName`` inside the document
    /// folder `directory`.
    public static func defaultPath(in directory: String) -> String {
        DurableIO.join(directory, defaultFileName)
    }

    /// Writes the keyed archive of an open document to `path` atomically (temporary file,
    /// `fsync`, `rename`) and returns its size in bytes. Throws ``ModelDocumentError``: as
    /// ``export(_:)``, and `io` when the file cannot be written ("cannot write 'PATH': reason").
    @discardableResult
    public static func export(_ document: ModelDocument, toFile path: String) throws(ModelDocumentError) -> Int {
        let bytes = try export(document)
        try DurableIO.writeAtomically(bytes, to: path)
        return bytes.count
    }

    /// Creates a new Model document in `directory` from a keyed archive (read from `path`, named
    /// in errors). Throws as ``decode(_:path:)``, `duplicateName` when two models share a name
    /// (as ``ModelDocument/add(_:)`` does: each thumbnail is found by its model's name, so one
    /// image would be lost; nothing is created), and as ``ModelDocument/create(at:records:version:)``.
    public static func importDocument(_ bytes: [UInt8], to directory: String, path: String? = nil) throws(ModelDocumentError) -> ModelDocument {
        let (version, records) = try decode(bytes, path: path)
        try ModelDocument.checkUniqueNames(records, path: path, action: "imported")
        return try ModelDocument.create(at: directory, records: records, version: version)
    }
}
