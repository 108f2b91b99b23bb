import Foundation
import TypedStreamExport

/// The tests' in-memory sink, under the name the tool has always given it.
public typealias CapturedOutput = TypedStreamExport.CapturedOutput

/// One of a command's two output streams (standard output or standard error): an
/// ``OutputWriter`` over a sink, shared by everything the command prints.
///
/// Short writes (``write(_:)-([UInt8])``, ``CommandContext/print(_:)``) take a lock, so the batch
/// runner may print from the thread that delivers results; a renderer borrows the writer itself
/// with ``withWriter(_:)`` and appends without locking while it runs. Failures are kept: after
/// the first, nothing more is written, and ``error`` says what happened.
public final class ProgramOutput: @unchecked Sendable {
    private var writer: OutputWriter
    private let lock = NSLock()
    private let writesThrough: Bool

    /// Creates a stream over `sink`; `writesThrough` hands every write to the sink at once
    /// (standard error, so diagnostics and the progress bar appear when written).
    public init(sink: any OutputSink, writesThrough: Bool = false) {
        writer = OutputWriter(sink: sink)
        self.writesThrough = writesThrough
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        writer.append(bytes)
        if writesThrough { writer.flush() }
    }

    /// Appends text as UTF-8.
    public func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        writer.append(text)
        if writesThrough { writer.flush() }
    }

    /// Runs `body` with the writer, for a renderer that streams its output. Throws what `body`
    /// throws.
    public func withWriter<Result, Failure: Error>(_ body: (inout OutputWriter) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer {
            if writesThrough { writer.flush() }
            lock.unlock()
        }
        return try body(&writer)
    }

    /// Pushes buffered bytes to the sink.
    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        writer.flush()
    }

    /// The first failed write, if any.
    public var error: OutputError? {
        lock.lock()
        defer { lock.unlock() }
        return writer.error
    }
}
