#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where rendered bytes finally go: a file descriptor, a file, or memory in tests.
///
/// A sink is unbuffered and is written to in large chunks by an ``OutputWriter``, which does the
/// buffering; a sink only has to write every byte it is given or say why it could not.
///
/// ```swift
/// let capture = CapturedOutput()
/// var writer = OutputWriter(sink: capture)
/// writer.append("hello\n")
/// writer.flush()
/// print(capture.text)   // "hello\n"
/// ```
public protocol OutputSink: AnyObject, Sendable {
    /// Writes all of `bytes`. Throws ``OutputError`` when some could not be written; what was
    /// written before the failure stays written.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
}

/// A write that failed: the destination, the system's error number and its text.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value (`ENOSPC`, `EPIPE`, `EFBIG`, `EBADF`, `EIO` …).
    public var code: Int32
    /// The destination as people name it: "standard output", or a file's path.
    public var destination: String
    /// The system's reason (`strerror`), "No space left on device".
    public var reason: String

    /// Creates an error.
    public init(code: Int32, destination: String, reason: String) {
        self.code = code
        self.destination = destination
        self.reason = reason
    }

    /// An error for `code` with the system's text for it.
    public init(code: Int32, destination: String) {
        self.init(code: code, destination: destination, reason: String(cString: strerror(code)))
    }

    /// Whether the reader of a pipe went away (`EPIPE`): not a failure to report, the
    /// conventional end of `… | head`.
    public var isBrokenPipe: Bool { code == EPIPE }

    /// "cannot write standard output: No space left on device".
    public var description: String { "cannot write \(destination): \(reason)" }
}

/// A sink that keeps everything written, for tests and for callers that want the bytes.
///
/// It can also pretend to fail after a number of bytes (``init(failingAfter:code:)``), so error
/// paths can be tested in-process.
public final class CapturedOutput: OutputSink, @unchecked Sendable {
    private var storage: [UInt8] = []
    private let failure: (limit: Int, code: Int32)?
    private let lock = Lock()

    /// Creates an empty capture.
    public init() { failure = nil }

    /// Creates a capture that keeps the first `limit` bytes, then fails every write with `code`
    /// (`ENOSPC` by default), as a full disk would.
    public init(failingAfter limit: Int, code: Int32 = ENOSPC) { failure = (max(limit, 0), code) }

    /// Appends `bytes`; throws when a simulated failure was asked for and its limit is reached.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        if let failure {
            let room = failure.limit - storage.count
            if bytes.count > room {
                storage.append(contentsOf: bytes.prefix(max(room, 0)))
                throw OutputError(code: failure.code, destination: "captured output")
            }
        }
        storage.append(contentsOf: bytes)
    }

    /// Everything written so far.
    public var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Everything written so far, as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A minimal mutex over `pthread_mutex_t` (the sinks lock once per chunk, not per byte).
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
