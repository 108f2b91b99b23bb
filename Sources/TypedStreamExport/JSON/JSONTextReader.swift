extension JSONValue {
    /// The default bound on JSON nesting (arrays and objects inside each other).
    public static let defaultMaximumDepth = 5000

    /// Parses JSON text (RFC 8259; a leading UTF-8 byte-order mark is skipped). The parser is
    /// iterative, so hostile nesting cannot overflow the stack; nesting deeper than
    /// `maximumDepth` is refused. Throws ``ArchiveJSONError`` with code `syntax` (with the byte
    /// offset) or `limitExceeded`.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(ArchiveJSONError) -> JSONValue {
        var reader = JSONTextReader(bytes: bytes, maximumDepth: maximumDepth)
        let value = try reader.value()
        try reader.finish()
        return value
    }
}

/// JSON text read front to back as a ``JSONPullSource``: whole, or piece by piece from a
/// function that hands out the next bytes, so a document far larger than memory can be walked
/// while only the values taken whole (``value()``) are kept. Strict RFC 8259 (a leading UTF-8
/// byte-order mark is skipped); every error names its byte offset in the text. Nothing
/// recurses: containers stepped into and containers read whole share one nesting bound.
struct JSONTextReader: JSONPullSource {
    /// Appends the next bytes of the text to its argument; returns `true` once the text has
    /// ended.
    typealias Refill = (inout [UInt8]) throws(ArchiveJSONError) -> Bool

    private var bytes: [UInt8]
    /// The offset in the text of `bytes[0]`.
    private var base = 0
    private var i = 0
    private var ended: Bool
    private let refill: Refill?
    private let maximumDepth: Int
    /// The containers stepped into (`true` for an object), innermost last.
    private var open: [Bool] = []
    /// Whether the innermost container stepped into has had no member or element yet.
    private var atFirst = false
    /// Whether the byte-order mark has been looked for.
    private var started = false
    /// The stacks of ``value()``, kept empty between calls.
    private var scratchFrames: [Frame] = []
    private var scratchValues: [JSONValue] = []
    private var scratchKeys: [String] = []
    /// Eight spaces, as one word.
    private static let eightSpaces: UInt64 = 0x2020_2020_2020_2020
    /// The largest stacks kept from one call of ``value()`` to the next.
    private static let keptScratch = 1024

    /// A reader of the whole text `bytes`.
    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.ended = true
        self.refill = nil
        self.maximumDepth = maximumDepth
    }

    /// A reader of the text `refill` hands out piece by piece.
    init(maximumDepth: Int, refill: @escaping Refill) {
        self.bytes = []
        self.ended = false
        self.refill = refill
        self.maximumDepth = maximumDepth
    }

    /// Where the reader is in the text.
    private var offset: Int { base + i }

    /// Makes `bytes[i]` exist if the text goes on; returns whether it does.
    @inline(__always)
    private mutating func more() throws(ArchiveJSONError) -> Bool {
        if i < bytes.count { return true }
        return try load()
    }

    private mutating func load() throws(ArchiveJSONError) -> Bool {
        guard let refill else { return false }
        while i >= bytes.count, !ended {
            base += bytes.count
            i -= bytes.count
            bytes.removeAll(keepingCapacity: true)
            ended = try refill(&bytes)
        }
        return i < bytes.count
    }

    /// Skips a byte-order mark at the very start.
    private mutating func start() throws(ArchiveJSONError) {
        started = true
        // The mark is looked at in place: the first piece is read until it has three bytes.
        while bytes.count < 3, !ended, let refill { ended = try refill(&bytes) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> ArchiveJSONError {
        ArchiveJSONError(.syntax, offset: offset ?? self.offset, reason)
    }

    private mutating func found() -> String {
        guard (try? more()) == true else { return "end of data" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    private mutating func skipWhitespace() throws(ArchiveJSONError) {
        // The bytes at hand are scanned in one loop, eight spaces at a time where a pretty
        // document indents; the next piece is asked for only at their end.
        repeat {
            let end = bytes.count
            i = bytes.withUnsafeBytes { raw in
                var k = i
                while k < end {
                    if k + 8 <= end, raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) == Self.eightSpaces {
                        k += 8
                        continue
                    }
                    switch raw[k] {
                    case 0x20, 0x09, 0x0A, 0x0D: k += 1
                    default: return k
                    }
                }
                return k
            }
            if i < end { return }
        } while try load()
    }

    /// The next byte after whitespace, not taken; `nil` at the end of the text.
    private mutating func nextByte() throws(ArchiveJSONError) -> UInt8? {
        if !started { try start() }
        try skipWhitespace()
        return try more() ? bytes[i] : nil
    }

    /// Throws unless only whitespace is left (call after the document's value).
    mutating func finish() throws(ArchiveJSONError) {
        if try nextByte() != nil { throw fail("unexpected \(found()) after the JSON value") }
    }

    // MARK: - Stepping through containers

    mutating func peekKind() throws(ArchiveJSONError) -> JSONKind {
        guard let b = try nextByte() else { throw fail("expected a value, found end of data") }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw fail("expected a value, found \(found())")
        }
    }

    private mutating func enter(depth: Int) throws(ArchiveJSONError) {
        guard depth < maximumDepth else {
            throw ArchiveJSONError(.limitExceeded, offset: offset, "JSON nesting deeper than \(maximumDepth)")
        }
        i += 1
    }

    mutating func beginObject() throws(ArchiveJSONError) {
        guard try peekKind() == .object else { throw fail("expected an object, found \(found())") }
        try enter(depth: open.count)
        open.append(true)
        atFirst = true
    }

    mutating func beginArray() throws(ArchiveJSONError) {
        guard try peekKind() == .array else { throw fail("expected an array, found \(found())") }
        try enter(depth: open.count)
        open.append(false)
        atFirst = true
    }

    /// After a member or element of the innermost container: `true` when another follows (its
    /// comma taken), `false` when the container closes here (its bracket taken).
    private mutating func continues(isObject: Bool) throws(ArchiveJSONError) -> Bool {
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let b = try nextByte()
        if atFirst {
            atFirst = false
            if b == close {
                i += 1
                return false
            }
            return true
        }
        let what = isObject ? "an object" : "an array"
        guard let b else { throw fail("expected ',' or '\(Character(UnicodeScalar(close)))' in \(what), found end of data") }
        if b == UInt8(ascii: ",") {
            i += 1
            return true
        }
        guard b == close else { throw fail("expected ',' or '\(Character(UnicodeScalar(close)))' in \(what), found \(found())") }
        i += 1
        return false
    }

    mutating func nextKey() throws(ArchiveJSONError) -> String? {
        guard try continues(isObject: true) else {
            open.removeLast()
            return nil
        }
        try skipWhitespace()
        return try parseKey()
    }

    mutating func nextElement() throws(ArchiveJSONError) -> Bool {
        guard try continues(isObject: false) else {
            open.removeLast()
            return false
        }
        return true
    }

    // MARK: - Values read whole

    private struct Frame {
        var isObject: Bool
        /// Where the container's first element sits on the value stack.
        var valueStart: Int
        /// Where its first member name sits on the key stack.
        var keyStart: Int
    }

    /// Reads the next value whole. Finished values wait on one scratch stack (member names on
    /// another) until their container closes, so building a container is linear in its size.
    /// The stacks are the reader's, kept from one call to the next, so the many small values
    /// of a document (a reference, a class link) cost no stacks of their own.
    mutating func value() throws(ArchiveJSONError) -> JSONValue {
        // A value that is no container needs no stack.
        guard let first = try nextByte() else { throw fail("expected a value, found end of data") }
        if first != UInt8(ascii: "{"), first != UInt8(ascii: "[") { return try scalar(first) }
        var frames = scratchFrames
        var values = scratchValues
        var keys = scratchKeys
        scratchFrames = []
        scratchValues = []
        scratchKeys = []
        frames.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        defer {
            // Kept for the next call unless a huge value made them large.
            if values.capacity <= Self.keptScratch, keys.capacity <= Self.keptScratch {
                scratchFrames = frames
                scratchValues = values
                scratchKeys = keys
            }
        }
        while true {
            guard let b = try nextByte() else { throw fail("expected a value, found end of data") }
            var value: JSONValue
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                try enter(depth: open.count + frames.count)
                if try nextByte() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    value = isObject ? .object([]) : .array([])
                } else {
                    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
                    if isObject { keys.append(try parseKey()) }
                    continue
                }
            default:
                value = try scalar(b)
            }
            // Hand the finished value to its container, closing every container that ends here.
            attach: while true {
                guard let frame = frames.last else { return value }
                values.append(value)
                let close = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard let next = try nextByte() else {
                    throw fail("expected ',' or '\(Character(UnicodeScalar(close)))' in \(frame.isObject ? "an object" : "an array"), found end of data")
                }
                if next == UInt8(ascii: ",") {
                    i += 1
                    if frame.isObject {
                        try skipWhitespace()
                        keys.append(try parseKey())
                    }
                    break attach
                }
                guard next == close else {
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

    /// The value that is no container starting with `b`, the next byte.
    private mutating func scalar(_ b: UInt8) throws(ArchiveJSONError) -> JSONValue {
        switch b {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw fail("expected a value, found \(found())")
        }
    }

    /// Reads `"key"` and the `:` after it.
    private mutating func parseKey() throws(ArchiveJSONError) -> String {
        guard try more(), bytes[i] == UInt8(ascii: "\"") else {
            throw fail("expected a member name in quotes, found \(found())")
        }
        let key = try parseString()
        try skipWhitespace()
        guard try more(), bytes[i] == UInt8(ascii: ":") else {
            throw fail("expected ':' after a member name, found \(found())")
        }
        i += 1
        return key
    }

    private mutating func expectLiteral(_ word: StaticString) throws(ArchiveJSONError) {
        let start = offset
        for k in 0..<word.utf8CodeUnitCount {
            guard try more(), bytes[i] == word.utf8Start[k] else {
                throw ArchiveJSONError(.syntax, offset: start, "unexpected \(Self.describe(word.utf8Start[0]))")
            }
            i += 1
        }
    }

    private static func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    /// Takes the digits at the reader; returns how many.
    private mutating func digits(into text: inout [UInt8]) throws(ArchiveJSONError) -> Int {
        var count = 0
        while try more(), bytes[i] >= 0x30, bytes[i] <= 0x39 {
            text.append(bytes[i])
            i += 1
            count += 1
        }
        return count
    }

    /// Reads a number: in place when it lies whole in the bytes at hand and is well formed
    /// (no copy but the string made), else byte by byte (which names the first fault).
    private mutating func parseNumber() throws(ArchiveJSONError) -> String {
        if let text = numberInPlace() { return text }
        return try parseNumberByteByByte()
    }

    /// The number at the reader when it is well formed and ends before the bytes at hand do
    /// (or the text ends there), taken; else `nil`, the reader unmoved.
    private mutating func numberInPlace() -> String? {
        let end = bytes.count
        var k = i
        if k < end, bytes[k] == UInt8(ascii: "-") { k += 1 }
        // Integer part: 0, or a digit 1-9 and more digits.
        guard k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 else { return nil }
        if bytes[k] == UInt8(ascii: "0") {
            k += 1
            if k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 { return nil }
        } else {
            while k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 { k += 1 }
        }
        if k < end, bytes[k] == UInt8(ascii: ".") {
            k += 1
            let digits = k
            while k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 { k += 1 }
            guard k > digits else { return nil }
        }
        if k < end, bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "E") {
            k += 1
            if k < end, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
            let digits = k
            while k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 { k += 1 }
            guard k > digits else { return nil }
        }
        // A number that reaches the end of the bytes at hand may go on in the next piece.
        guard k < end || ended else { return nil }
        let text = text(of: i..<k)
        i = k
        return text
    }

    /// The bytes at hand in `range`, all ASCII or valid UTF-8 already checked, as a string.
    @inline(__always)
    private func text(of range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    private mutating func parseNumberByteByByte() throws(ArchiveJSONError) -> String {
        let start = offset
        var text: [UInt8] = []
        if bytes[i] == UInt8(ascii: "-") {
            text.append(bytes[i])
            i += 1
        }
        guard try more(), bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("expected a digit, found \(found())") }
        if bytes[i] == UInt8(ascii: "0") {
            text.append(bytes[i])
            i += 1
            if try more(), bytes[i] >= 0x30, bytes[i] <= 0x39 { throw fail("a number must not have leading zeros", at: start) }
        } else {
            _ = try digits(into: &text)
        }
        if try more(), bytes[i] == UInt8(ascii: ".") {
            text.append(bytes[i])
            i += 1
            guard try digits(into: &text) > 0 else { throw fail("expected a digit after '.', found \(found())") }
        }
        if try more(), bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            text.append(bytes[i])
            i += 1
            if try more(), bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                text.append(bytes[i])
                i += 1
            }
            guard try digits(into: &text) > 0 else { throw fail("expected a digit in the exponent, found \(found())") }
        }
        return String(decoding: text, as: UTF8.self)
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
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard try more() else { throw fail("expected 4 hex digits after \\u, found end of data") }
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
        let open = offset
        i += 1
        let start = i
        // Fast path: no escapes, and the whole string in the bytes at hand. ASCII text (most
        // of it: names, keys, type strings) needs no UTF-8 check.
        var ascii = true
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let text: String
                if ascii {
                    text = self.text(of: start..<i)
                } else {
                    guard let valid = bytes.withUnsafeBufferPointer({ String(validating: UnsafeBufferPointer(rebasing: $0[start..<i]), as: UTF8.self) }) else {
                        throw fail("invalid UTF-8 in a string", at: open)
                    }
                    text = valid
                }
                i += 1
                return text
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        var buffer = Array(bytes[start..<i])
        while true {
            guard try more() else { throw fail("unterminated string starting at offset \(open)", at: open) }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                // Escapes add valid UTF-8 only, so text copied as ASCII needs no check.
                if ascii { return String(decoding: buffer, as: UTF8.self) }
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: open)
                }
                return text
            case UInt8(ascii: "\\"):
                i += 1
                guard try more() else { throw fail("unterminated escape") }
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
                    let escapeStart = offset - 2
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard try more(), bytes[i] == UInt8(ascii: "\\") else {
                            throw fail("a high surrogate \\u escape without its low surrogate", at: escapeStart)
                        }
                        i += 1
                        guard try more(), bytes[i] == UInt8(ascii: "u") else {
                            throw fail("a high surrogate \\u escape without its low surrogate", at: escapeStart)
                        }
                        i += 1
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
                    throw fail("unknown escape '\\\(Character(UnicodeScalar(e)))'", at: offset - 2)
                }
            default:
                guard b >= 0x20 else { throw fail("a control character (0x\(String(b, radix: 16))) inside a string must be escaped") }
                // Take the run of plain bytes at hand at once.
                let run = i
                while i < bytes.count, bytes[i] >= 0x20, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                    if bytes[i] >= 0x80 { ascii = false }
                    i += 1
                }
                buffer.append(contentsOf: bytes[run..<i])
            }
        }
    }
}
