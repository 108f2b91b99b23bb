import TypedStream

/// What a ``RecordForm`` reads one keyed-archive object through when the importer rebuilds it
/// (``RecordForm/decodeKeyed(_:)``): its class chain and keys, read as `NSCoder` reads them —
/// strings and data inline or by UID (plain, or `NS.string` / `NS.data` objects), integers
/// inline or by UID, objects by UID through the importer (one instance per UID, so shared and
/// cyclic references stay so).
///
/// Absent keys and `$null` give `nil`; a present value of the wrong kind throws
/// ``KeyedArchiveError`` `badObject`, naming the object and key.
public struct KeyedRecordDecoder {
    let decoder: KeyedArchiveDecoder
    /// The object's UID in `$objects`.
    public let uid: UInt32
    /// The object's entry: its keys (and `$class`).
    public let entry: PlistValue
    /// `$classes`: the object's class chain, most derived first.
    public let classNames: [String]

    /// Where the object is, for messages (`$objects[7]`).
    public var place: String { "$objects[\(uid)]" }

    /// Whether the object has `key`.
    public func contains(_ key: String) -> Bool { entry[key] != nil }

    /// The raw value of `key`.
    public func value(forKey key: String) -> PlistValue? { entry[key] }

    /// A `badObject` error about `key` ("$objects[7].rect is not a string").
    public func error(_ key: String, _ reason: String) -> KeyedArchiveError {
        KeyedArchiveError(.badObject, "\(place)\(KeyedArchiveGraph.keyComponent(key)) \(reason)")
    }

    /// The string of `key`; `nil` when absent or `$null`. Throws `badObject` for anything else.
    public func string(forKey key: String) throws(KeyedArchiveError) -> String? {
        guard let value = entry[key], value != .uid(0) else { return nil }
        return try decoder.string(value, "\(place)\(KeyedArchiveGraph.keyComponent(key))")
    }

    /// The integer of `key`; `nil` when absent. Throws `badObject` for anything else.
    public func integer(forKey key: String) throws(KeyedArchiveError) -> Int64? {
        guard let value = entry[key] else { return nil }
        return try decoder.integer(value, "\(place)\(KeyedArchiveGraph.keyComponent(key))")
    }

    /// The bytes of `key`; `nil` when absent or `$null`. Throws `badObject` for anything else.
    public func data(forKey key: String) throws(KeyedArchiveError) -> [UInt8]? {
        guard let value = entry[key], value != .uid(0) else { return nil }
        return try decoder.data(value, "\(place)\(KeyedArchiveGraph.keyComponent(key))")
    }

    /// The object `key` refers to, rebuilt by the importer; `nil` when absent or `$null`.
    /// Throws ``KeyedArchiveError``.
    public func object(forKey key: String) throws(KeyedArchiveError) -> AnyObject? {
        try decoder.object(entry[key] ?? .uid(0))
    }

    /// The `@` group value of the object `key` refers to (nil object when absent or `$null`),
    /// for a group of `generic`: the object is entered in `generic.objects`, so the archiver
    /// writes that instance (shared wherever else it is referred to).
    public func groupValue(objectForKey key: String, in generic: GenericObject) throws(KeyedArchiveError) -> ArchivedValue {
        guard let instance = try object(forKey: key) else { return .object(nil, referenceWidth: nil) }
        let entry = decoder.placeholder(for: instance)
        generic.objects[ObjectIdentifier(entry)] = instance
        return .object(entry, referenceWidth: nil)
    }

    /// Registers `object` as this UID's object before its keys' objects are read, so references
    /// back to it resolve to it.
    public func remember(_ object: AnyObject) {
        decoder.remember(uid, object)
    }

    /// Counts `byteCount` bytes of text or data that the rebuilt objects hold in copies of their
    /// own (a value the keyed archive stores once but the typedstream will write once per
    /// object) against the import's budget: ``PlistLimits/expandedBytesPerInputByte`` bytes per
    /// byte of the archive's strings and data, plus ``PlistLimits/expandedBaseBytes``. Throws
    /// `badObject` past it.
    public func chargeCopiedBytes(_ byteCount: Int) throws(KeyedArchiveError) {
        try decoder.chargeCopiedBytes(byteCount, at: place)
    }
}
