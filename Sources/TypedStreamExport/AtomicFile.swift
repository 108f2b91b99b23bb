#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe file writing: the new content goes to a temporary file in the same folder, is
/// flushed to disk, and replaces the destination with one atomic `rename`; then the folder is
/// flushed so the rename itself survives a power cut. At every moment the destination holds
/// either its complete old content or the complete new content.
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
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(WriteError) {
        do {
            try replace(path) { descriptor in try writeAll(Array(bytes), descriptor: descriptor, path: path) }
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
            guard fsync(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        }
    }

    /// The one way a file is replaced: a temporary file beside `path` (mode kept from `path`,
    /// else 0644) that `fill` writes and flushes, renamed over `path`, then the folder flushed.
    /// On any failure the temporary file is removed and `path` is untouched.
    private static func replace(_ path: String, fill: (Int32) throws -> Void) throws {
        let folder = Self.folder(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        var status = stat()
        let mode: mode_t = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        fchmod(descriptor, mode)
        do {
            try fill(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw WriteError(path: path, reason: errnoText()) }
        succeeded = true
        syncFolder(folder)
    }

    /// Writes `bytes` to `path` (created or truncated, mode 0644) and flushes it to disk — the
    /// first half of an atomic write, for callers that rename later themselves (a commit that
    /// must rename several files at its own moment). Throws ``WriteError``.
    public static func writeSynced(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        do {
            try writeAll(bytes, descriptor: descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
    }

    /// Writes every byte to `descriptor` (retrying interrupted writes), then `fsync`s it.
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
        guard fsync(descriptor) == 0 else { throw WriteError(path: path, reason: errnoText()) }
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

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
