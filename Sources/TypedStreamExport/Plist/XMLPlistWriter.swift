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
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        out.append(header)
        try append(value, indent: 0, into: &out)
        out.append(footer)
        out.flush()
        return String(decoding: capture.bytes, as: UTF8.self)
    }

    /// What every document starts with, up to its root value.
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    /// What every document ends with, after its root value.
    static let footer = "</plist>\n"

    /// The first character of `text` (UTF-8) that XML 1.0 cannot hold, if any: U+0000–U+001F
    /// other than tab, line feed and carriage return; U+FFFE and U+FFFF.
    static func unrepresentableScalar(in text: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x20, byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") { return UInt32(byte) }
            if byte == 0xEF, index + 2 < text.count, text[index + 1] == 0xBF, text[index + 2] >= 0xBE {
                return text[index + 2] == 0xBE ? 0xFFFE : 0xFFFF
            }
            index += 1
        }
        return nil
    }

    /// Appends `s` as XML character data to `out`. Throws ``Unrepresentable`` (without a path)
    /// for a character XML 1.0 cannot hold (``unrepresentableScalar(in:)``); a carriage return
    /// is written `&#13;`.
    private static func appendEscaped(_ s: String, what: String, to out: inout OutputWriter) throws(Unrepresentable) {
        var s = s
        let problem: UInt32? = s.withUTF8 { text in
            if let problem = unrepresentableScalar(in: text) { return problem }
            // Runs without markup characters go to `out` whole.
            var run = 0
            for index in text.indices {
                let escape: StaticString
                switch text[index] {
                case UInt8(ascii: "&"): escape = "&amp;"
                case UInt8(ascii: "<"): escape = "&lt;"
                case UInt8(ascii: ">"): escape = "&gt;"
                case UInt8(ascii: "\r"): escape = "&#13;"
                default: continue
                }
                out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[run..<index])))
                out.append(escape)
                run = index + 1
            }
            out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[run..<text.count])))
            return nil
        }
        guard let problem else { return }
        let hex = String(problem, radix: 16, uppercase: true)
        throw Unrepresentable(what: what, value: TextExcerpt.quoted(Array(s.utf8)), problem: "holds U+"
            + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            + ", which XML 1.0 cannot hold, not even as a character reference; a binary property list can")
    }

    /// Appends `count` tabs to `out`.
    private static func appendTabs(_ count: Int, to out: inout OutputWriter) {
        for _ in 0..<count { out.append(UInt8(ascii: "\t")) }
    }

    /// Appends `value`, indented by `indent` tabs, as XML to `out` (every line ends with a line
    /// feed). Throws ``Unrepresentable`` with the path from `value` to the value that XML 1.0
    /// cannot hold; part of the text is then appended.
    static func append(_ value: PlistValue, indent: Int, into out: inout OutputWriter) throws(Unrepresentable) {
        switch value {
        case .array(let values):
            guard openCollection("array", count: values.count, indent: indent, into: &out) else { return }
            for (index, v) in values.enumerated() {
                do throws(Unrepresentable) { try append(v, indent: indent + 1, into: &out) } catch { throw error.inside("[\(index)]") }
            }
            closeCollection("array", indent: indent, into: &out)
        case .dictionary(let entries):
            guard openCollection("dict", count: entries.count, indent: indent, into: &out) else { return }
            for e in entries {
                do throws(Unrepresentable) {
                    try appendKey(e.key, indent: indent + 1, into: &out)
                    try append(e.value, indent: indent + 1, into: &out)
                } catch {
                    let plain = !e.key.isEmpty && e.key.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "[") }
                    throw error.inside(plain ? "." + e.key : "[\(TextExcerpt.quoted(Array(e.key.utf8)))]")
                }
            }
            closeCollection("dict", indent: indent, into: &out)
        default:
            try appendScalar(value, indent: indent, into: &out)
        }
    }

    /// Appends a value that is not a collection, as ``append(_:indent:into:)`` does.
    static func appendScalar(_ value: PlistValue, indent: Int, into out: inout OutputWriter) throws(Unrepresentable) {
        switch value {
        case .string(let s):
            appendTabs(indent, to: &out)
            out.append("<string>" as StaticString)
            try appendEscaped(s, what: "string", to: &out)
            out.append("</string>\n" as StaticString)
        case .integer(let v): appendElement("integer", String(v), indent: indent, to: &out)
        case .real(let d): appendElement("real", "\(d)", indent: indent, to: &out)
        case .bool(let b):
            appendTabs(indent, to: &out)
            out.append(b ? "<true/>\n" as StaticString : "<false/>\n")
        case .data(let bytes): appendElement("data", ByteText.base64(bytes[...]), indent: indent, to: &out)
        case .date(let seconds):
            guard let text = ISODate.format(secondsSince2001: seconds) else {
                throw Unrepresentable(what: "date", value: "\(seconds) seconds since 2001", problem: "is outside the years 1 to 9999 "
                    + "that an XML property list can write; a binary property list can")
            }
            appendElement("date", text, indent: indent, to: &out)
        case .uid(let u):
            appendTabs(indent, to: &out)
            out.append("<dict>\n" as StaticString)
            appendTabs(indent + 1, to: &out)
            out.append("<key>CF$UID</key>\n" as StaticString)
            appendElement("integer", String(u), indent: indent + 1, to: &out)
            appendTabs(indent, to: &out)
            out.append("</dict>\n" as StaticString)
        case .array, .dictionary:
            try append(value, indent: indent, into: &out)
        }
    }

    /// Opens an `array` or `dict` element of `count` values: `<name>` and `true`, or the empty
    /// element `<name/>` and `false` (nothing to close).
    static func openCollection(_ name: StaticString, count: Int, indent: Int, into out: inout OutputWriter) -> Bool {
        appendTabs(indent, to: &out)
        out.append(UInt8(ascii: "<"))
        out.append(name)
        out.append(count == 0 ? "/>\n" as StaticString : ">\n")
        return count > 0
    }

    /// Closes an element ``openCollection(_:count:indent:into:)`` opened.
    static func closeCollection(_ name: StaticString, indent: Int, into out: inout OutputWriter) {
        appendTabs(indent, to: &out)
        out.append("</" as StaticString)
        out.append(name)
        out.append(">\n" as StaticString)
    }

    /// Appends `<key>name</key>`, the member name of a dictionary entry.
    static func appendKey(_ name: String, indent: Int, into out: inout OutputWriter) throws(Unrepresentable) {
        appendTabs(indent, to: &out)
        out.append("<key>" as StaticString)
        try appendEscaped(name, what: "dictionary key", to: &out)
        out.append("</key>\n" as StaticString)
    }

    /// Appends `<name>text</name>` and a line feed, indented by `indent` tabs, to `out`
    /// (`text` needs no escaping: numbers, Base64, dates).
    private static func appendElement(_ name: StaticString, _ text: String, indent: Int, to out: inout OutputWriter) {
        appendTabs(indent, to: &out)
        out.append(UInt8(ascii: "<"))
        out.append(name)
        out.append(UInt8(ascii: ">"))
        out.append(text)
        out.append("</" as StaticString)
        out.append(name)
        out.append(">\n" as StaticString)
    }
}
