import TypedStream
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that could not be read, with the system's reason.
public struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given (`-` for standard input).
    public var path: String
    /// The reason ("No such file or directory").
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The reason given for an input of more than `limit` bytes.
    static func tooLarge(_ path: String, limit: Int) -> FileReadError {
        FileReadError(path: path, reason: "input larger than \(limit) bytes")
    }

    /// "cannot read 'x': reason".
    public var description: String { "cannot read '\(CommandContext.displayName(path))': \(reason)" }
}

/// The one way the tool reads its inputs: POSIX calls (so errors carry `strerror` text), and
/// never more than a limit. A regular file larger than the limit is refused by its size before
/// a byte is read; a pipe or device is read up to the limit and one byte more, and refused then.
/// A file may also be read only as far as its first bytes (``readHead(atPath:count:)``).
enum FileReading {
    /// The largest input read: the decoder's own limit (2 GiB).
    static let defaultLimit = DecodingLimits().maximumInputSize

    /// Reads the file at `path`, at most `limit` bytes. Throws ``FileReadError`` (missing,
    /// unreadable, a folder, larger than `limit`).
    static func readFile(atPath path: String, limit: Int = defaultLimit) throws(FileReadError) -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        return try readAll(descriptor: descriptor, path: path, limit: limit)
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter), and whether
    /// they are the whole file. Throws ``FileReadError``.
    static func readHead(atPath path: String, count: Int) throws(FileReadError) -> (bytes: [UInt8], isWhole: Bool) {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        let ended = try readMore(descriptor: descriptor, path: path, into: &bytes, upTo: count + 1)
        if bytes.count > count { bytes.removeLast(bytes.count - count) }
        return (bytes, ended && bytes.count <= count)
    }

    /// Opens the file at `path` and gives `body` a function that appends its next piece (at
    /// most `chunkSize` bytes) to a buffer and returns whether the file has ended: for inputs
    /// read front to back and never held whole. Throws ``FileReadError`` or what `body` throws.
    static func withChunks<T>(atPath path: String, chunkSize: Int = 1 << 20,
                              _ body: (_ read: (inout [UInt8]) throws -> Bool) throws -> T) throws -> T {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        return try body { bytes throws -> Bool in
            try readSome(descriptor: descriptor, path: path, into: &bytes, maximum: chunkSize)
        }
    }

    /// Reads a descriptor to its end, at most `limit` bytes. Throws ``FileReadError``.
    static func readAll(descriptor: Int32, path: String, limit: Int = defaultLimit) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        try readRest(descriptor: descriptor, path: path, limit: limit, into: &bytes)
        return bytes
    }

    /// Appends the rest of `descriptor` to `bytes` (which holds what was read from it before),
    /// refusing more than `limit` bytes in all: a regular file by its size before reading, a
    /// pipe or device once `limit` bytes have been read and one more is there. Throws
    /// ``FileReadError``.
    static func readRest(descriptor: Int32, path: String, limit: Int, into bytes: inout [UInt8]) throws(FileReadError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileReadError(path: path, reason: lastErrorText()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileReadError(path: path, reason: "it is a folder") }
        if (info.st_mode & S_IFMT) == S_IFREG {
            // What is left from the current position (standard input may be a file half read).
            let position = lseek(descriptor, 0, SEEK_CUR)
            let left = Int64(info.st_size) - max(0, Int64(position))
            guard left <= Int64(limit - bytes.count) else { throw .tooLarge(path, limit: limit) }
            bytes.reserveCapacity(bytes.count + Int(max(0, left)))
        }
        guard try readMore(descriptor: descriptor, path: path, into: &bytes, upTo: limit + 1), bytes.count <= limit else {
            throw .tooLarge(path, limit: limit)
        }
    }

    /// Opens `path` for reading. Throws ``FileReadError``.
    private static func openForReading(_ path: String) throws(FileReadError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: lastErrorText()) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw FileReadError(path: path, reason: "it is a folder")
        }
        return descriptor
    }

    /// Appends what `descriptor` gives to `bytes` until it ends or `bytes` holds `maximum`
    /// bytes; returns whether it ended. Never appends past `maximum`. Throws ``FileReadError``.
    static func readMore(descriptor: Int32, path: String, into bytes: inout [UInt8], upTo maximum: Int) throws(FileReadError) -> Bool {
        // Read into uninitialized memory of about the space wanted (4–64 KiB): a zero-filled
        // 64 KiB buffer per file was most of the cost of reading a small one.
        let reserved = bytes.capacity - bytes.count
        let chunkSize = min(max(min(reserved, maximum - bytes.count), 4096), 1 << 16)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count < maximum {
            let wanted = min(chunk.count, maximum - bytes.count)
            let count = posixRead(descriptor, chunk.baseAddress, wanted)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: lastErrorText())
            }
            if count == 0 { return true }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return false
    }

    /// Appends what one `read` of at most `maximum` bytes gives (retried on `EINTR`) to
    /// `bytes`; returns whether the descriptor has ended. Throws ``FileReadError``.
    static func readSome(descriptor: Int32, path: String, into bytes: inout [UInt8], maximum: Int) throws(FileReadError) -> Bool {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, maximum), alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = posixRead(descriptor, chunk.baseAddress, max(1, maximum))
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: lastErrorText())
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            return count == 0
        }
    }

    /// `strerror(errno)`.
    static func lastErrorText() -> String { String(cString: strerror(errno)) }

    private static func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }
}
