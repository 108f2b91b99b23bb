#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `\n`-ended lines from a byte source a chunk at a time, holding at most one line of
/// ``maximumLength`` bytes and one chunk: a longer line is skipped to its end and reported as
/// ``Line/tooLong(head:length:)``, never kept whole. A `\r` at the end of a line is dropped; the
/// last line needs no `\n`.
///
/// ```swift
/// var reader = LineReader(maximumLength: 1 << 20) { buffer, count throws(FileReadError) in
///     try context.readStandardInputChunk(into: &buffer, maximum: count)
/// }
/// while let line = try reader.next() { … }
/// ```
struct LineReader {
    /// What ``next()`` gives.
    enum Line {
        /// A whole line, without its line end. Use it before calling ``next()`` again (keeping
        /// it makes the reader copy its buffer).
        case line(ArraySlice<UInt8>)
        /// A line longer than ``maximumLength``: its first bytes and its length.
        case tooLong(head: [UInt8], length: Int)
    }

    /// Appends at most the given number of bytes to the buffer; returns `true` once the input
    /// has ended (and then appends nothing more). Throws ``FileReadError``.
    typealias Source = (inout [UInt8], Int) throws(FileReadError) -> Bool

    /// The longest line kept, in bytes (without its line end).
    let maximumLength: Int
    /// How many bytes of an over-long line ``Line/tooLong(head:length:)`` keeps.
    static let headLength = 256
    /// How much is asked of the source at once.
    static let chunkSize = 1 << 16

    private let source: Source
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// Creates a reader of lines of at most `maximumLength` bytes from `source`.
    init(maximumLength: Int, source: @escaping Source) {
        self.maximumLength = max(0, maximumLength)
        self.source = source
    }

    /// The next line, or `nil` at the end of the input. Throws ``FileReadError`` from the source.
    mutating func next() throws(FileReadError) -> Line? {
        var searched = start
        while true {
            if let end = Self.newline(in: buffer, from: searched) {
                let line = dropCarriageReturn(start..<end)
                start = end + 1
                if line.count > maximumLength { return .tooLong(head: Array(buffer[line.prefix(Self.headLength)]), length: line.count) }
                return .line(buffer[line])
            }
            if buffer.count - start > maximumLength + 1 { return try skipLongLine() }
            if ended {
                guard start < buffer.count else { return nil }
                let line = dropCarriageReturn(start..<buffer.count)
                start = buffer.count
                return .line(buffer[line])
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            searched = buffer.count
            ended = try source(&buffer, Self.chunkSize)
        }
    }

    /// Skips the rest of the line that begins at ``start`` (already longer than the limit).
    private mutating func skipLongLine() throws(FileReadError) -> Line {
        let head = Array(buffer[start..<min(buffer.count, start + Self.headLength)])
        var length = buffer.count - start
        buffer.removeAll(keepingCapacity: true)
        start = 0
        while !ended {
            ended = try source(&buffer, Self.chunkSize)
            if let end = Self.newline(in: buffer, from: 0) {
                length += (end > 0 && buffer[end - 1] == 0x0D) ? end - 1 : end
                start = end + 1
                return .tooLong(head: head, length: length)
            }
            length += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        return .tooLong(head: head, length: length)
    }

    /// `range` without a final `\r`.
    private func dropCarriageReturn(_ range: Range<Int>) -> Range<Int> {
        guard range.count > 0, buffer[range.upperBound - 1] == 0x0D else { return range }
        return range.lowerBound..<range.upperBound - 1
    }

    /// The index of the first `\n` in `bytes` at or after `from`.
    private static func newline(in bytes: [UInt8], from: Int) -> Int? {
        guard from < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + from, 0x0A, buffer.count - from) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
