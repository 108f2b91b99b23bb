import TypedStream
import TypedStreamFoundation

/// Swift encodes a dictionary with `String` or `Int` keys through a *keyed* container, whose keys
/// a sequential archive cannot hold. So dictionaries are written as `NSDictionary` records
/// instead: an `"i"` count, then a key group and a value group per entry, keys sorted by their
/// text so the bytes do not depend on hashing.
protocol EncodableDictionaryRecord {
    func recordItems(_ encoder: (any Encodable) throws -> RecordItem) throws -> [RecordItem]
}

extension Dictionary: EncodableDictionaryRecord where Key: Encodable, Value: Encodable {
    func recordItems(_ encoder: (any Encodable) throws -> RecordItem) throws -> [RecordItem] {
        var items: [RecordItem] = []
        for (key, value) in sorted(by: { "\($0.key)" < "\($1.key)" }) {
            items.append(try encoder(key))
            items.append(try encoder(value))
        }
        return items
    }
}

protocol DecodableDictionaryRecord {
    static func decodeRecord(_ cursor: GroupCursor, count: Int) throws -> Self
}

extension Dictionary: DecodableDictionaryRecord where Key: Decodable, Value: Decodable {
    static func decodeRecord(_ cursor: GroupCursor, count: Int) throws -> Self {
        var result: [Key: Value] = [:]
        for _ in 0..<count {
            let keySource = try cursor.next()
            let key = try cursor.decoder.decode(Key.self, from: keySource, key: nil)
            let value = try cursor.decoder.decode(Value.self, from: try cursor.next(), key: nil)
            guard result.updateValue(value, forKey: key) == nil else {
                throw CoderError(.badContents, at: keySource.offset, "duplicate dictionary key \(key)")
            }
        }
        return result
    }
}

/// `NSDictionary` v0 : `NSObject` v0.
let dictionaryChain = [ArchiveClassLink("NSDictionary", version: 0), .nsObject]
