import Foundation

/// Lists the files under a folder in a stable order (sorted by name at every level), for
/// subcommands that take `--recursive`.
///
/// Hidden entries (names starting with `.`) are left out silently. Symbolic links to files are
/// followed; links to folders are not (so a link loop cannot trap the walk) and are reported as
/// skipped, as are sockets, devices, folders that cannot be listed and names that are not UTF-8.
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

    /// The size of the file at `path` (following a symbolic link), if it can be found out.
    static func size(of path: String) -> Int? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// A file's identity on this machine: its device and inode numbers (the same for every
    /// path, link or spelling that leads to it).
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64

        /// The identity of what `path` names (following a symbolic link), if it exists.
        init?(path: String) {
            var info = stat()
            guard path != "-", stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Every file under `root`, depth first, sorted by name at each level. Folders whose
    /// identity is in `excluded` (a batch's output folder) are left out silently.
    static func walk(_ root: String, excluding excluded: Set<FileIdentity> = []) -> Listing {
        var listing = Listing()
        walk(root, excluding: excluded, into: &listing)
        return listing
    }

    /// What a folder entry is, as `lstat` says (without following a symbolic link).
    private enum EntryKind {
        case folder(FileIdentity)
        case file(size: Int)
        case symbolicLink
        case other
        /// `lstat` failed with this reason.
        case unknown(String)
    }

    // The walk calls the C library directly (`opendir`, `readdir`, `lstat`) rather than
    // `FileManager.attributesOfItem`, which builds a dictionary of every attribute (owner
    // names included) per file: a tenth of `verify -r` over a folder of message bodies.
    private static func walk(_ folder: String, excluding excluded: Set<FileIdentity>, into listing: inout Listing) {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard let names = entryNames(of: folder, prefix: prefix, into: &listing) else { return }
        for name in names {
            let path = prefix + name
            switch kind(of: path) {
            case .folder(let identity):
                if !excluded.contains(identity) { walk(path, excluding: excluded, into: &listing) }
            case .file(let size):
                listing.files.append((path, size))
            case .symbolicLink:
                // One `stat` (which follows the link) says where it leads.
                var target = stat()
                if stat(path, &target) != 0 {
                    listing.skipped.append((path, "broken symbolic link"))
                } else if target.st_mode & S_IFMT == S_IFDIR {
                    listing.skipped.append((path, "symbolic link to a folder, not followed"))
                } else {
                    listing.files.append((path, Int(target.st_size)))
                }
            case .other:
                listing.skipped.append((path, "not a regular file"))
            case .unknown(let reason):
                listing.skipped.append((path, "cannot examine: \(reason)"))
            }
        }
    }

    /// The names in `folder` (whose entries' paths start with `prefix`), sorted, hidden ones left
    /// out and ones that are not UTF-8 reported as skipped; `nil` (and the folder skipped) when
    /// it cannot be listed.
    private static func entryNames(of folder: String, prefix: String, into listing: inout Listing) -> [String]? {
        guard let stream = opendir(folder) else {
            listing.skipped.append((folder, "cannot list the folder: \(String(cString: strerror(errno)))"))
            return nil
        }
        defer { closedir(stream) }
        var names: [String] = []
        var notUTF8: [String] = []
        while let entry = readdir(stream) {
            let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix { $0 != 0 }
                let decoded = String(decoding: bytes, as: UTF8.self)
                // Decoding replaces what is not UTF-8, so a name that is comes back unchanged.
                return (decoded, decoded.utf8.elementsEqual(bytes))
            }
            guard !name.hasPrefix(".") else { continue }  // also "." and ".."
            if isUTF8 { names.append(name) } else { notUTF8.append(name) }
        }
        // A Swift string cannot hold such a name's bytes, so the file could not be opened by
        // it: say so (the name shown has U+FFFD where its bytes are not UTF-8).
        for name in notUTF8.sorted() {
            listing.skipped.append((prefix + name, "the file name is not UTF-8, which this tool cannot open"))
        }
        return names.sorted()
    }

    /// What `path` is, without following a symbolic link.
    private static func kind(of path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .unknown(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder(FileIdentity(info))
        case S_IFREG: return .file(size: Int(info.st_size))
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }
}
