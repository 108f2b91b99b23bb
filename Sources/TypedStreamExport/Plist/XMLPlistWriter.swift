import TypedStream

/// Writes ``PlistValue``s as XML property lists. UIDs are written the way CoreFoundation
/// writes them in XML: `<dict><key>CF$UID</key><integer>n</integer></dict>`.
///
/// Every document it writes is well-formed XML 1.0, which strict parsers (libxml2, expat,
/// Python's `plistlib`) read. XML 1.0 cannot hold the control characters U+0000–U+001F other
/// than tab, line feed and carriage return, nor U+FFFE and U+FFFF — not even as character
/// references (`&#27;` is refused too). CoreFoundation writes such characters raw, which only
/// its own lenient parser reads back; this writer throws ``Unrepresentable`` instead, naming
/// the value (the binary form holds any string). A carriage return is written `&#13;`, so that
/// parsers, which turn a raw one into a line feed, give it back. Dates are whole seconds (the
/// format has no fraction), as CoreFoundation writes them.
public enum XMLPlistWriter {
    /// A value that XML 1.0 cannot hold: where it is and why.
    public struct Unrepresentable: Error, Sendable, CustomStringConvertible {
        /// What the value is: "string", "dictionary key" or "date".
        public var what: String
        /// The value, quoted for a message.
        public var value: String
        /// Why it cannot be written ("holds U+001B, which …").
        public var problem: String
        /// Where the value is, from the document's root: `$objects[57]`, `$top.root` (empty for
        /// the root itself).
        public var path: String { String(steps.joined().drop(while: { $0 == "." })) }
        /// The path's steps, outermost first: `.key` or `[index]`.
        var steps: [String] = []

        /// "the string at $objects[57] ("\u{1b}") holds U+001B, which XML 1.0 cannot hold, …".
        public var description: String {
            "the \(what)\(path.isEmpty ? "" : " at \(path)") (\(value)) \(problem)"
        }

        /// The error with `step` put before its path, as it leaves a container.
        func inside(_ step: String) -> Self {
            var copy = self
            copy.steps.insert(step, at: 0)
            return copy
        }
    }

    /// The XML text of `value`. Throws ``Unrepresentable`` for a string (or dictionary key)
    /// holding a character XML 1.0 cannot hold, or a date outside the years 1 to 9999.
    public static func write(_ value: PlistValue) throws(Unrepresentable) -> String {
        var out = header
        try append(value, indent: 0, into: &out)
        out += footer
        return out
    }

    /// What every document starts with, up to its root value.
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    /// What every document ends with, after its root value.
    static let footer = "</plist>\n"

    /// `s` as XML character data. Throws ``Unrepresentable`` (without a path) for a character
    /// XML 1.0 cannot hold.
    private static func escape(_ s: String, what: String) throws(Unrepresentable) -> String {
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0xEF }) {
            return s
        }
        var r = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            case "\r": r += "&#13;"
            case "\t", "\n": r.unicodeScalars.append(c)
            case _ where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF:
                let hex = String(c.value, radix: 16, uppercase: true)
                throw Unrepresentable(what: what, value: TextExcerpt.quoted(Array(s.utf8)), problem: "holds U+"
                    + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    + ", which XML 1.0 cannot hold, not even as a character reference; a binary property list can")
            default: r.unicodeScalars.append(c)
            }
        }
        return r
    }

    static func append(_ value: PlistValue, indent: Int, into out: inout String) throws(Unrepresentable) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .string(let s): out += "\(pad)<string>\(try escape(s, what: "string"))</string>\n"
        case .integer(let v): out += "\(pad)<integer>\(v)</integer>\n"
        case .real(let d): out += "\(pad)<real>\(d)</real>\n"
        case .bool(let b): out += "\(pad)<\(b ? "true" : "false")/>\n"
        case .data(let bytes): out += "\(pad)<data>\(ByteText.base64(bytes[...]))</data>\n"
        case .date(let seconds):
            guard let text = ISODate.format(secondsSince2001: seconds) else {
                throw Unrepresentable(what: "date", value: "\(seconds) seconds since 2001", problem: "is outside the years 1 to 9999 "
                    + "that an XML property list can write; a binary property list can")
            }
            out += "\(pad)<date>\(text)</date>\n"
        case .uid(let u): out += "\(pad)<dict>\n\(pad)\t<key>CF$UID</key>\n\(pad)\t<integer>\(u)</integer>\n\(pad)</dict>\n"
        case .array(let values):
            if values.isEmpty { out += "\(pad)<array/>\n"; return }
            out += "\(pad)<array>\n"
            for (index, v) in values.enumerated() {
                do throws(Unrepresentable) { try append(v, indent: indent + 1, into: &out) } catch { throw error.inside("[\(index)]") }
            }
            out += "\(pad)</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty { out += "\(pad)<dict/>\n"; return }
            out += "\(pad)<dict>\n"
            for e in entries {
                do throws(Unrepresentable) {
                    out += "\(pad)\t<key>\(try escape(e.key, what: "dictionary key"))</key>\n"
                    try append(e.value, indent: indent + 1, into: &out)
                } catch {
                    let plain = !e.key.isEmpty && e.key.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "[") }
                    throw error.inside(plain ? "." + e.key : "[\(TextExcerpt.quoted(Array(e.key.utf8)))]")
                }
            }
            out += "\(pad)</dict>\n"
        }
    }
}
