/// Document text (model names, edit labels) made safe to print on a terminal: the one escaping
/// `model list`, the command echoes (`added`, `deleted`, `undid`), warnings and errors use, so a
/// name holding control characters cannot move the cursor or retitle the terminal.
///
/// ```swift
/// DisplayText.escaped("a\u{1B}]0;pwned\u{7}")  // "a\u{1b}]0;pwned\u{7}" (escapes spelled out)
/// DisplayText.quoted(nil)                      // "(nil)"
/// ```
public enum DisplayText {
    /// `text` with every control character — C0 (below U+0020), DEL (U+007F) and C1
    /// (U+0080…U+009F) — written as `\u{hex}`; everything else as it is.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A table cell: ``escaped(_:)``, `nil` as "(nil)", the empty text as `""`.
    public static func quoted(_ text: String?) -> String {
        guard let text else { return "(nil)" }
        return text.isEmpty ? "\"\"" : escaped(text)
    }

    /// A name inside single quotes for messages: `'Sunrise'`, `'a\u{1b}b'`, or `nil` unquoted.
    public static func name(_ text: String?) -> String {
        text.map { "'\(escaped($0))'" } ?? "nil"
    }
}
