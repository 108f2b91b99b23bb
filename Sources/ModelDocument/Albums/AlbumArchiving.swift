import TypedStreamExport
import Foundation

/// The `NSKeyedArchiver` plumbing of ``Album`` (keyed Model documents are written by our own
/// keyed exporter, see ``KeyedModelDocument``): class names
/// registered both ways, errors as ``ModelDocumentError`` `keyedArchive`. Writing only: archives
/// are read by ``KeyedArchiveReader``, which keeps untrusted bytes away from Foundation.
///
/// Two things about swift-corelibs-foundation's keyed archiver, found while building this:
/// * `NSKeyedArchiver.setClassName(_:for:)` has no effect: it files the name under
///   `String(describing: type(of: cls))` ("Album.Type") but looks it up under
///   `String(reflecting: cls)` ("ModelDocument.Album"), so Swift classes are written
///   module-qualified. We archive with the stock `NSKeyedArchiver` (so `$archiver` stays
///   `"NSKeyedArchiver"`) and then rename the class entries in `$objects` through a
///   `PropertyListSerialization` round trip, which keeps the `CF$UID` references.
///   `NSKeyedUnarchiver.setClass(_:forClassName:)` does work for reading.
/// * Under secure coding, `decodeObject(of:forKey:)` for an absent key fails the whole decode
///   ("No value found for key"), so optional keys are checked with `containsValue(forKey:)` first.
enum AlbumArchiving {
    /// Swift class → name written (`"ModelDocument.Album"` → `"Album"`).
    static var archivedNames: [String: String] {
        [NSStringFromClass(Album.self): Album.className]
    }

    /// Registers the archived class names of our keyed classes (idempotent).
    static func registerClassNames() {
        NSKeyedArchiver.setClassName(Album.className, for: Album.self)
        NSKeyedUnarchiver.setClass(Album.self, forClassName: Album.className)
    }

    /// A binary keyed archive of `root` (secure coding required).
    static func archive(_ root: NSObject, path: String?) throws(ModelDocumentError) -> [UInt8] {
        registerClassNames()
        let data: Data
        do {
            data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        } catch {
            throw ModelDocumentError(.keyedArchive, path: path, "NSKeyedArchiver failed: \(error.localizedDescription)")
        }
        return try renameClasses(data, path: path)
    }

    /// Rewrites `$classname`/`$classes` of our classes to their archived names.
    static func renameClasses(_ data: Data, path: String?) throws(ModelDocumentError) -> [UInt8] {
        let names = archivedNames
        do {
            guard var plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
                  var objects = plist["$objects"] as? [Any] else {
                throw ModelDocumentError(.keyedArchive, path: path, "NSKeyedArchiver wrote no $objects")
            }
            var renamed = false
            for index in objects.indices {
                guard var entry = objects[index] as? [String: Any], let name = entry["$classname"] as? String,
                      let archived = names[name] else { continue }
                entry["$classname"] = archived
                if let chain = entry["$classes"] as? [String] { entry["$classes"] = chain.map { names[$0] ?? $0 } }
                objects[index] = entry
                renamed = true
            }
            guard renamed else { return Array(data) }
            plist["$objects"] = objects
            return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        } catch let error as ModelDocumentError {
            throw error
        } catch {
            throw ModelDocumentError(.keyedArchive, path: path, "cannot rename the archived classes: \(error.localizedDescription)")
        }
    }
}
