import Foundation

/// The `NSKeyedArchiver` plumbing shared by albums and keyed Model documents: class names
/// registered both ways, secure decoding, errors as ``ModelDocumentError`` `keyedArchive`.
enum KeyedArchiving {
    /// Registers the archived class names of our keyed classes (idempotent).
    static func registerClassNames() {
        NSKeyedArchiver.setClassName(Album.className, for: Album.self)
        NSKeyedUnarchiver.setClass(Album.self, forClassName: Album.className)
        NSKeyedArchiver.setClassName(KeyedModel.className, for: KeyedModel.self)
        NSKeyedUnarchiver.setClass(KeyedModel.self, forClassName: KeyedModel.className)
        NSKeyedArchiver.setClassName(KeyedModelDocument.className, for: KeyedModelDocument.self)
        NSKeyedUnarchiver.setClass(KeyedModelDocument.self, forClassName: KeyedModelDocument.className)
    }

    /// A binary keyed archive of `root` (secure coding required).
    static func archive(_ root: NSObject, path: String?) throws(ModelDocumentError) -> [UInt8] {
        registerClassNames()
        do {
            return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
        } catch {
            throw ModelDocumentError(.keyedArchive, path: path, "NSKeyedArchiver failed: \(error.localizedDescription)")
        }
    }

    /// The root object of a keyed archive, decoded securely as one of `classes`.
    static func unarchive(_ bytes: [UInt8], classes: [AnyClass], path: String?) throws(ModelDocumentError) -> Any {
        registerClassNames()
        let root: Any?
        do {
            root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: Data(bytes))
        } catch {
            throw ModelDocumentError(.keyedArchive, path: path, "not a keyed archive of the expected classes: \(error.localizedDescription)")
        }
        guard let root else { throw ModelDocumentError(.keyedArchive, path: path, "the keyed archive has no root object") }
        return root
    }

    /// Writes `bytes` to `path` atomically (temporary file, `fsync`, `rename`, `fsync` the folder).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ModelDocumentError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try DurableIO.writeSynced(path + DocumentFiles.temporarySuffix, bytes)
        try DurableIO.rename(path + DocumentFiles.temporarySuffix, path)
        try DurableIO.syncDirectory(folder.isEmpty ? "/" : folder)
    }
}
