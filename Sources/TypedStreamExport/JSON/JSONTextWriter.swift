/// A fast, streaming JSON text writer: values go straight into a byte buffer, with commas,
/// indentation and string escapes handled here.
///
/// When pretty-printing, each container is laid out in one of three ways (see ``Layout``):
/// one element per line, all on one line, or "hugging" — its members on the line where it opens,
/// with only a nested multi-line container breaking the line:
///
/// ```json
/// {"type": "@", "values": [
///   {"object": 4, "class": [{"ref": 1}], "groups": [
///     {"type": "i", "values": [35]}
///   ]}
/// ]}
/// ```
struct JSONTextWriter {
    /// How a container is laid out when pretty-printing.
    enum Layout {
        /// One element per line, indented one level deeper than the line the container opens on.
        case block
        /// Everything on one line (and so is everything inside).
        case inline
        /// Elements follow each other on the opening line; a nested block container's elements
        /// are indented one level from that line.
        case hug
    }

    private struct Frame {
        var layout: Layout
        var count: Int
        /// The indentation level of the line the container opens on.
        var lineIndent: Int
    }

    /// The text written so far (UTF-8).
    private(set) var bytes: [UInt8] = []
    /// Whether to indent and space the output.
    let pretty: Bool
    private var frames: [Frame] = []
    private var afterKey = false

    init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let spaces = [UInt8](repeating: 0x20, count: 128)

    private mutating func newline(indent: Int) {
        bytes.append(0x0A)
        var remaining = 2 * indent
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
            if top.layout == .block {
                newline(indent: top.lineIndent + 1)
            } else if top.count > 0 {
                bytes.append(0x20)
            }
        }
        frames[frames.count - 1].count += 1
    }

    private mutating func open(_ bracket: UInt8, _ layout: Layout) {
        separate()
        var effective = pretty ? layout : .inline
        var lineIndent = 0
        if let parent = frames.last {
            if parent.layout == .inline { effective = .inline }
            // Inside a block parent the container opens on an element line (one level in); inside
            // a hugging parent it opens on (or continues) that parent's line.
            lineIndent = parent.layout == .block ? parent.lineIndent + 1 : parent.lineIndent
        }
        frames.append(Frame(layout: effective, count: 0, lineIndent: lineIndent))
        bytes.append(bracket)
    }

    private mutating func close(_ bracket: UInt8) {
        guard let top = frames.popLast() else { return }
        if top.layout == .block, top.count > 0 { newline(indent: top.lineIndent) }
        bytes.append(bracket)
    }

    /// Opens an object.
    mutating func beginObject(_ layout: Layout = .block) { open(UInt8(ascii: "{"), layout) }
    /// Closes the innermost object.
    mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Opens an array.
    mutating func beginArray(_ layout: Layout = .block) { open(UInt8(ascii: "["), layout) }
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
    /// one line, and an object whose only container is its last member hugs it.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray(elements.allSatisfy(\.isScalar) ? .inline : .block)
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            // All scalars: one line. Only the last member a container: hug it. Else a block.
            let layout: Layout = members.dropLast().allSatisfy(\.value.isScalar) ? (members.last?.value.isScalar ?? true ? .inline : .hug) : .block
            beginObject(layout)
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
