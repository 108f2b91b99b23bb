import TypedStreamExport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX file operations with `fsync`, used by the commit protocol. No Foundation: the
/// crash test runs commits in a forked child, where only simple system calls are safe.
enum DurableIO {
    /// The largest file read back (documents are far smaller).
    static let maximumFileSize = 1 << 30

    static func failure(_ call: String, _ path: String, _ code: Int32 = errno) -> ModelDocumentError {
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return ModelDocumentError(.io, path: path, "\(call) failed: \(message)")
    }

    /// Joins a folder and a name with one `/`.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` (and missing parents) as folders, with ``AtomicFile/createFolders(_:)``.
    static func makeDirectories(_ path: String) throws(ModelDocumentError) {
        do { try AtomicFile.createFolders(path) } catch {
            throw ModelDocumentError(.io, path: error.path, "mkdir failed: \(error.reason)")
        }
    }

    /// Reads a whole file.
    static func read(_ path: String) throws(ModelDocumentError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat", path) }
        guard info.st_size >= 0, info.st_size <= maximumFileSize else {
            throw ModelDocumentError(.io, path: path, "file of \(info.st_size) bytes is larger than \(maximumFileSize)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw failure("read", path) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= maximumFileSize else { throw ModelDocumentError(.io, path: path, "file grew beyond \(maximumFileSize) bytes") }
        }
        return bytes
    }

    /// Reads a file, or `nil` if it does not exist.
    static func readIfPresent(_ path: String) throws(ModelDocumentError) -> [UInt8]? {
        exists(path) ? try read(path) : nil
    }

    /// Writes `bytes` to `path` (created or truncated) and `fsync`s it.
    static func writeSynced(_ path: String, _ bytes: [UInt8]) throws(ModelDocumentError) {
        do { try AtomicFile.writeSynced(bytes, to: path) } catch {
            throw ModelDocumentError(.io, path: path, error.reason)
        }
    }

    /// `rename(2)`: atomically replaces `to` with `from`.
    static func rename(_ from: String, _ to: String) throws(ModelDocumentError) {
        if Glibc.rename(from, to) != 0 { throw failure("rename to \(to)", from) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(ModelDocumentError) {
        if unlink(path) != 0, errno != ENOENT { throw failure("unlink", path) }
    }

    /// `fsync`s a folder, making renames and removals in it durable.
    static func syncDirectory(_ path: String) throws(ModelDocumentError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL { throw failure("fsync", path) }
    }

    /// The names in a folder (without `.` and `..`), sorted; empty if the folder does not exist.
    static func list(_ path: String) throws(ModelDocumentError) -> [String] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw failure("opendir", path)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// An exclusive advisory lock (`flock`) on the folder `path` itself (no lock file is made),
    /// held until ``unlock(_:)`` or process exit.
    static func lock(_ path: String) throws(ModelDocumentError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw failure("flock", path, code)
        }
        return fd
    }

    /// Releases a lock taken by ``lock(_:)``.
    static func unlock(_ fd: Int32) {
        close(fd)
    }
}
