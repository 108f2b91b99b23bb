import TypedStream

/// The tokens the reading loop has handed over and the lossless JSON's token encoder has not
/// written yet: the encoder writes a token once those after it that decide its layout have come
/// (``ArchiveJSONTokenEncoder``), so it looks ahead here, not in the reader.
///
/// Tokens are kept from the one to write next (``next()``) on; the buffer starts again each time
/// it has been written out, and drops the tokens written when it has run long without emptying.
struct PendingTokens {
    private var tokens: [CompactToken] = []
    private var head = 0
    /// Whether the reading loop has handed over its last token.
    var ended = false

    init() {
        tokens.reserveCapacity(64)
    }

    /// Adds the reading loop's next token.
    @inline(__always)
    mutating func append(_ token: CompactToken) {
        if head == tokens.count {
            tokens.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 4096, head * 2 >= tokens.count {
            tokens.removeFirst(head)
            head = 0
        }
        tokens.append(token)
    }

    /// The next token to write; `nil` when none is waiting.
    @inline(__always)
    mutating func next() -> CompactToken? {
        guard head < tokens.count else { return nil }
        head += 1
        return tokens[head - 1]
    }

    /// Gives back the token ``next()`` gave last, to be given again once more tokens have come.
    @inline(__always)
    mutating func putBack() {
        head -= 1
    }

    /// The token `ahead` places after the one ``next()`` gave last (0: the next); `nil` when it
    /// has not come yet (or never will: ``ended``).
    @inline(__always)
    func peek(_ ahead: Int) -> CompactToken? {
        head + ahead < tokens.count ? tokens[head + ahead] : nil
    }
}
