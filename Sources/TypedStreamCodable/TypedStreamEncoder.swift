import TypedStream
import TypedStreamFoundation

/// Writes `Encodable` values as typedstream archives, as ordered records.
///
/// How Swift's containers map to the sequential coder (there are no keys on the wire):
/// - a **keyed container** (a struct or class) is an object whose class is the type's name
///   (or ``TypedStreamRecord/archiveClassName``) with superclass `NSObject`; each field is one
///   group, **in the order `encode(to:)` writes them** — for synthesized conformances, the
///   order the properties are declared. Decoding must read them in the same order.
/// - scalars are groups of their `@encode` type: `Int32` `i`, `UInt32` `I`, `Int16` `s`,
///   `UInt16` `S`, `Int8` `c`, `UInt8` `C`, `Bool` `c`, `Int64`/`Int` `q`, `UInt64`/`UInt` `Q`,
///   `Float` `f`, `Double` `d`; any ``ObjCValueConvertible`` uses its own type (e.g. `{?=ffff}`).
/// - a `String` is an `NSString` object (`"@"`).
/// - `nil` (including `encodeIfPresent` of nil) is a nil object (`"@"`), so the group count never
///   depends on the data and decoding stays aligned.
/// - an **unkeyed container** (an array) is an `NSArray` object: an `"i"` count, then one group per
///   element (elements that are objects make it a true Foundation `NSArray`).
/// - a **dictionary** is an `NSDictionary` object: an `"i"` count, then a key group and a value
///   group per entry, keys sorted by their text so the bytes are deterministic.
/// - the top-level value is the root object (or, for a scalar, the single top-level group).
public struct TypedStreamEncoder {
    /// The header to write (Apple's by default).
    public var header: StreamHeader = .apple
    /// Contextual information for `encode(to:)` implementations.
    public var userInfo: [CodingUserInfoKey: Any] = [:]

    /// Creates an encoder.
    public init() {}

    /// Encodes `value` into archive bytes. Throws ``CoderError`` or `EncodingError`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let item = try RecordEncoder.item(for: value, codingPath: [], userInfo: userInfo)
        let archiver = Archiver(header: header)
        switch item {
        case .object(let object): try archiver.encodeRootObject(object)
        case .value(let v, let type): try archiver.encodeValue(v, ofObjCType: type)
        }
        return try archiver.encodedBytes()
    }
}

/// The `Encoder` handed to `encode(to:)`; it records the one item its container produced.
final class RecordEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    let classChain: [ArchiveClassLink]
    var result: RecordItem?

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any], classChain: [ArchiveClassLink]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
        self.classChain = classChain
    }

    static func chain(for type: Any.Type) -> [ArchiveClassLink] {
        if let record = type as? TypedStreamRecord.Type {
            return [ArchiveClassLink(record.archiveClassName, version: record.archiveClassVersion), .nsObject]
        }
        return [ArchiveClassLink(String(describing: type)), .nsObject]
    }

    /// The item for one value: scalars and strings directly, everything else through its
    /// own `encode(to:)`.
    static func item<T: Encodable>(for value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) throws -> RecordItem {
        if let direct = directItem(value) { return direct }
        if let dictionary = value as? any EncodableDictionaryRecord {
            let record = RecordObject(chain: dictionaryChain, isArray: true)
            record.items = try dictionary.recordItems { try item(for: $0, codingPath: codingPath, userInfo: userInfo) }
            record.countsPairs = true
            return .object(record)
        }
        let encoder = RecordEncoder(codingPath: codingPath, userInfo: userInfo, classChain: chain(for: T.self))
        try value.encode(to: encoder)
        guard let result = encoder.result else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(T.self) encoded nothing"))
        }
        return result
    }

    static func directItem(_ value: Any) -> RecordItem? {
        switch value {
        case let s as String: return .object(StringObject(s))
        case let v as Int: return .value(Int64(v).archivedValue, type: Int64.objCType)
        case let v as UInt: return .value(UInt64(v).archivedValue, type: UInt64.objCType)
        case let v as any ObjCValueConvertible: return .value(v.archivedValue, type: type(of: v).objCType)
        default: return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let record = existingRecord(isArray: false) ?? RecordObject(chain: classChain, isArray: false)
        result = .object(record)
        return KeyedEncodingContainer(KeyedRecordContainer<Key>(encoder: self, record: record))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let record = existingRecord(isArray: true) ?? RecordObject(chain: ArrayObject.immutableChain, isArray: true)
        result = .object(record)
        return UnkeyedRecordContainer(encoder: self, record: record)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleRecordContainer(encoder: self)
    }

    private func existingRecord(isArray: Bool) -> RecordObject? {
        if case .object(let object as RecordObject)? = result, object.isArray == isArray { return object }
        return nil
    }

    func child<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> RecordItem {
        try Self.item(for: value, codingPath: codingPath + (key.map { [$0] } ?? []), userInfo: userInfo)
    }
}

struct KeyedRecordContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder
    let record: RecordObject
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { record.items.append(.object(nil)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        record.items.append(try encoder.child(value, key: key))
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = RecordEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo, classChain: [ArchiveClassLink("NSObject")])
        let container = nested.container(keyedBy: keyType)
        if let item = nested.result { record.items.append(item) }
        return container
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = RecordEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo, classChain: [])
        let container = nested.unkeyedContainer()
        if let item = nested.result { record.items.append(item) }
        return container
    }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

struct UnkeyedRecordContainer: UnkeyedEncodingContainer {
    let encoder: RecordEncoder
    let record: RecordObject
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { record.items.count }

    mutating func encodeNil() throws { record.items.append(.object(nil)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        record.items.append(try encoder.child(value, key: nil))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = RecordEncoder(codingPath: codingPath, userInfo: encoder.userInfo, classChain: [ArchiveClassLink("NSObject")])
        let container = nested.container(keyedBy: keyType)
        if let item = nested.result { record.items.append(item) }
        return container
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = RecordEncoder(codingPath: codingPath, userInfo: encoder.userInfo, classChain: [])
        let container = nested.unkeyedContainer()
        if let item = nested.result { record.items.append(item) }
        return container
    }
    mutating func superEncoder() -> any Encoder { encoder }
}

struct SingleRecordContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.result = .object(nil) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.result = try encoder.child(value, key: nil)
    }
}
