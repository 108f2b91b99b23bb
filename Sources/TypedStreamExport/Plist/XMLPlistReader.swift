/// Reads XML property lists (as ``XMLPlistWriter`` and Foundation write them) into
/// ``PlistValue``s, without Foundation: `<dict>` with exactly one key `CF$UID` holding an integer
/// becomes a ``PlistValue/uid(_:)``, as Foundation reads it.
///
/// Untrusted input: the parser keeps an explicit stack (nesting is bounded by
/// ``PlistLimits/maximumDepth``, never by the thread's stack) and expands no entities but XML's
/// five predefined ones and character references: a `DOCTYPE` with an internal subset (where
/// entities would be declared) is refused, and nothing is ever fetched. An XML plist names no
/// value twice, so its values grow linearly with its bytes. Errors carry the byte offset.
///
/// ```swift
/// let value = try XMLPlistReader.read(Array(xmlText.utf8))
/// ```
public enum XMLPlistReader {
    /// The value of an XML property list. Throws ``KeyedArchiveError`` `notAKeyedArchive`
    /// (with the offset) when the bytes are not a well-formed XML plist within `limits`.
    public static func read(_ bytes: [UInt8], limits: PlistLimits = .default) throws(KeyedArchiveError) -> PlistValue {
        guard bytes.count <= limits.maximumInputSize else {
            throw KeyedArchiveError(.notAKeyedArchive, at: 0, "XML property list: \(bytes.count) bytes is more than the \(limits.maximumInputSize) accepted")
        }
        var parser = XMLPlistParser(bytes: bytes, limits: limits)
        return try parser.document()
    }

}

/// The XML plist parser behind ``XMLPlistReader``.
struct XMLPlistParser {
    let bytes: [UInt8]
    let limits: PlistLimits
    var position = 0

    init(bytes: [UInt8], limits: PlistLimits) {
        self.bytes = bytes
        self.limits = limits
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    func error(at offset: Int, _ reason: String) -> KeyedArchiveError {
        KeyedArchiveError(.notAKeyedArchive, at: offset, "XML property list: " + reason)
    }

    /// A tag: its name, where it starts, and whether it is a closing (`</x>`) or empty (`<x/>`) one.
    struct Tag {
        var name: String
        var offset: Int
        var closing: Bool
        var empty: Bool
    }

    /// A collection being read.
    private struct Frame {
        var isDictionary: Bool
        var offset: Int
        var items: [PlistValue] = []
        var keys: [String] = []
        var pendingKey: String?
    }

    mutating func document() throws(KeyedArchiveError) -> PlistValue {
        var tag = try nextTag(prolog: true)
        var inPlist = false
        if !tag.closing, tag.name == "plist" {
            inPlist = !tag.empty
            guard inPlist else { throw error(at: tag.offset, "<plist/> holds no value") }
            tag = try nextTag()
        }
        let value = try value(startingWith: tag)
        if inPlist {
            let end = try nextTag()
            guard end.closing, end.name == "plist" else { throw error(at: end.offset, "expected </plist>, found \(describe(end))") }
        }
        try skipMisc()
        guard position == bytes.count else { throw error(at: position, "content after the end of the property list") }
        return value
    }

    /// The value that starts with `first`, reading nested values with an explicit stack.
    mutating func value(startingWith first: Tag) throws(KeyedArchiveError) -> PlistValue {
        var stack: [Frame] = []
        var tag = first
        while true {
            var result: PlistValue?
            if tag.closing {
                guard let frame = stack.last, tag.name == (frame.isDictionary ? "dict" : "array") else {
                    throw error(at: tag.offset, "unexpected \(describe(tag))")
                }
                stack.removeLast()
                if frame.isDictionary {
                    guard frame.pendingKey == nil else { throw error(at: tag.offset, "a <key> has no value") }
                    result = Self.dictionary(keys: frame.keys, values: frame.items)
                } else {
                    result = .array(frame.items)
                }
            } else if let top = stack.last, top.isDictionary, top.pendingKey == nil {
                guard tag.name == "key" else { throw error(at: tag.offset, "expected <key> in <dict>, found \(describe(tag))") }
                stack[stack.count - 1].pendingKey = tag.empty ? "" : try text(closing: "key")
            } else {
                switch tag.name {
                case "dict", "array":
                    if tag.empty {
                        result = tag.name == "dict" ? .dictionary([]) : .array([])
                    } else {
                        guard stack.count < limits.maximumDepth else {
                            throw error(at: tag.offset, "collections nested deeper than \(limits.maximumDepth)")
                        }
                        stack.append(Frame(isDictionary: tag.name == "dict", offset: tag.offset))
                    }
                case "true", "false":
                    if !tag.empty { try expectEnd(tag.name) }
                    result = .bool(tag.name == "true")
                default:
                    let body = tag.empty ? "" : try text(closing: tag.name)
                    result = try scalar(tag, body)
                }
            }
            if let value = result {
                guard let top = stack.last else { return value }
                if top.isDictionary {
                    stack[stack.count - 1].keys.append(top.pendingKey ?? "")
                    stack[stack.count - 1].pendingKey = nil
                }
                stack[stack.count - 1].items.append(value)
            }
            tag = try nextTag()
        }
    }

    /// A dictionary, or the UID that Foundation reads from `{CF$UID: n}`.
    static func dictionary(keys: [String], values: [PlistValue]) -> PlistValue {
        if keys == ["CF$UID"], case .integer(let n) = values[0], n >= 0, n <= Int64(UInt32.max) {
            return .uid(UInt32(n))
        }
        return .dictionary(zip(keys, values).map { PlistEntry($0.0, $0.1) })
    }

    /// A string, number, date or data element's value.
    func scalar(_ tag: Tag, _ body: String) throws(KeyedArchiveError) -> PlistValue {
        switch tag.name {
        case "string":
            return .string(body)
        case "integer":
            let text = body.trimmingWhitespace
            if let v = Int64(text) { return .integer(v) }
            if let v = UInt64(text) { return .integer(Int64(bitPattern: v)) }
            let hex = text.hasPrefix("-") ? String(text.dropFirst()) : text
            if hex.lowercased().hasPrefix("0x"), let v = Int64(hex.dropFirst(2), radix: 16) {
                return .integer(text.hasPrefix("-") ? -v : v)
            }
            throw error(at: tag.offset, "<integer> \(Self.excerpt(text)) is not an integer")
        case "real":
            let text = body.trimmingWhitespace
            guard let v = Double(text) else { throw error(at: tag.offset, "<real> \(Self.excerpt(text)) is not a number") }
            return .real(v)
        case "data":
            guard let data = ByteText.bytes(fromBase64: body) else { throw error(at: tag.offset, "<data> is not base64") }
            return .data(data)
        case "date":
            guard let seconds = ISODate.parse(body.trimmingWhitespace) else {
                throw error(at: tag.offset, "<date> \(Self.excerpt(body)) is not YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(seconds)
        default:
            throw error(at: tag.offset, "unknown element <\(Self.excerpt(tag.name))>")
        }
    }

    static func excerpt(_ text: String) -> String {
        AnnotatedDumpText.quoted(ArraySlice(text.utf8), limit: 32)
    }

    func describe(_ tag: Tag) -> String {
        (tag.closing ? "</" : "<") + String(tag.name.prefix(32)) + (tag.empty ? "/>" : ">")
    }

    // MARK: - Lexing

    /// Skips whitespace, comments and processing instructions.
    mutating func skipMisc() throws(KeyedArchiveError) {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1; continue }
            if starts("<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else {
                return
            }
        }
    }

    func starts(_ text: String) -> Bool {
        let pattern = Array(text.utf8)
        return bytes.count - position >= pattern.count && bytes[position..<position + pattern.count].elementsEqual(pattern)
    }

    mutating func skip(past end: String, what: String) throws(KeyedArchiveError) {
        let start = position
        let pattern = Array(end.utf8)
        while position <= bytes.count - pattern.count {
            if bytes[position] == pattern[0], bytes[position..<position + pattern.count].elementsEqual(pattern) {
                position += pattern.count
                return
            }
            position += 1
        }
        throw error(at: start, "unterminated \(what)")
    }

    /// The next tag, skipping whitespace, comments, processing instructions and (before the
    /// first element) a `DOCTYPE` without an internal subset.
    mutating func nextTag(prolog: Bool = false) throws(KeyedArchiveError) -> Tag {
        while true {
            try skipMisc()
            guard position < bytes.count else { throw error(at: position, "the property list ends early") }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw error(at: position, "text \(AnnotatedDumpText.quoted(bytes[position..<min(bytes.count, position + 32)], limit: 16)) outside an element")
            }
            if starts("<!DOCTYPE") {
                guard prolog else { throw error(at: position, "DOCTYPE after the first element") }
                try doctype()
                continue
            }
            if starts("<!") { throw error(at: position, "unexpected markup declaration") }
            let offset = position
            position += 1
            let closing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
            if closing { position += 1 }
            let nameStart = position
            while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
            guard position > nameStart else { throw error(at: offset, "a tag without a name") }
            let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
            // Attributes are skipped: quoted values may hold '>' and '/'.
            guard skipUnquoted(until: UInt8(ascii: ">"), or: UInt8(ascii: "<")) == UInt8(ascii: ">") else {
                throw error(at: offset, "unterminated tag <\(Self.excerpt(name))")
            }
            let empty = bytes[position - 1] == UInt8(ascii: "/") && position - 1 >= nameStart
            position += 1
            guard !(closing && empty) else { throw error(at: offset, "a tag both closing and empty") }
            return Tag(name: name, offset: offset, closing: closing, empty: empty)
        }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    /// Skips `<!DOCTYPE …>`; refuses an internal subset (`[…]`), where entities are declared.
    mutating func doctype() throws(KeyedArchiveError) {
        let start = position
        switch skipUnquoted(until: UInt8(ascii: ">"), or: UInt8(ascii: "[")) {
        case UInt8(ascii: ">"):
            position += 1
        case UInt8(ascii: "["):
            throw error(at: position, "a DOCTYPE with an internal subset (entity declarations) is not accepted")
        default:
            throw error(at: start, "unterminated DOCTYPE")
        }
    }

    /// Moves to the first `end` or `other` outside a quoted value (`"…"` or `'…'`) and returns
    /// that byte, leaving the position on it; `nil` (at the end of the input) when there is none.
    mutating func skipUnquoted(until end: UInt8, or other: UInt8) -> UInt8? {
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            if let q = quote {
                if byte == q { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == end || byte == other {
                return byte
            }
            position += 1
        }
        return nil
    }

    mutating func expectEnd(_ name: String) throws(KeyedArchiveError) {
        let tag = try nextTag()
        guard tag.closing, tag.name == name else { throw error(at: tag.offset, "expected </\(name)>, found \(describe(tag))") }
    }

    /// The character data up to `</name>`, entities and CDATA sections decoded.
    mutating func text(closing name: String) throws(KeyedArchiveError) -> String {
        var out: [UInt8] = []
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts("<![CDATA[") {
                    let from = position + 9
                    position = from
                    try skip(past: "]]>", what: "CDATA section")
                    out += bytes[from..<position - 3]
                    continue
                }
                if starts("<!--") { try skip(past: "-->", what: "comment"); continue }
                let tag = try nextTag()
                guard tag.closing, tag.name == name else {
                    throw error(at: tag.offset, "<\(Self.excerpt(name))> holds \(describe(tag)); it holds text only")
                }
                return String(decoding: out, as: UTF8.self)
            }
            if byte == UInt8(ascii: "&") {
                try entity(into: &out)
                continue
            }
            out.append(byte)
            position += 1
        }
        throw error(at: start, "<\(Self.excerpt(name))> is not closed")
    }

    /// Decodes `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#…;` at `position`; any other
    /// entity is an error (none is ever declared or expanded).
    mutating func entity(into out: inout [UInt8]) throws(KeyedArchiveError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error(at: start, "'&' that does not start an entity (write &amp;)")
        }
        let name = String(decoding: bytes[start + 1..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            var code: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") { code = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { code = UInt32(name.dropFirst(), radix: 10) }
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                throw error(at: start, "entity \(Self.excerpt("&" + name + ";")) is not one of XML's five predefined entities or a character reference")
            }
            out += Array(String(Character(scalar)).utf8)
        }
    }
}

extension String {
    /// Without leading and trailing XML whitespace.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
