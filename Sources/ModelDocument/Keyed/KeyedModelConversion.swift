import TypedStream
import TypedStreamExport

extension KeyedModelArchive {
    /// The version and records of a Model document's typedstream (`document.typedstream`) found
    /// in the archive alone, or `nil` when `bytes` are not one: the root must be an `NSArray` /
    /// `NSMutableArray` of at least one `Model`, every record with the groups of one
    /// ``DocumentVersion`` (five: 1, six: 2, seven: the 3 draft), and nothing after the root.
    /// An empty array tells no version and is not recognised. Thumbnails live beside the
    /// archive, so the records have none.
    public static func documentRecords(typedstream bytes: [UInt8]) -> (version: DocumentVersion, records: [ModelRecord])? {
        guard mentionsModelClass(bytes) else { return nil }
        return firstFittingVersion(bytes, index: try? ArchiveIndex(bytes: bytes))
    }

    /// ``documentRecords(typedstream:)`` for an archive whose checked index is `index` (the
    /// reader's own, which `convert` has already made; `nil` when the bytes are not a
    /// typedstream). The index tells which version's groups the first record has, so that
    /// version is decoded first: the versions exclude each other (each reads every value of a
    /// record, and their value counts differ), so the order changes the cost, not the answer.
    public static func documentRecords(typedstream bytes: [UInt8], index: ArchiveIndex?) -> (version: DocumentVersion, records: [ModelRecord])? {
        guard mentionsModelClass(bytes) else { return nil }
        return firstFittingVersion(bytes, index: index)
    }

    /// The version and records of the first ``DocumentVersion`` that decodes `bytes` (a
    /// document that mentions `Model`), trying first the one `index` points to.
    private static func firstFittingVersion(_ bytes: [UInt8], index: ArchiveIndex?) -> (version: DocumentVersion, records: [ModelRecord])? {
        var versions = DocumentVersion.allCases
        if let index, let likely = likelyVersion(index), let at = versions.firstIndex(of: likely) {
            versions.remove(at: at)
            versions.insert(likely, at: 0)
        }
        for version in versions {
            guard let contents = try? ModelArchive.decodeDocument(bytes, version: version), !contents.models.isEmpty else { continue }
            return (version, contents.models.map(\.record))
        }
        return nil
    }

    /// The keyed archive of a Model document's typedstream in the form `model export` writes
    /// (root `ModelDocument`, keys as in ``encode(_:version:)``), so `model import` reads it back;
    /// `nil` when `bytes` are not a Model document's typedstream (see
    /// ``documentRecords(typedstream:)``). `convert --to keyed` uses it before the generic export.
    /// Throws ``ModelDocumentError`` `keyedArchive` when the archive cannot be written.
    public static func convert(typedstream bytes: [UInt8]) throws(ModelDocumentError) -> [UInt8]? {
        guard let (version, records) = documentRecords(typedstream: bytes) else { return nil }
        return try encode(records, version: version)
    }

    /// Writes ``convert(typedstream:)`` to `out` as it is made (not kept whole first); `false`,
    /// with nothing written, when `bytes` are not a Model document's typedstream.
    public static func convert(typedstream bytes: [UInt8], to out: inout OutputWriter) throws(ModelDocumentError) -> Bool {
        guard let (version, records) = documentRecords(typedstream: bytes) else { return false }
        try write(records, version: version, to: &out)
        return true
    }

    /// Writes ``convert(typedstream:)`` to `out` as an XML property list (see
    /// ``writeXML(_:version:to:)``); `false`, with nothing written, when `bytes` are not a Model
    /// document's typedstream.
    public static func convertToXML(typedstream bytes: [UInt8], to out: inout OutputWriter) throws -> Bool {
        guard let (version, records) = documentRecords(typedstream: bytes) else { return false }
        try writeXML(records, version: version, to: &out)
        return true
    }

    /// ``convert(typedstream:)`` for an archive whose checked index is `index` (see
    /// ``documentRecords(typedstream:index:)``).
    public static func convert(typedstream bytes: [UInt8], index: ArchiveIndex) throws(ModelDocumentError) -> [UInt8]? {
        guard let (version, records) = documentRecords(typedstream: bytes, index: index) else { return nil }
        return try encode(records, version: version)
    }

    /// The version whose value count the first `Model` object of `index` has (its values at the
    /// object's own depth: five for version 1, six for 2, seven for the 3 draft), or `nil`.
    /// Looks at the object's tokens only; a malformed object gives `nil`.
    static func likelyVersion(_ index: ArchiveIndex) -> DocumentVersion? {
        guard let slot = (0..<index.slotCount).first(where: {
            index.kind(ofSlot: $0) == .object && index.className(ofObject: $0) == Model.className
        }) else { return nil }
        var tokens = index.tokens(ofObject: slot)
        var values = 0
        while let token = try? tokens.next() {
            guard token.depth == 1 else { continue }
            switch token.kind {
            case .integer, .float, .double, .byte, .rawBytes, .unsharedString, .sharedString, .cString,
                 .object, .arrayStart, .structStart, .ignored:
                values += 1
            default:
                break
            }
        }
        return DocumentVersion.allCases.first { $0.groupTypes.count == values }
    }

    /// Whether the bytes hold the class name `Model` at all: a quick refusal of every other
    /// archive before it is decoded.
    private static func mentionsModelClass(_ bytes: [UInt8]) -> Bool {
        let name = Array(Model.className.utf8)
        guard bytes.count >= name.count else { return false }
        var index = 0
        let last = bytes.count - name.count
        while index <= last {
            if bytes[index] == name[0], bytes[index ..< index + name.count].elementsEqual(name) { return true }
            index += 1
        }
        return false
    }
}
