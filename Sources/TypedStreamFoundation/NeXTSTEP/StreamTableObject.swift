import TypedStream

/// NeXTSTEP's `StreamTable` (version 1): a `HashTable` whose values are whole archives, each
/// written into its own typedstream and stored as data. NeXTSTEP 2 nibs and `IB.proj` files are
/// one `StreamTable` at the root.
///
/// ```text
/// HashTable v1 part:  "i%%" count, key type, "!"    then per entry: key group, "!" group
/// StreamTable part:   per entry, in the same order: key group again, then a data object
///                     ("i" length, "[Nc]" bytes) holding a complete typedstream
/// ```
///
/// ```swift
/// let table = try Unarchiver(bytes: nib, registry: .foundation).decodeRootObject() as! StreamTableObject
/// let root = try table.decodeRootObject(at: 0)     // the archive stored under the first key
/// ```
public final class StreamTableObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// One key and the archive stored under it.
    public struct Entry {
        /// The key, of type ``StreamTableObject/keyType``.
        public var key: NeXTValue
        /// The stored bytes: a complete typedstream.
        public var data: [UInt8]

        /// Creates an entry.
        public init(key: NeXTValue, data: [UInt8]) {
            self.key = key
            self.data = data
        }
    }

    /// The chain as archived (`StreamTable` v1 : `HashTable` v1 : `Object` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = StreamTableObject.defaultChain
    /// The key type string (`"i"`, `"%"`, `"@"`…), as archived.
    public var keyType: [UInt8] = Array("%".utf8)
    /// The entries in archive order.
    public var entries: [Entry] = []

    /// `StreamTable` v1 : `HashTable` v1 : `Object` v0.
    public static let defaultChain = [ArchiveClassLink("StreamTable", version: 1), ArchiveClassLink("HashTable", version: 1), .object]

    /// Creates an empty table with atom keys.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        for entry in entries { entry.key.appendObjects(to: &pending) }
        entries = []
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a table with keys of type `keyType` and the given entries.
    public init(keyType: String, entries: [Entry]) {
        self.keyType = Array(keyType.utf8)
        self.entries = entries
    }

    /// The key type as text.
    public var keyTypeString: String { String(decoding: keyType, as: UTF8.self) }

    /// Reads the stored archive of entry `index` into a graph. Throws ``CoderError``
    /// (`malformed`) when the bytes are not a typedstream; traps on an index out of range.
    public func archive(at index: Int) throws(CoderError) -> Archive {
        do { return try ArchiveReader.read(entries[index].data) } catch { throw CoderError(error) }
    }

    /// Decodes the root object of the archive stored in entry `index` with `registry`.
    /// Throws ``CoderError`` as ``Unarchiver/decodeRootObject()`` does.
    public func decodeRootObject(at index: Int, registry: ClassRegistry = .foundation) throws(CoderError) -> AnyObject? {
        try Unarchiver(bytes: entries[index].data, registry: registry).decodeRootObject()
    }

    /// Reads both passes. Throws ``CoderError``: `unsupportedVersion` for a `StreamTable` version
    /// other than 1 (or a `HashTable` version other than 0 or 1), `badContents` when the values
    /// are not ignored (`!`) or a key of the second pass differs from the first.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "StreamTable", oneOf: [1])
        let offset = decoder.objectOffset
        let table = try HashTableContents.decode(with: decoder)
        guard table.valueType == [UInt8(ascii: "!")] else {
            throw CoderError(.badContents, at: offset, "StreamTable values must have the ignored type '!', found '\(String(decoding: table.valueType, as: UTF8.self))'")
        }
        keyType = table.keyType
        let keyText = keyTypeString
        entries = []
        for (index, first) in table.entries.enumerated() {
            let key = try decoder.decodeNeXTValue(ofType: keyText)
            guard Self.sameKey(first.key, key) else {
                throw CoderError(.badContents, at: offset, "StreamTable entry \(index): the second pass has a different key")
            }
            entries.append(Entry(key: first.key, data: Array(try decoder.decodeDataObject())))
        }
    }

    /// Writes the `HashTable` part (keys with ignored values), then each key again with its data.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        let hashTableVersion = archiveClassChain.first { $0.name == "HashTable" }?.version ?? 1
        try HashTableContents(keyType: keyType, valueType: [UInt8(ascii: "!")],
                              entries: entries.map { HashTableObject.Entry(key: $0.key, value: .ignored) })
            .encode(with: encoder, version: hashTableVersion)
        for entry in entries {
            try encoder.encodeNeXTValues([entry.key], typeString: keyType)
            try encoder.encodeDataObject(entry.data)
        }
    }

    /// Whether two keys are the same: the same object, or equal plain values.
    private static func sameKey(_ a: NeXTValue, _ b: NeXTValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x === y
        case (.value(let x), .value(let y)): return x.hasSameContents(as: y)
        default: return false
        }
    }

    /// "StreamTable(i, 3 entries)".
    public var description: String { "StreamTable(\(keyTypeString), \(entries.count) entries)" }
}
