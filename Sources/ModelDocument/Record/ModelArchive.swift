import TypedStream
import TypedStreamFoundation

/// Reads and writes the archive of a Model document: an `NSMutableArray` of `Model` records
/// archived as the root object (`+[NSArchiver archivedDataWithRootObject:]`).
///
/// The unarchiver creates objects with `init()` and knows nothing of the document version, so
/// the version picks the class registered for `Model`: a reader whose Model expects exactly the
/// groups of that version. A record with more or fewer groups than its version fails with the
/// offset of the offending group.
///
/// ```swift
/// let contents = try ModelArchive.decodeDocument(bytes, version: .v1)
/// let again = try ModelArchive.encodeDocument(contents.models, version: .v1, rootChain: contents.rootChain)
/// ```
public enum ModelArchive {
    /// What a document archive holds.
    public struct Contents {
        /// The records, in archive order.
        public var models: [Model]
        /// The root array's class chain as archived (`NSMutableArray` : `NSArray` : `NSObject`).
        public var rootChain: [ArchiveClassLink]

        /// Creates contents.
        public init(models: [Model], rootChain: [ArchiveClassLink] = ArrayObject.mutableChain) {
            self.models = models
            self.rootChain = rootChain
        }
    }

    /// The Foundation classes plus the `Model` reader for `version`.
    public static func registry(for version: DocumentVersion) -> ClassRegistry {
        var registry = ClassRegistry.foundation
        let reader: any ArchivableObject.Type
        switch version {
        case .v1: reader = ModelReader<LayoutV1>.self
        case .v2: reader = ModelReader<LayoutV2>.self
        case .v3Draft: reader = ModelReader<LayoutV3Draft>.self
        }
        registry.register(reader, forClassName: Model.className)
        return registry
    }

    /// Decodes a document archive whose settings say `version`. Throws ``CoderError``: `malformed`
    /// bytes, `typeMismatch`/`noMoreValues`/`unconsumedValues` when a record does not have the
    /// groups of `version`, `unexpectedClass` when the root is not an array or an element is not
    /// a Model, `trailingValues` when something follows the root.
    public static func decodeDocument(_ bytes: [UInt8], version: DocumentVersion) throws(CoderError) -> Contents {
        let decoder = try Unarchiver(bytes: bytes, registry: registry(for: version))
        let root = try decoder.decodeRootObject()
        guard let array = root as? ArrayObject else {
            let found = root.map { describe($0) } ?? "nil"
            throw CoderError(.unexpectedClass, at: decoder.archive.groups.first?.offset, "the root object is \(found), not an NSArray of Models")
        }
        var models: [Model] = []
        models.reserveCapacity(array.elements.count)
        for (index, element) in array.elements.enumerated() {
            guard let reader = element as? ModelReading else {
                let found = element.map { describe($0) } ?? "nil"
                throw CoderError(.unexpectedClass, "element \(index) of the document is \(found), not a Model")
            }
            models.append(reader.model)
        }
        return Contents(models: models, rootChain: array.archiveClassChain)
    }

    /// Encodes `models` as a document archive in `version` (setting each model's ``Model/layout``).
    /// Throws ``CoderError`` `invalidValue` when a model holds a value `version` has no group for.
    public static func encodeDocument(_ models: [Model], version: DocumentVersion,
                                      rootChain: [ArchiveClassLink] = ArrayObject.mutableChain) throws(CoderError) -> [UInt8] {
        try Archiver.archivedBytes(withRootObject: documentRoot(models, version: version, rootChain: rootChain))
    }

    /// The root object of a document archive: an array of `models` (each set to `version`'s
    /// layout) with the class chain `rootChain`.
    public static func documentRoot(_ models: [Model], version: DocumentVersion,
                                    rootChain: [ArchiveClassLink] = ArrayObject.mutableChain) -> ArrayObject {
        for model in models { model.layout = version }
        let root = ArrayObject(models)
        root.archiveClassChain = rootChain
        return root
    }

    /// Encodes one model alone as the root object (used for undo history records).
    public static func encodeRecord(_ model: Model, version: DocumentVersion) throws(CoderError) -> [UInt8] {
        model.layout = version
        return try Archiver.archivedBytes(withRootObject: model)
    }

    /// Decodes one model archived alone by ``encodeRecord(_:version:)``.
    public static func decodeRecord(_ bytes: [UInt8], version: DocumentVersion) throws(CoderError) -> Model {
        let decoder = try Unarchiver(bytes: bytes, registry: registry(for: version))
        guard let reader = try decoder.decodeRootObject() as? ModelReading else {
            throw CoderError(.unexpectedClass, "the record archive does not hold a Model")
        }
        return reader.model
    }
}

/// "an object of class NSString", for messages.
private func describe(_ object: AnyObject) -> String {
    if let reader = object as? ModelReading { return "an object of class \(reader.model.archiveClassChain.first?.name ?? Model.className)" }
    if let archivable = object as? ArchivableObject, let first = archivable.archiveClassChain.first {
        return "an object of class \(first.name)"
    }
    return "\(type(of: object))"
}

/// A layout chosen at compile time, so the registry can name a type per document version.
protocol ModelLayoutMarker { static var version: DocumentVersion { get } }
enum LayoutV1: ModelLayoutMarker { static var version: DocumentVersion { .v1 } }
enum LayoutV2: ModelLayoutMarker { static var version: DocumentVersion { .v2 } }
enum LayoutV3Draft: ModelLayoutMarker { static var version: DocumentVersion { .v3Draft } }

/// Anything that carries a decoded Model.
protocol ModelReading: AnyObject { var model: Model { get } }

/// The class registered for `Model` while decoding a document of version `L`: it decodes a
/// ``Model`` with that layout. One reader per archived object, so shared references stay shared.
final class ModelReader<L: ModelLayoutMarker>: ArchivableObject, ModelReading {
    let model = Model()
    var archiveClassChain: [ArchiveClassLink] { model.archiveClassChain }
    init() { model.layout = L.version }
    func decodeContents(with decoder: some ObjectDecoder) throws { try model.decodeContents(with: decoder) }
    func encodeContents(with encoder: some ObjectEncoder) throws { try model.encodeContents(with: encoder) }
}
