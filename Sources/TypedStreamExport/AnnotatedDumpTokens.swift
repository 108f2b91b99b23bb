import TypedStream

/// The tokens of an annotated dump, read from a ``TokenReader`` a batch at a time (one entry
/// into the reader's loop per batch, not per token), with a look at the next one.
///
/// An error is kept, not thrown: the tokens read before it are handed out first, then
/// ``next()`` answers `nil` and ``failure`` tells why. A dump that stops before them never
/// meets the error, as if it had read one token at a time.
struct AnnotatedDumpTokens {
    /// The reader, positioned after the tokens read so far (ahead of those handed out).
    private(set) var reader: TokenReader
    /// The error that ended reading, once the tokens before it have all been handed out.
    var failure: WireError? { head == batch.count ? pendingFailure : nil }

    private var batch: [CompactToken] = []
    private var head = 0
    private var pendingFailure: WireError?
    private var atEnd = false
    private static let batchSize = 256

    init(reader: TokenReader) {
        self.reader = reader
        batch.reserveCapacity(Self.batchSize)
    }

    /// The archive's header, once read.
    var header: StreamHeader? { reader.header }

    /// The next token; `nil` at the end or at an error (see ``failure``).
    @inline(__always)
    mutating func next() -> CompactToken? {
        if head == batch.count, !refill() { return nil }
        head += 1
        return batch[head - 1]
    }

    /// The token ``next()`` will give, without taking it.
    @inline(__always)
    mutating func peek() -> CompactToken? {
        if head == batch.count, !refill() { return nil }
        return batch[head]
    }

    /// Reads the next batch; `false` when there is none.
    private mutating func refill() -> Bool {
        guard !atEnd, pendingFailure == nil else { return false }
        batch.removeAll(keepingCapacity: true)
        head = 0
        do throws(WireError) {
            try reader.nextCompact(into: &batch, count: Self.batchSize)
            if batch.count < Self.batchSize { atEnd = true }
        } catch {
            pendingFailure = error
        }
        return !batch.isEmpty
    }
}
