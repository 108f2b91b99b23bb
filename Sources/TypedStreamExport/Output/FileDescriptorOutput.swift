#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An ``OutputSink`` over a file descriptor: `write(2)` in a loop until every byte is out,
/// retrying interrupted calls (`EINTR`) and continuing after short writes. Any other failure
/// (`ENOSPC`, `EFBIG`, `EPIPE`, `EBADF`, `EIO` …) is thrown as an ``OutputError`` naming the
/// destination.
///
/// It does not buffer (an ``OutputWriter`` does) and does not decide what a failure means for the
/// program: a command-line tool ends quietly on ``OutputError/isBrokenPipe`` and reports the
/// rest. A file-size limit (`ulimit -f`) only shows up as `EFBIG` when `SIGXFSZ` is ignored;
/// otherwise the signal ends the process.
public final class FileDescriptorOutput: OutputSink, @unchecked Sendable {
    /// The descriptor written to (not closed by this object).
    public let descriptor: Int32
    /// How errors name the destination: "standard output", or a path.
    public let name: String
    private let lock = Lock()

    /// Creates a sink over `descriptor`, named `name` in errors.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// File descriptor 1.
    public static let standardOutput = FileDescriptorOutput(descriptor: 1, name: "standard output")
    /// File descriptor 2.
    public static let standardError = FileDescriptorOutput(descriptor: 2, name: "standard error")

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Writes every byte of `bytes`. Throws ``OutputError`` with the system's reason.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        var written = 0
        while written < bytes.count {
            let result = systemWrite(descriptor, base + written, bytes.count - written)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                throw OutputError(code: code, destination: name)
            }
            // write(2) never returns 0 for a non-empty request on a file, pipe or terminal;
            // should it, stop rather than loop forever.
            if result == 0 { throw OutputError(code: EIO, destination: name) }
            written += result
        }
    }
}

/// POSIX `write(2)`, named apart from the sink's own `write`.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
    #else
    return Darwin.write(descriptor, pointer, count)
    #endif
}
