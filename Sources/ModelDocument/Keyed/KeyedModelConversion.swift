extension KeyedModelArchive {
    /// The version and records of a Model document's typedstream (`document.typedstream`) found
    /// in the archive alone, or `nil` when `bytes` are not one: the root must be an `NSArray` /
    /// `NSMutableArray` of at least one `Model`, every record with the groups of one
    /// ``DocumentVersion`` (five: 1, six: 2, seven: the 3 draft), and nothing after the root.
    /// An empty array tells no version and is not recognised. Thumbnails live beside the
    /// archive, so the records have none.
    public static func documentRecords(typedstream bytes: [UInt8]) -> (version: DocumentVersion, records: [ModelRecord])? {
        guard mentionsModelClass(bytes) else { return nil }
        for version in DocumentVersion.allCases {
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
