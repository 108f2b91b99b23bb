import Foundation

/// Lists the files under a folder in a stable order (sorted by name at every level), for
/// subcommands that take `--recursive`.
///
/// Hidden entries (names starting with `.`) are left out silently. Symbolic links to files are
/// followed; links to folders are not (so a link loop cannot trap the walk) and are reported as
/// skipped, as are sockets, devices and folders that cannot be listed.
enum FileWalker {
    /// The outcome of a walk.
    struct Listing {
        /// Regular files, in walk order, with their sizes when known.
        var files: [(path: String, size: Int?)] = []
        /// Entries left out, with the reason.
        var skipped: [(path: String, reason: String)] = []
    }

    /// Whether `path` names a folder (following a symbolic link).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The size of the file at `path`, if it can be found out.
    static func size(of path: String) -> Int? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    /// Every file under `root`, depth first, sorted by name at each level.
    static func walk(_ root: String) -> Listing {
        var listing = Listing()
        walk(root, into: &listing)
        return listing
    }

    private static func walk(_ folder: String, into listing: inout Listing) {
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            listing.skipped.append((folder, "cannot list the folder: \(error.localizedDescription)"))
            return
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names where !name.hasPrefix(".") {
            let path = prefix + name
            let attributes = try? manager.attributesOfItem(atPath: path)
            let type = attributes?[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?:
                walk(path, into: &listing)
            case .typeRegular?:
                listing.files.append((path, (attributes?[.size] as? NSNumber)?.intValue))
            case .typeSymbolicLink?:
                if isDirectory(path) {
                    listing.skipped.append((path, "symbolic link to a folder, not followed"))
                } else if manager.fileExists(atPath: path) {
                    listing.files.append((path, size(of: path)))
                } else {
                    listing.skipped.append((path, "broken symbolic link"))
                }
            default:
                listing.skipped.append((path, "not a regular file"))
            }
        }
    }
}
