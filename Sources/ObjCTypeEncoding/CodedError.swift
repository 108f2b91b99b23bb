/// An error that names its kind of failure with a `code` and explains it with a `reason`: the
/// shape of every error type in this package (type strings, wire, coder, property lists, JSON,
/// keyed archives, documents). It lives in the lowest module so that every other can use it.
///
/// Two errors are equal when their codes are, so tests and callers match a kind of failure
/// without spelling the reason; the hash follows the code alone, consistent with `==`.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    associatedtype Code: Hashable & Sendable
    /// What went wrong.
    var code: Code { get }
    /// A human explanation.
    var reason: String { get }
}

extension CodedError {
    /// Compares codes only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// "offset 0x1a3 (419): reason" when the byte offset is known, else the reason alone: how
    /// every error of this package names a place in its input.
    public static func located(_ reason: String, at offset: Int?) -> String {
        guard let offset else { return reason }
        return offsetText(offset) + ": " + reason
    }

    /// "offset 0x1a3 (419)": a byte offset as the errors of this package name it, in hex and in
    /// decimal.
    public static func offsetText(_ offset: Int) -> String {
        "offset 0x\(String(offset, radix: 16)) (\(offset))"
    }
}
