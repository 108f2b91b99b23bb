/// A fast, streaming JSON text writer: values go straight into a byte buffer, with commas,
/// indentation and string escapes handled here. Containers opened `inline` (and everything
/// inside them) stay on one line when pretty-printing.
///
/// ```swift
/// var w = JSONTextWriter(pretty: true)
/// w.beginObject()
/// w.key("a"); w.integer(1)
/// w.endObject()            // w.bytes == "{\n  \"a\": 1\n}"
/// ```
struct JSONTextWriter {
    /// The text written so far (UTF-8).
    private(set) var bytes: [UInt8] = []
    /// Whether to indent and space the output.
    let pretty: Bool
    private var frames: [(inline: Bool, count: Int)] = []
    private var afterKey = false

    init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static let spaces = [UInt8](repeating: 0x20, count: 128)

    private mutating func newline(depth: Int) {
        bytes.append(0x0A)
        var remaining = 2 * depth
        while remaining > 0 {
            let n = min(remaining, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[0..<n])
            remaining -= n
        }
    }

    /// Writes what must come before the next value or key: a comma, a newline and indentation.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let top = frames.last else { return }
        if top.count > 0 { bytes.append(UInt8(ascii: ",")) }
        if pretty {
            if top.inline {
                if top.count > 0 { bytes.append(0x20) }
            } else {
                newline(depth: frames.count)
            }
        }
        frames[frames.count - 1].count += 1
    }

    private mutating func open(_ bracket: UInt8, inline: Bool) {
        separate()
        let inherited = frames.last?.inline ?? false
        frames.append((inline: inline || inherited || !pretty, count: 0))
        bytes.append(bracket)
    }

    private mutating func close(_ bracket: UInt8) {
        guard let top = frames.popLast() else { return }
        if pretty, !top.inline, top.count > 0 { newline(depth: frames.count) }
        bytes.append(bracket)
    }

    /// Opens an object.
    mutating func beginObject(inline: Bool = false) { open(UInt8(ascii: "{"), inline: inline) }
    /// Closes the innermost object.
    mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Opens an array.
    mutating func beginArray(inline: Bool = false) { open(UInt8(ascii: "["), inline: inline) }
    /// Closes the innermost array.
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes a member name; the member's value must follow.
    mutating func key(_ name: String) {
        separate()
        var name = name
        name.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// Writes a string value.
    mutating func string(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// Writes a string value from bytes that are known to be valid UTF-8.
    mutating func string(utf8 text: ArraySlice<UInt8>) {
        separate()
        text.withUnsafeBufferPointer { appendEscaped($0) }
    }

    /// Writes bytes as a string of lowercase hex digits.
    mutating func hexString(_ data: ArraySlice<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.reserveCapacity(bytes.count + 2 * data.count + 1)
        for b in data {
            bytes.append(Self.hexDigits[Int(b >> 4)])
            bytes.append(Self.hexDigits[Int(b & 0xF)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a number given as valid JSON number text.
    mutating func number(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes an integer.
    mutating func integer(_ value: Int64) {
        separate()
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    /// Writes an unsigned integer.
    mutating func unsigned(_ value: UInt64) {
        separate()
        appendDigits(value)
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Ends the document with a newline.
    mutating func finishLine() { bytes.append(0x0A) }

    /// Writes `null`.
    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    private mutating func appendDigits(_ value: UInt64) {
        var v = value
        var count = 1
        while v >= 10 {
            v /= 10
            count += 1
        }
        bytes.append(contentsOf: repeatElement(0x30, count: count))
        var i = bytes.count - 1
        v = value
        repeat {
            bytes[i] = 0x30 + UInt8(v % 10)
            v /= 10
            i -= 1
        } while v > 0
    }

    /// Appends `"text"` with JSON escapes; `text` must be valid UTF-8.
    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for (i, b) in text.enumerated() where b < 0x20 || b == 0x22 || b == 0x5C {
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<i])) }
            runStart = i + 1
            switch b {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            default:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(b >> 4)])
                bytes.append(Self.hexDigits[Int(b & 0xF)])
            }
        }
        if runStart < text.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a parsed or built ``JSONValue``; containers whose elements are all scalars stay on
    /// one line.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray(inline: elements.allSatisfy(\.isScalar))
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject(inline: members.allSatisfy(\.value.isScalar))
            for member in members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }
}

extension JSONValue {
    /// Whether the value is not an array or object.
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// The value as JSON text; `pretty` indents nested containers.
    public func text(pretty: Bool = true) -> [UInt8] {
        var writer = JSONTextWriter(pretty: pretty)
        writer.value(self)
        return writer.bytes
    }
}
