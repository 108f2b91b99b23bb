import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a subcommand's text goes: standard output, standard error, or a buffer in tests.
/// Implementations are safe to call from several threads; each `write` lands whole.
public protocol OutputSink: AnyObject, Sendable {
    /// Appends bytes.
    func write(_ bytes: [UInt8])
    /// Pushes buffered bytes to their destination.
    func flush()
}

extension OutputSink {
    /// Appends text as UTF-8.
    public func write(_ text: String) { write(Array(text.utf8)) }
}

/// An ``OutputSink`` over a file descriptor (1 or 2), buffered up to `bufferLimit` bytes.
public final class FileDescriptorSink: OutputSink, @unchecked Sendable {
    private let descriptor: Int32
    private let bufferLimit: Int
    private var buffer: [UInt8] = []
    private let lock = NSLock()

    /// Creates a sink; `bufferLimit` 0 writes through at once (for standard error).
    public init(descriptor: Int32, bufferLimit: Int) {
        self.descriptor = descriptor
        self.bufferLimit = bufferLimit
    }

    /// Standard output, buffered in 64 KiB.
    public static let standardOutput = FileDescriptorSink(descriptor: 1, bufferLimit: 1 << 16)
    /// Standard error, unbuffered.
    public static let standardError = FileDescriptorSink(descriptor: 2, bufferLimit: 0)

    /// Appends bytes, writing them out when the buffer is full.
    public func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(contentsOf: bytes)
        if buffer.count > bufferLimit { drain() }
    }

    /// Writes out everything buffered.
    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        drain()
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    private func drain() {
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemWrite(descriptor, base + written, raw.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                break
            }
            if result == 0 { break }
            written += result
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A sink that keeps everything written, for tests and for callers that want the text.
public final class CapturedOutput: OutputSink, @unchecked Sendable {
    private var storage: [UInt8] = []
    private let lock = NSLock()

    /// Creates an empty capture.
    public init() {}

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) {
        lock.lock()
        storage.append(contentsOf: bytes)
        lock.unlock()
    }

    /// Nothing to do.
    public func flush() {}

    /// Everything written so far.
    public var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Everything written so far, as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// POSIX `write(2)`, named apart from the sinks' own `write`.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
    #else
    return Darwin.write(descriptor, pointer, count)
    #endif
}
