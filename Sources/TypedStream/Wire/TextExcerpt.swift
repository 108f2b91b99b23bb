/// Input quoted in messages: errors that show text from an untrusted input (a type string, a
/// class name, a JSON number or member name) show at most a short, escaped excerpt of it, so a
/// hostile megabyte-long value makes a one-line message, not a megabyte one.
public enum TextExcerpt {
    /// How many characters an error message quotes. Default 40.
    public static let defaultLimit = 40

    /// `bytes` as a double-quoted string: valid UTF-8 is shown as text, quotes, backslashes
    /// and control characters are escaped, bytes that are not UTF-8 appear as `\xNN`.
    /// At most `limit` characters are shown; a longer text ends with `…` after the quote.
    public static func quoted(_ bytes: some Collection<UInt8>, limit: Int = defaultLimit) -> String {
        // A character takes at most four bytes: what lies beyond cannot be shown.
        let bytes = ArraySlice(bytes.prefix(max(limit, 0) &* 4 &+ 1))
        var out = "\""
        var shown = 0
        var position = bytes.startIndex
        var truncated = false
        while position < bytes.endIndex {
            if shown >= limit {
                truncated = true
                break
            }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes[position...].makeIterator()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out += escaped(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + max(length, 1)] {
                    out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
                }
                position += max(length, 1)
            case .emptyInput:
                position = bytes.endIndex
            }
            shown += 1
        }
        out += "\""
        if truncated { out += "…" }
        return out
    }

    /// `text` quoted as ``quoted(_:limit:)`` quotes its UTF-8.
    public static func quoted(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        quoted(text.utf8, limit: limit)
    }

    /// A number as written in the input (ASCII digits, sign, point, exponent), unquoted: its
    /// first `limit` characters and `…` when it is longer.
    public static func number(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        text.utf8.count <= limit ? String(text) : quoted(text, limit: limit)
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\0": return "\\0"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                return "\\u{" + String(scalar.value, radix: 16) + "}"
            }
            return String(scalar)
        }
    }
}
