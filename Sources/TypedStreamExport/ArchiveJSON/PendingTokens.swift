import TypedStream

/// The tokens the reading loop has handed over and the lossless JSON's token encoder has not
/// written yet: the encoder writes a token once those after it that decide its layout have come
/// (``ArchiveJSONTokenEncoder``), so it looks ahead here, not in the reader.
///
/// Tokens are kept in plain memory from the one to write next (``next()``) on; the buffer starts
/// again each time it has been written out, and moves its tokens down when it has run long
/// without emptying. Not copyable: it owns its memory.
struct PendingTokens: ~Copyable {
    private var base: UnsafeMutablePointer<CompactToken>
    private var capacity = 64
    private var head = 0
    private var count = 0
    /// Whether the reading loop has handed over its last token.
    var ended = false

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Whether every token handed over has been written.
    var isEmpty: Bool { head == count }

    /// Adds the reading loop's next token.
    @inline(__always)
    mutating func append(_ token: CompactToken) {
        if head == count {
            head = 0
            count = 0
        } else if count == capacity {
            makeRoom()
        }
        (base + count).initialize(to: token)
        count += 1
    }

    /// Moves the waiting tokens down when those written fill half the buffer, else doubles it.
    private mutating func makeRoom() {
        if head * 2 >= capacity {
            (base).update(from: base + head, count: count - head)
            count -= head
            head = 0
            return
        }
        let bigger = UnsafeMutablePointer<CompactToken>.allocate(capacity: capacity * 2)
        bigger.initialize(from: base + head, count: count - head)
        base.deallocate()
        base = bigger
        count -= head
        head = 0
        capacity *= 2
    }

    /// The next token to write; `nil` when none is waiting.
    @inline(__always)
    mutating func next() -> CompactToken? {
        guard head < count else { return nil }
        head += 1
        return base[head - 1]
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
        head + ahead < count ? base[head + ahead] : nil
    }
}
