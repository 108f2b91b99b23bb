/// Receives tokens from the reader's inlined reading loop (``TokenReader/read(into:)``).
protocol CompactTokenVisitor {
    /// Receives the next token; returns false to pause reading after it.
    mutating func visit(_ token: CompactToken) -> Bool
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

/// What ``TokenReader/scanToEnd()`` saw: counts, and a checksum of every token's position so
/// that no part of the work can be optimised away.
public struct ScanSummary: Hashable, Sendable, CompactTokenVisitor {
    /// Tokens read, the header included.
    public var tokens = 0
    /// New objects read.
    public var objects = 0
    /// The sum of every token's end offset (wrapping).
    public var checksum = 0

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
