import TypedStream

/// Optional conformance for a `Codable` type that wants a particular class name and version
/// in the archive instead of its Swift type name and version 0.
///
/// ```swift
/// struct Model: Codable, TypedStreamRecord {
///     static let archiveClassName = "Model"
///     static let archiveClassVersion: Int64 = 2
///     var name: String?; var flag: UInt32
/// }
/// ```
public protocol TypedStreamRecord {
    /// The class name written for records of this type.
    static var archiveClassName: String { get }
    /// The class version written for records of this type.
    static var archiveClassVersion: Int64 { get }
}

extension TypedStreamRecord {
    /// Version 0 unless stated.
    public static var archiveClassVersion: Int64 { 0 }
}

/// What a container writes: one group — a plain value with its type string, or an object.
enum RecordItem {
    case value(ArchivedValue, type: String)
    case object(AnyObject?)
}

/// The object a keyed or unkeyed encoding container fills: a record of groups under a class
/// chain. Unkeyed containers are `NSArray` records: an `"i"` count, then one group per element.
final class RecordObject: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink]
    var items: [RecordItem] = []
    let isArray: Bool
    /// For dictionaries: the count written is the number of key/value pairs.
    var countsPairs = false

    init() {
        archiveClassChain = [.nsObject]
        isArray = false
    }

    init(chain: [ArchiveClassLink], isArray: Bool) {
        archiveClassChain = chain
        self.isArray = isArray
    }

    func decodeContents(with decoder: some ObjectDecoder) throws {
        throw CoderError(.badContents, "RecordObject is written by TypedStreamEncoder only")
    }

    func encodeContents(with encoder: some ObjectEncoder) throws {
        if isArray { try encoder.encode(Int32(countsPairs ? items.count / 2 : items.count)) }
        for item in items {
            switch item {
            case .value(let value, let type): try encoder.encodeValue(value, ofObjCType: type)
            case .object(let object): try encoder.encodeObject(object)
            }
        }
    }
}
