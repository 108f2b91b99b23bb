#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe file writing: the new content goes to a temporary file in the same folder, is
/// flushed to disk, and replaces the destination with one atomic `rename`; then the folder is
/// flushed so the rename itself survives a power cut. At every moment the destination holds
/// either its complete old content or the complete new content.
///
/// - A symbolic link is followed: its target is replaced (beside the target) and the link kept.
/// - A destination that exists and is not a regular file or a folder (`/dev/null`,
///   `/dev/stdout` on a terminal or pipe, a FIFO) is written directly, with no temporary file —
///   there is nothing to replace atomically. A folder is refused.
/// - Writers of many files may leave the flushing to one `sync()` at the end
///   (``write(_:to:flushing:)``).
/// - The temporary file is `.NAME.tmp-XXXXXX` beside the destination. It is removed on every
///   failure, and by ``removeTemporaryFilesOnSignals()`` when the process is interrupted;
///   one left by a killed run (older than this process's first write) is removed by the next
///   write of the same destination.
public enum AtomicFile {
    /// A failed write: what was being done, the path and the system's reason.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        /// The file being written.
        public var path: String
        /// What went wrong.
        public var reason: String
        /// "cannot write 'PATH': reason".
        public var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// Writes `bytes` to `path` atomically (mode 0644 unless the file exists, then its mode is
    /// kept). Throws ``WriteError``; on failure the destination is untouched and the temporary
    /// file removed.
    ///
    /// With `flushing` false the file and its folder are not flushed to disk: the replacement
    /// is still atomic (readers see the old content or the new, whole), but a power cut soon
    /// after may lose it. For writers of many files that flush them all at once afterwards
    /// (`sync()`), where a flush per file would cost more than the writing.
    public static func write(_ bytes: some Collection<UInt8>, to path: String, flushing: Bool = true) throws(WriteError) {
        do {
            try replace(path, flushing: flushing) { descriptor in try writeAll(Array(bytes), descriptor: descriptor, path: path) }
        } catch let error as WriteError {
            throw error
        } catch {
            throw WriteError(path: path, reason: "\(error)")
        }
    }

    /// Writes what `body` writes to `out` to `path` atomically, as ``write(_:to:)`` does, without
    /// holding it all: it goes to the temporary file through an ``OutputWriter`` as `body`
    /// writes it. Throws ``WriteError`` when writing fails, or what `body` throws (the
    /// destination is then untouched and the temporary file removed).
    public static func write(to path: String, _ body: (inout OutputWriter) throws -> Void) throws {
        try replace(path) { descriptor in
            var out = OutputWriter(sink: FileDescriptorOutput(descriptor: descriptor, name: "'\(path)'"))
            try body(&out)
            out.flush()
            if let error = out.error { throw WriteError(path: path, reason: error.reason) }
        }
    }

    /// The one way a file is replaced: a temporary file beside the destination (mode kept from
    /// it, else 0644) that `fill` writes, flushed, renamed over the destination, then the
    /// folder flushed. On any failure the temporary file is removed and the destination is
    /// untouched. A destination that is neither a regular file nor missing is written directly
    /// (not flushed) or, if a folder, refused.
    private static func replace(_ path: String, flushing: Bool = true, fill: (Int32) throws -> Void) throws {
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, (status.st_mode & S_IFMT) == S_IFDIR { throw WriteError(path: path, reason: "it is a folder") }
        if exists, (status.st_mode & S_IFMT) != S_IFREG { return try writeDirectly(path, fill: fill) }
        let target = exists ? resolvingLinks(path) : path
        let folder = Self.folder(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        TemporaryFiles.removeStale(of: name, in: folder)
        // The name is registered before the file is made, so a signal never finds a file it
        // does not know.
        var temporary = "", descriptor: Int32 = -1, slot: Int?
        for _ in 0..<100 {
            temporary = "\(folder)/.\(name).tmp-\(TemporaryFiles.randomSuffix())"
            slot = TemporaryFiles.register(temporary)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 { break }
            let code = errno
            TemporaryFiles.unregister(slot)
            errno = code
            if code != EEXIST { break }
        }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
            TemporaryFiles.unregister(slot)
        }
        fchmod(descriptor, exists ? status.st_mode & 0o7777 : 0o644)
        do {
            try fill(descriptor)
            guard !flushing || fsync(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        guard rename(temporary, target) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        succeeded = true
        if flushing { syncFolder(folder) }
    }

    /// Writes to an existing destination that is not a regular file (a device, a FIFO) in
    /// place: there is no file to replace.
    private static func writeDirectly(_ path: String, fill: (Int32) throws -> Void) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        do {
            try fill(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
    }

    /// `path` with its symbolic links resolved when it is one (`realpath`), else `path`.
    private static func resolvingLinks(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes `bytes` to `path` (created or truncated, mode 0644) and flushes it to disk — the
    /// first half of an atomic write, for callers that rename later themselves (a commit that
    /// must rename several files at its own moment). Throws ``WriteError``.
    public static func writeSynced(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        do throws(WriteError) {
            try writeAll(bytes, descriptor: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
    }

    /// Writes every byte to `descriptor` (retrying interrupted writes).
    /// Takes an array (no generic conversion, so no allocation: safe in a forked child).
    private static func writeAll(_ contiguous: [UInt8], descriptor: Int32, path: String) throws(WriteError) {
        var written = 0
        while written < contiguous.count {
            let result = contiguous.withUnsafeBytes { buffer in
                posixWrite(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: path, reason: errnoText())
            }
            written += result
        }
    }

    /// Creates the folder `path` and any missing folders above it (mode 0777 less the umask),
    /// as `mkdir -p` does. Throws ``WriteError`` naming the first part of the path that could not
    /// be made: the system's reason ("Permission denied"), or, where a file stands in the way,
    /// a hint to choose another folder.
    public static func createFolders(_ path: String) throws(WriteError) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        // Each prefix that ends before a `/`, then the whole path, shortest first.
        let bytes = Array(path.utf8)
        var ends = bytes.indices.filter { $0 > 0 && bytes[$0] == UInt8(ascii: "/") && bytes[$0 - 1] != UInt8(ascii: "/") }
        ends.append(bytes.count)
        for end in ends {
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            // An existing folder can give EROFS or EACCES rather than EEXIST.
            if stat(prefix, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { continue }
            if code == EEXIST || code == ENOTDIR {
                throw WriteError(path: prefix, reason: "a file of that name is in the way; choose another output folder")
            }
            throw WriteError(path: prefix, reason: String(cString: strerror(code)))
        }
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WriteError(path: path, reason: "it exists and is not a folder")
        }
    }

    /// Flushes a folder's entries (after a rename) to disk. Best effort.
    public static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The folder part of `path` ("." when there is none).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Removes the temporary files of writes in progress when the process gets `SIGINT`,
    /// `SIGTERM` or `SIGHUP`, then ends it by that signal as before. For programs (the
    /// command-line tool calls it once at start); a signal the process ignores stays ignored.
    public static func removeTemporaryFilesOnSignals() {
        TemporaryFiles.installSignalHandlers()
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
