import ObjCTypeEncoding
import TypedStream

/// The tokens of an archive its index checked, read again front to back in batches (one reader
/// call per batch, not per token), with room to look ahead and to put a token back.
///
/// The index checked the whole archive, so reading it again meets no error; one would end the
/// reading where it occurs (``next()`` and ``peek(_:)`` answer `nil`).
struct ReadAheadTokens {
    private var reader: TokenReader
    /// Tokens read ahead, from ``head`` on.
    private var batch: [CompactToken] = []
    private var head = 0
    /// How many tokens ``next()`` reads when the batch is used up.
    private let batchSize: Int
    /// How many tokens ``peek(_:)`` reads at a time past the batch.
    private static let peekBatchSize = 64

    /// Reads the tokens of `index`'s archive again, with the type strings it compiled,
    /// `batchSize` at a time.
    init(index: ArchiveIndex, batchSize: Int) {
        reader = TokenReader(bytes: index.bytes, compiled: index.compiledTypeStrings)
        self.batchSize = batchSize
    }

    /// The next token; `nil` at the end of the archive.
    @inline(__always)
    mutating func next() -> CompactToken? {
        if head == batch.count {
            batch.removeAll(keepingCapacity: true)
            head = 0
            try? reader.nextCompact(into: &batch, count: batchSize)
            if batch.isEmpty { return nil }
        }
        head += 1
        return batch[head - 1]
    }

    /// The token `ahead` places after the next one (0: the next), read ahead as needed; `nil`
    /// past the end. Tokens looked at this way stay to be read by ``next()`` (or passed over
    /// with ``advance(_:)``).
    @inline(__always)
    mutating func peek(_ ahead: Int) -> CompactToken? {
        while batch.count - head <= ahead {
            let before = batch.count
            try? reader.nextCompact(into: &batch, count: Self.peekBatchSize)
            if batch.count == before { return nil }
        }
        return batch[head + ahead]
    }

    /// Passes over `count` tokens looked at with ``peek(_:)``.
    @inline(__always)
    mutating func advance(_ count: Int) {
        head += count
    }

    /// Makes `token` the next one ``next()`` gives.
    mutating func putBack(_ token: CompactToken) {
        batch.insert(token, at: head)
    }

    /// The types of the type string with shared-string number `textIndex`, if it is one.
    func types(ofSharedString textIndex: Int) -> [ObjCType]? {
        reader.types(ofSharedString: textIndex)
    }
}
