#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating the folders a batch writes into, with POSIX calls so that a failure is one line
/// with the system's reason (`cannot create folder 'out/a': Not a directory`).
enum OutputFolder {
    /// A folder that could not be made.
    struct CreateError: Error, CustomStringConvertible {
        /// The folder that could not be made (the first part of the path that failed).
        var path: String
        /// The system's reason, with a hint when one helps.
        var reason: String

        /// "cannot create folder 'PATH': reason".
        var description: String { "cannot create folder '\(path)': \(reason)" }
    }

    /// Makes `path` and the folders above it that are missing (as `mkdir -p` does). Throws
    /// ``CreateError`` when a part of the path exists and is not a folder, or the system
    /// refuses.
    static func create(_ path: String) throws(CreateError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            defer { prefix += "/" }
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            var info = stat()
            if code == EEXIST || code == EISDIR || code == EROFS || code == EACCES,
               stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                continue
            }
            if code == EEXIST || code == ENOTDIR {
                throw CreateError(path: prefix, reason: "a file of that name is in the way; choose another output folder")
            }
            throw CreateError(path: prefix, reason: String(cString: strerror(code)))
        }
    }
}
