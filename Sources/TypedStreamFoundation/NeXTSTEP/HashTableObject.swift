import TypedStream

/// NeXTSTEP's `HashTable` (versions 0 and 1): a table whose keys and values have types given by
/// type strings it archives itself.
///
/// ```text
/// version 0:  "i**"  count, key type, value type (C strings)
/// version 1:  "i%%"  count, key type, value type (atoms)
/// then per entry:  one group of the key type, one group of the value type
/// ```
///
/// The layout is chosen by the archived class version, as NeXT's `-read:` does with
/// `NXTypedStreamClassVersion`; the stream's system version plays no part.
///
/// Entries are kept in archive order (the writer's bucket order), so writing them back gives the
/// same bytes. `StreamTable` extends this layout (see ``StreamTableObject``).
///
/// ```swift
/// let table = HashTableObject(keyType: "%", valueType: "@",
///                             entries: [(.atom("File"), .object(menu))])
/// table.entries.first?.key.stringValue      // "File"
/// ```
public final class HashTableObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// One key/value pair.
    public struct Entry {
        /// The key, of type ``HashTableObject/keyType``.
        public var key: NeXTValue
        /// The value, of type ``HashTableObject/valueType``.
        public var value: NeXTValue

        /// Creates an entry.
        public init(key: NeXTValue, value: NeXTValue) {
            self.key = key
            self.value = value
        }
    }

    /// The chain as archived (`HashTable` v1 : `Object` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = HashTableObject.defaultChain
    /// The key type string (`"@"`, `"%"`, `"*"`, `"i"`…), as archived.
    public var keyType: [UInt8] = Array("@".utf8)
    /// The value type string (`"@"`, `"i"`, `"!"`…), as archived.
    public var valueType: [UInt8] = Array("@".utf8)
    /// The entries in archive order.
    public var entries: [Entry] = []

    /// `HashTable` v1 : `Object` v0 — what NeXTSTEP 2 and 3 write.
    public static let defaultChain = [ArchiveClassLink("HashTable", version: 1), .object]

    /// Creates an empty table of objects to objects.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        for entry in entries {
            entry.key.appendObjects(to: &pending)
            entry.value.appendObjects(to: &pending)
        }
        entries = []
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a table with the given types and entries, archived as `HashTable` version 1.
    public init(keyType: String, valueType: String, entries: [(key: NeXTValue, value: NeXTValue)]) {
        self.keyType = Array(keyType.utf8)
        self.valueType = Array(valueType.utf8)
        self.entries = entries.map { Entry(key: $0.key, value: $0.value) }
    }

    /// The key type as text.
    public var keyTypeString: String { String(decoding: keyType, as: UTF8.self) }
    /// The value type as text.
    public var valueTypeString: String { String(decoding: valueType, as: UTF8.self) }

    /// The value of the first entry whose key is an atom, selector or C string with this text.
    public subscript(key: String) -> NeXTValue? {
        entries.first { $0.key.stringValue == key }?.value
    }

    /// Reads the types and the entries. Throws ``CoderError``: `unsupportedVersion` for a
    /// `HashTable` version other than 0 or 1, `badContents` for a negative count or a NULL type string.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        let table = try HashTableContents.decode(with: decoder)
        keyType = table.keyType
        valueType = table.valueType
        entries = table.entries
    }

    /// Writes the types and the entries in the layout of the archived `HashTable` version.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        try HashTableContents(keyType: keyType, valueType: valueType, entries: entries)
            .encode(with: encoder, version: archiveClassChain.first { $0.name == "HashTable" }?.version ?? 1)
    }

    /// "HashTable(% -> @, 3 entries)".
    public var description: String { "HashTable(\(keyTypeString) -> \(valueTypeString), \(entries.count) entries)" }
}

/// The `HashTable` part of a `HashTable` or `StreamTable`: shared by both codecs.
struct HashTableContents {
    var keyType: [UInt8]
    var valueType: [UInt8]
    var entries: [HashTableObject.Entry]

    /// Reads the `HashTable` groups of the current object.
    static func decode(with decoder: some ObjectDecoder) throws(CoderError) -> HashTableContents {
        try decoder.requireVersion(of: "HashTable", oneOf: [0, 1])
        let offset = decoder.objectOffset
        let version = decoder.chainVersion(of: "HashTable") ?? 1
        let values = try decoder.decodeValues(ofObjCTypes: version == 0 ? "i**" : "i%%")
        let count = try Int32(archivedValue: values[0])
        guard count >= 0 else { throw CoderError(.badContents, at: offset, "HashTable count \(count) is negative") }
        guard let keyBytes = NeXTValue.value(values[1]).stringBytes, let valueBytes = NeXTValue.value(values[2]).stringBytes,
              !keyBytes.isEmpty, !valueBytes.isEmpty else {
            throw CoderError(.badContents, at: offset, "HashTable key or value type is NULL or empty")
        }
        let keyText = String(decoding: keyBytes, as: UTF8.self)
        let valueText = String(decoding: valueBytes, as: UTF8.self)
        var entries: [HashTableObject.Entry] = []
        for _ in 0..<count {
            let key = try decoder.decodeNeXTValue(ofType: keyText)
            let value = try decoder.decodeNeXTValue(ofType: valueText)
            entries.append(HashTableObject.Entry(key: key, value: value))
        }
        return HashTableContents(keyType: Array(keyBytes), valueType: Array(valueBytes), entries: entries)
    }

    /// Writes the `HashTable` groups: version 0 with C-string types, else with atoms.
    func encode(with encoder: some ObjectEncoder, version: Int64) throws(CoderError) {
        guard let count = Int32(exactly: entries.count) else {
            throw CoderError(.invalidValue, "a HashTable of \(entries.count) entries is too large")
        }
        if version == 0 {
            try encoder.encodeValues([.integer(Int64(count), width: nil),
                                      .cString(encoder.cString(keyType), referenceWidth: nil),
                                      .cString(encoder.cString(valueType), referenceWidth: nil)], ofObjCTypes: "i**")
        } else {
            try encoder.encodeValues([.integer(Int64(count), width: nil),
                                      .sharedString(ArraySlice(keyType), decision: nil),
                                      .sharedString(ArraySlice(valueType), decision: nil)], ofObjCTypes: "i%%")
        }
        for entry in entries {
            try encoder.encodeNeXTValues([entry.key], typeString: keyType)
            try encoder.encodeNeXTValues([entry.value], typeString: valueType)
        }
    }
}
