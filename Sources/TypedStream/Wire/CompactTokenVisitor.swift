import ObjCTypeEncoding

/// Receives tokens from the reader's inlined reading loop (``TokenReader/read(into:)``).
protocol CompactTokenVisitor {
    /// Whether type-string tokens should come with their parsed types
    /// (``visit(_:types:)``). A static choice, so visitors that do not need them pay nothing.
    static var wantsTypes: Bool { get }
    /// Receives the next token; returns false to pause reading after it.
    mutating func visit(_ token: CompactToken) -> Bool
    /// Receives a type-string token with the types it parsed to (only when ``wantsTypes``).
    mutating func visit(_ token: CompactToken, types: [ObjCType]?) -> Bool
}

extension CompactTokenVisitor {
    static var wantsTypes: Bool { false }

    mutating func visit(_ token: CompactToken, types: [ObjCType]?) -> Bool { visit(token) }
}

extension TokenReader {
    /// Hands `token` to `visitor`, with the types of its type string when the visitor wants them.
    @inline(__always)
    func hand<Visitor: CompactTokenVisitor>(_ token: CompactToken, to visitor: inout Visitor) -> Bool {
        if Visitor.wantsTypes, token.code == .typeString {
            return visitor.visit(token, types: types(ofSharedString: token.textIndex))
        }
        return visitor.visit(token)
    }
}

/// A visitor that checks what it builds from the tokens (a graph: every object has a class, no
/// class chain loops …) and keeps the first error it finds, while the reader goes on.
protocol CheckingTokenVisitor: CompactTokenVisitor {
    /// The first error found.
    var error: WireError? { get }
}

extension TokenReader {
    /// Reads to the end into `visitor` and returns the header. The visitor's error is thrown
    /// before the reader's: it was found first (the reader met its own later).
    mutating func readToEnd<Visitor: CheckingTokenVisitor>(checking visitor: inout Visitor) throws(WireError) -> StreamHeader {
        do {
            try readToEnd(into: &visitor)
        } catch {
            throw visitor.error ?? error
        }
        if let error = visitor.error { throw error }
        guard let header else { throw WireError(.badHeader, at: 0, "expected a header") }
        return header
    }
}

/// Takes one token and pauses: the pull interface (``TokenReader/nextCompact()``).
struct OneToken: CompactTokenVisitor {
    var token: CompactToken?

    @inline(__always)
    mutating func visit(_ token: CompactToken) -> Bool {
        self.token = token
        return false
    }
}

/// Keeps every token (``TokenReader/readAllCompact()``).
struct TokenCollector: CompactTokenVisitor {
    var tokens: [CompactToken] = []

    @inline(__always)
    mutating func visit(_ token: CompactToken) -> Bool {
        tokens.append(token)
        return true
    }
}

/// What ``TokenReader/scanToEnd()`` saw: how many tokens and new objects.
public struct ScanSummary: Hashable, Sendable, CompactTokenVisitor {
    /// Tokens read, the header included.
    public var tokens = 0
    /// New objects read.
    public var objects = 0
    /// The sum of every token's end offset (wrapping), for the benchmark: a number that depends
    /// on every token, so no part of the scan can be optimised away. Not API
    /// (`@_spi(Benchmark) import TypedStream`).
    @_spi(Benchmark) public var checksum = 0

    /// An empty summary.
    public init() {}

    @inline(__always)
    mutating func visit(_ token: CompactToken) -> Bool {
        tokens &+= 1
        checksum &+= token.end
        if token.code == .object, token.form == .new { objects &+= 1 }
        return true
    }
}

extension TokenReader {
    /// Reads from the current position to the end and hands every token to `body`, in
    /// plain-data form: the tokens and error of ``nextCompact()``, from the start of a streamer-4
    /// archive the fast way (one loop, as ``scanToEnd()``), for a caller that wants every token
    /// once. Throws ``WireError``.
    public mutating func forEachCompact(_ body: (CompactToken) -> Void) throws(WireError) {
        var failure: WireError?
        withoutActuallyEscaping(body) { escapable in
            var visitor = ClosureVisitor(body: escapable)
            do throws(WireError) { try readToEnd(into: &visitor) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads up to `count` more tokens in plain-data form and appends them to `tokens`; fewer
    /// only at the end of the archive. The tokens and error of ``nextCompact()``, a batch at a
    /// time (one entry into the reading loop per batch). Throws ``WireError``.
    public mutating func nextCompact(into tokens: inout [CompactToken], count: Int) throws(WireError) {
        guard count > 0 else { return }
        var batch = TokenBatch(tokens: tokens, left: count)
        tokens = []
        defer { tokens = batch.tokens }
        while batch.left > 0 {
            if try read(into: &batch) { return }
        }
    }
}

/// Hands each token to a closure (``TokenReader/forEachCompact(_:)``).
private struct ClosureVisitor: CompactTokenVisitor {
    let body: (CompactToken) -> Void

    @inline(__always)
    mutating func visit(_ token: CompactToken) -> Bool {
        body(token)
        return true
    }
}

/// Collects up to a number of tokens, then pauses (``TokenReader/nextCompact(into:count:)``).
private struct TokenBatch: CompactTokenVisitor {
    var tokens: [CompactToken]
    var left: Int

    @inline(__always)
    mutating func visit(_ token: CompactToken) -> Bool {
        tokens.append(token)
        left -= 1
        return left > 0
    }
}
