import TypedStream
import TypedStreamFoundation

/// Reads `Decodable` values from typedstream archives written as ordered records (see
/// ``TypedStreamEncoder`` for the mapping). Fields are read in the order `init(from:)` asks for
/// them; a field of the wrong type at that position fails with ``CoderError`` `typeMismatch`,
/// naming the byte offset, the type expected and the type found.
public struct TypedStreamDecoder {
    /// Options for the underlying ``Unarchiver``.
    public var options = Unarchiver.Options()
    /// Contextual information for `init(from:)` implementations.
    public var userInfo: [CodingUserInfoKey: Any] = [:]

    /// Creates a decoder.
    public init() {}

    /// Decodes a `T` from archive bytes. Throws ``CoderError`` or `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var registry = ClassRegistry()
        registry.register(StringObject.self, forClassNames: ["NSString", "NSMutableString"])
        let unarchiver = try Unarchiver(bytes: bytes, registry: registry, options: options)
        let group = try unarchiver.decodeGroup()
        guard group.valueCount == 1 else {
            throw CoderError(.typeMismatch, at: group.offset, "expected one top-level value, found the group '\(group.typeText)'")
        }
        let source = try RecordSource(group.value(at: 0), typeText: group.typeText, offset: group.offset, unarchiver: unarchiver, objects: [:])
        let value = try T(from: RecordDecoder(source: source, codingPath: [], userInfo: userInfo, unarchiver: unarchiver))
        if unarchiver.hasMoreGroups {
            throw CoderError(.trailingValues, "values left over after the root value")
        }
        return value
    }
}

/// One value to decode from: a group's value, with the decoded object where it is one.
struct RecordSource {
    let value: ArchivedValue
    let typeText: String
    let offset: Int?
    let object: AnyObject?

    init(_ value: ArchivedValue, typeText: String, offset: Int?, unarchiver: Unarchiver, objects: [ObjectIdentifier: AnyObject]) throws {
        self.value = value
        self.typeText = typeText
        self.offset = offset
        if case .object(let entry?, _) = value {
            object = try objects[ObjectIdentifier(entry)] ?? unarchiver.object(for: entry)
        } else {
            object = nil
        }
    }

    var isNil: Bool {
        if case .object(nil, _) = value { return true }
        return false
    }

    func mismatch(_ expected: String) -> CoderError {
        CoderError(.typeMismatch, at: offset, "expected type '\(expected)', found '\(typeText)'")
    }

    func record() throws -> GenericObject {
        guard let record = object as? GenericObject else { throw mismatch("@ (a record object)") }
        return record
    }

    func decodeDirect<T: Decodable>(_ type: T.Type) throws -> T? {
        if T.self == String.self {
            guard let string = object as? StringObject else { throw mismatch("@ (an NSString)") }
            return string.string as? T
        }
        if T.self == Int.self { return try Int(Self.checked(Int64.self, self)) as? T }
        if T.self == UInt.self { return try UInt(Self.checked(UInt64.self, self)) as? T }
        if let convertible = T.self as? any ObjCValueConvertible.Type {
            return try Self.checked(convertible, self) as? T
        }
        return nil
    }

    static func checked<V: ObjCValueConvertible>(_ type: V.Type, _ source: RecordSource) throws -> V {
        guard source.typeText == V.objCType else { throw source.mismatch(V.objCType) }
        do { return try V(archivedValue: source.value) } catch {
            throw CoderError(error.code, at: source.offset, error.reason)
        }
    }
}

final class RecordDecoder: Decoder {
    let source: RecordSource
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    let unarchiver: Unarchiver

    init(source: RecordSource, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any], unarchiver: Unarchiver) {
        self.source = source
        self.codingPath = codingPath
        self.userInfo = userInfo
        self.unarchiver = unarchiver
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedRecordReader<Key>(cursor: try GroupCursor(record: source.record(), decoder: self)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let cursor = try GroupCursor(record: source.record(), decoder: self)
        let countSource = try cursor.next()
        let count = try RecordSource.checked(Int32.self, countSource)
        guard count >= 0 else { throw CoderError(.badContents, at: countSource.offset, "array count \(count) is negative") }
        return UnkeyedRecordReader(cursor: cursor, count: Int(count))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleRecordReader(decoder: self)
    }

    func decode<T: Decodable>(_ type: T.Type, from source: RecordSource, key: (any CodingKey)?) throws -> T {
        if let direct = try source.decodeDirect(type) { return direct }
        if let dictionaryType = T.self as? any DecodableDictionaryRecord.Type {
            let cursor = try GroupCursor(record: source.record(), decoder: self)
            let countSource = try cursor.next()
            let count = try RecordSource.checked(Int32.self, countSource)
            guard count >= 0 else { throw CoderError(.badContents, at: countSource.offset, "dictionary count \(count) is negative") }
            if let result = try dictionaryType.decodeRecord(cursor, count: Int(count)) as? T { return result }
        }
        let child = RecordDecoder(source: source, codingPath: codingPath + (key.map { [$0] } ?? []), userInfo: userInfo, unarchiver: unarchiver)
        return try T(from: child)
    }
}

/// Walks the groups of a record object in order.
final class GroupCursor {
    let record: GenericObject
    let decoder: RecordDecoder
    var index = 0

    init(record: GenericObject, decoder: RecordDecoder) throws {
        self.record = record
        self.decoder = decoder
    }

    var isAtEnd: Bool { index >= record.groups.count }

    func peek() throws -> RecordSource? {
        guard index < record.groups.count else { return nil }
        let group = record.groups[index]
        guard group.valueCount == 1 else {
            throw CoderError(.typeMismatch, at: group.offset, "expected a single value, found the group '\(group.typeText)'")
        }
        return try RecordSource(group.value(at: 0), typeText: group.typeText, offset: group.offset, unarchiver: decoder.unarchiver, objects: record.objects)
    }

    func next() throws -> RecordSource {
        guard let source = try peek() else {
            throw CoderError(.noMoreValues, at: record.endOffset, "expected a value, found the end of \(record.archiveClassChain.first?.name ?? "the record")")
        }
        index += 1
        return source
    }

    func decodeNil() throws -> Bool {
        guard let source = try peek(), source.isNil else { return false }
        index += 1
        return true
    }
}

struct KeyedRecordReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: GroupCursor
    var codingPath: [any CodingKey] { cursor.decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { !cursor.isAtEnd }
    func decodeNil(forKey key: Key) throws -> Bool { try cursor.decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let source = try cursor.next()
        return try cursor.decoder.decode(type, from: source, key: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if try cursor.decodeNil() { return nil }
        return try decode(type, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let source = try cursor.next()
        return try RecordDecoder(source: source, codingPath: codingPath + [key], userInfo: cursor.decoder.userInfo, unarchiver: cursor.decoder.unarchiver).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let source = try cursor.next()
        return try RecordDecoder(source: source, codingPath: codingPath + [key], userInfo: cursor.decoder.userInfo, unarchiver: cursor.decoder.unarchiver).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { cursor.decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { cursor.decoder }
}

struct UnkeyedRecordReader: UnkeyedDecodingContainer {
    let cursor: GroupCursor
    let total: Int
    var currentIndex = 0

    init(cursor: GroupCursor, count: Int) {
        self.cursor = cursor
        self.total = count
    }

    var codingPath: [any CodingKey] { cursor.decoder.codingPath }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try cursor.decodeNil() else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw CoderError(.noMoreValues, "the array has only \(total) elements")
        }
        let source = try cursor.next()
        currentIndex += 1
        return try cursor.decoder.decode(type, from: source, key: nil)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let source = try cursor.next()
        currentIndex += 1
        return try RecordDecoder(source: source, codingPath: codingPath, userInfo: cursor.decoder.userInfo, unarchiver: cursor.decoder.unarchiver).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let source = try cursor.next()
        currentIndex += 1
        return try RecordDecoder(source: source, codingPath: codingPath, userInfo: cursor.decoder.userInfo, unarchiver: cursor.decoder.unarchiver).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { cursor.decoder }
}

struct SingleRecordReader: SingleValueDecodingContainer {
    let decoder: RecordDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.source.isNil }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decode(type, from: decoder.source, key: nil)
    }
}
