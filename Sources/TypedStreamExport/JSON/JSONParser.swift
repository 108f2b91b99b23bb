extension JSONValue {
    /// The default bound on JSON nesting (arrays and objects inside each other).
    public static let defaultMaximumDepth = 5000

    /// Parses JSON text (RFC 8259; a leading UTF-8 byte-order mark is skipped). The parser is
    /// iterative, so hostile nesting cannot overflow the stack; nesting deeper than
    /// `maximumDepth` is refused. Throws ``ArchiveJSONError`` with code `syntax` (with the byte
    /// offset) or `limitExceeded`.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(ArchiveJSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }
}

/// A small bounded JSON parser: an explicit stack instead of recursion. Finished values wait on
/// one scratch stack (member names on another) until their container closes, so building a
/// container is linear in its size.
struct JSONParser {
    private struct Frame {
        var isObject: Bool
        /// Where the container's first element sits on the value stack.
        var valueStart: Int
        /// Where its first member name sits on the key stack.
        var keyStart: Int
    }

    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var i = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> ArchiveJSONError {
        ArchiveJSONError(.syntax, offset: offset ?? i, reason)
    }

    private func found() -> String {
        guard i < bytes.count else { return "end of data" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func parseDocument() throws(ArchiveJSONError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        var frames: [Frame] = []
        var values: [JSONValue] = []
        var keys: [String] = []
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw fail("expected a value, found end of data") }
            var value: JSONValue
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                guard frames.count < maximumDepth else {
                    throw ArchiveJSONError(.limitExceeded, offset: i, "JSON nesting deeper than \(maximumDepth)")
                }
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    value = isObject ? .object([]) : .array([])
                } else {
                    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
                    if isObject { keys.append(try parseKey()) }
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                throw fail("expected a value, found \(found())")
            }
            // Hand the finished value to its container, closing every container that ends here.
            attach: while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    guard i == bytes.count else { throw fail("unexpected \(found()) after the JSON value") }
                    return value
                }
                values.append(value)
                skipWhitespace()
                let close = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard i < bytes.count else {
                    throw fail("expected ',' or '\(Character(UnicodeScalar(close)))' in \(frame.isObject ? "an object" : "an array"), found end of data")
                }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    if frame.isObject {
                        skipWhitespace()
                        keys.append(try parseKey())
                    }
                    break attach
                }
                guard bytes[i] == close else {
                    throw fail("expected ',' or '\(Character(UnicodeScalar(close)))' in \(frame.isObject ? "an object" : "an array"), found \(found())")
                }
                i += 1
                frames.removeLast()
                if frame.isObject {
                    var members: [JSONMember] = []
                    members.reserveCapacity(values.count - frame.valueStart)
                    for (key, member) in zip(keys[frame.keyStart...], values[frame.valueStart...]) {
                        members.append(JSONMember(key, member))
                    }
                    keys.removeSubrange(frame.keyStart...)
                    value = .object(members)
                } else {
                    value = .array(Array(values[frame.valueStart...]))
                }
                values.removeSubrange(frame.valueStart...)
            }
        }
    }

    /// Reads `"key"` and the `:` after it.
    private mutating func parseKey() throws(ArchiveJSONError) -> String {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
            throw fail("expected a member name in quotes, found \(found())")
        }
        let key = try parseString()
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
            throw fail("expected ':' after a member name, found \(found())")
        }
        i += 1
        return key
    }

    private mutating func expectLiteral(_ word: StaticString) throws(ArchiveJSONError) {
        let count = word.utf8CodeUnitCount
        let matches = bytes.count - i >= count && word.withUTF8Buffer { w in
            (0..<count).allSatisfy { bytes[i + $0] == w[$0] }
        }
        guard matches else { throw fail("unexpected \(found())") }
        i += count
    }

    private mutating func parseNumber() throws(ArchiveJSONError) -> String {
        let start = i
        func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("expected a digit, found \(found())") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { throw fail("a number must not have leading zeros", at: start) }
        } else {
            _ = digits(&i, bytes)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&i, bytes) > 0 else { throw fail("expected a digit after '.', found \(found())") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&i, bytes) > 0 else { throw fail("expected a digit in the exponent, found \(found())") }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: UInt32(b - 0x30)
        case 0x41...0x46: UInt32(b - 0x41 + 10)
        case 0x61...0x66: UInt32(b - 0x61 + 10)
        default: nil
        }
    }

    private mutating func parseHex4() throws(ArchiveJSONError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw fail("expected 4 hex digits after \\u, found end of data") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let d = hexDigit(bytes[i]) else { throw fail("expected a hex digit in \\u escape, found \(found())") }
            value = value << 4 | d
            i += 1
        }
        return value
    }

    /// Appends the UTF-8 form of a scalar value (surrogates were excluded by the caller).
    private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18 & 0x07))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func parseString() throws(ArchiveJSONError) -> String {
        let open = i
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<i], as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: open)
                }
                i += 1
                return text
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            i += 1
        }
        var buffer = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw fail("unterminated string starting at offset \(open)", at: open) }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: open)
                }
                return text
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    let escapeStart = i - 2
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("a high surrogate \\u escape without its low surrogate", at: escapeStart)
                        }
                        i += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw fail("a high surrogate \\u escape without its low surrogate", at: escapeStart)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw fail("a lone low surrogate \\u escape", at: escapeStart)
                    }
                    appendUTF8(scalar, to: &buffer)
                default:
                    throw fail("unknown escape '\\\(Character(UnicodeScalar(e)))'", at: i - 2)
                }
            default:
                guard b >= 0x20 else { throw fail("a control character (0x\(String(b, radix: 16))) inside a string must be escaped") }
                buffer.append(b)
                i += 1
            }
        }
    }
}
