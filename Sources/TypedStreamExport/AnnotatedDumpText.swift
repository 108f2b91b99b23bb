import TypedStream

/// Text helpers for the annotated dump: hex digits, quoting of archive text, numbers.
/// Written by hand so that the dump needs nothing beyond the standard library.
enum AnnotatedDumpText {
    /// Lowercase hex digits as ASCII bytes.
    static let hexDigitBytes: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` in lowercase hex, zero-padded to at least `digits` digits.
    static func hex(_ value: Int, digits: Int = 8) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    /// `bytes` as a double-quoted string, at most `limit` characters
    /// (``TextExcerpt/quoted(_:limit:)``).
    static func quoted(_ bytes: ArraySlice<UInt8>, limit: Int) -> String {
        TextExcerpt.quoted(bytes, limit: limit)
    }

    /// A float or double as a person writes it: integral values without a fraction (`1`, not
    /// `1.0`), `-0` for negative zero, otherwise Swift's shortest round-tripping form.
    static func real(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        if value.isFinite, value == value.rounded(), abs(value) < 1e16 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// A float as a person writes it, like the double version, using the float's own shortest form.
    static func real(_ value: Float) -> String {
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        if value.isFinite, value == value.rounded(), abs(value) < 1e16 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
