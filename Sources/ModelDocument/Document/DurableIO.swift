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

    /// A failed system call as one line: "cannot `action` 'path': reason" (`strerror` of `code`).
    static func failure(_ action: String, _ path: String, _ code: Int32 = errno) -> ModelDocumentError {
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return ModelDocumentError.fileOperation(action, path: path, message)
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
            throw ModelDocumentError.fileOperation("create the folder", path: error.path, error.reason)
        }
    }

    /// Reads a whole file.
    static func read(_ path: String) throws(ModelDocumentError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("read", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("read", path) }
        guard info.st_size >= 0, info.st_size <= maximumFileSize else {
            throw ModelDocumentError.fileOperation("read", path: path, "the file has \(info.st_size) bytes, more than \(maximumFileSize)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw failure("read", path) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= maximumFileSize else { throw ModelDocumentError.fileOperation("read", path: path, "the file grew beyond \(maximumFileSize) bytes") }
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
            throw ModelDocumentError.fileOperation("write", path: path, error.reason)
        }
    }

    /// Writes `bytes` to `path` atomically with ``AtomicFile/write(_:to:)`` (temporary file,
    /// `fsync`, `rename`, `fsync` the folder): the old file or the new one, never a mixture.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ModelDocumentError) {
        do { try AtomicFile.write(bytes, to: path) } catch {
            throw ModelDocumentError.fileOperation("write", path: path, error.reason)
        }
    }

    /// `rename(2)`: atomically replaces `to` with `from` (a failure names `to`, the file being
    /// written). When both already name the same file, `from` is removed.
    static func rename(_ from: String, _ to: String) throws(ModelDocumentError) {
        if posixRename(from, to) != 0 { throw failure("write", to) }
        // rename(2) does nothing when `from` and `to` are links to one file.
        if exists(from) { try remove(from) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(ModelDocumentError) {
        if unlink(path) != 0, errno != ENOENT { throw failure("remove", path) }
    }

    /// Removes the folder `path` if it is empty; otherwise, or on any failure, does nothing.
    static func removeEmptyFolder(_ path: String) {
        _ = rmdir(path)
    }

    /// The size of the regular file at `path`, or `nil` when there is none (no file is read).
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Whether this process may read `path` (`access(2)`).
    static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Makes `to` a new name (hard link) of the file `from`, replacing nothing; `false` when the
    /// file system refuses (no hard links, another device, too many links, `to` exists).
    static func link(_ from: String, _ to: String) -> Bool {
        posixLink(from, to) == 0
    }

    /// `fsync`s a folder, making renames and removals in it durable.
    static func syncDirectory(_ path: String) throws(ModelDocumentError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("flush the folder", path) }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL { throw failure("flush the folder", path) }
    }

    /// The names in a folder (without `.` and `..`), sorted; empty if the folder does not exist.
    static func list(_ path: String) throws(ModelDocumentError) -> [String] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw failure("list the folder", path)
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
        guard fd >= 0 else { throw failure("lock", path) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw failure("lock", path, code)
        }
        return fd
    }

    /// Releases a lock taken by ``lock(_:)``.
    static func unlock(_ fd: Int32) {
        close(fd)
    }
}

// The system calls whose names DurableIO's own methods shadow, for each C library.
#if canImport(Glibc)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
private func posixLink(_ from: String, _ to: String) -> Int32 { Glibc.link(from, to) }
#elseif canImport(Musl)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Musl.read(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { Musl.rename(from, to) }
private func posixLink(_ from: String, _ to: String) -> Int32 { Musl.link(from, to) }
#elseif canImport(Darwin)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { Darwin.rename(from, to) }
private func posixLink(_ from: String, _ to: String) -> Int32 { Darwin.link(from, to) }
#endif
