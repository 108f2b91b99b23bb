import Foundation

/// ``KeyedValues`` over a Foundation `NSCoder` (secure decoding): how ``Album/init(coder:)``
/// reads its keys when Foundation's `NSKeyedUnarchiver` decodes an album.
struct CoderValues: KeyedValues {
    let coder: NSCoder

    func contains(_ key: String) -> Bool { coder.containsValue(forKey: key) }

    func string(_ key: String) throws(ModelDocumentError) -> String? {
        guard contains(key) else { return nil }
        guard let text = coder.decodeObject(of: NSString.self, forKey: key) else { throw invalid(key, "is not a string") }
        return text as String
    }

    func integer(_ key: String) throws(ModelDocumentError) -> Int? {
        contains(key) ? coder.decodeInteger(forKey: key) : nil
    }

    func data(_ key: String) throws(ModelDocumentError) -> [UInt8]? {
        guard contains(key) else { return nil }
        guard let data = coder.decodeObject(of: NSData.self, forKey: key) else { throw invalid(key, "is not data") }
        return Array(data as Data)
    }

    func invalid(_ key: String, _ reason: String) -> ModelDocumentError {
        ModelDocumentError(.keyedArchive, "\(key) \(reason)")
    }
}
