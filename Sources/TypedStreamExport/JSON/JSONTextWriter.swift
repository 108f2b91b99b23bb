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
struct JSONTextWriter: ~Copyable {
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

    /// The text not yet drained, in a buffer of its own (no copy-on-write checks per byte).
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Whether to indent and space the output.
    let pretty: Bool
    /// The open containers, outermost first, after a frame for the top level: `openCount + 1`
    /// frames in plain memory (no uniqueness check per container opened). A container's frame
    /// is written once where it stays, not copied aside when another opens inside it.
    private var frames: UnsafeMutablePointer<Frame>
    private var frameCapacity = 16
    /// The innermost open container (when `openCount > 0`).
    private var top: Frame {
        unsafeAddress { UnsafePointer(frames + openCount) }
        unsafeMutableAddress { frames + openCount }
    }
    private var openCount = 0
    private var afterKey = false
    /// Bytes drained so far (``totalCount`` is these and the buffered ones).
    private var drainedCount = 0
    /// Where the container opened last starts in the buffer, the indentation level of its line,
    /// and its layout.
    private(set) var lastOpen = (position: 0, lineIndent: 0, layout: Layout.inline)

    /// The deepest indentation level: lines nested deeper are indented as deep as this, so a
    /// line's indentation stays bounded (at 256 nested containers, full indentation would make
    /// each line a kilobyte of spaces and the text hundreds of times longer than the archive).
    static let deepestIndent = 32

    init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        frames = .allocate(capacity: frameCapacity)
        frames.initialize(to: Frame(layout: .block, count: 0, lineIndent: 0))
    }

    deinit {
        base.deallocate()
        frames.deallocate()
    }

    /// The text written so far (UTF-8), since the last drain.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func put(_ a: UInt8, _ b: UInt8) {
        reserve(2)
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func newline(indent: Int) {
        let spaces = 2 * indent
        reserve(1 + spaces)
        base[count] = 0x0A
        (base + count + 1).update(repeating: 0x20, count: spaces)
        count += 1 + spaces
    }

    /// Writes what must come before the next value or key: a comma, a newline and indentation.
    /// Room is made once for all of it.
    @inline(__always)
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard openCount > 0 else { return }
        let comma = top.count > 0 ? 1 : 0
        if pretty, top.layout == .block {
            let spaces = 2 * (top.lineIndent + 1)
            reserve(2 + spaces)
            base[count] = UInt8(ascii: ",")
            count += comma
            base[count] = 0x0A
            (base + count + 1).update(repeating: 0x20, count: spaces)
            count += 1 + spaces
        } else if comma != 0 {
            reserve(2)
            base[count] = UInt8(ascii: ",")
            base[count + 1] = 0x20
            count += pretty ? 2 : 1
        }
        top.count += 1
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8, _ layout: Layout) {
        separate()
        var effective = pretty ? layout : .inline
        var lineIndent = 0
        if openCount > 0 {
            if top.layout == .inline { effective = .inline }
            // Inside a block parent the container opens on an element line (one level in); inside
            // a hugging parent it opens on (or continues) that parent's line.
            lineIndent = top.layout == .block ? min(top.lineIndent + 1, Self.deepestIndent) : top.lineIndent
        }
        if openCount + 1 >= frameCapacity { growFrames() }
        (frames + openCount + 1).initialize(to: Frame(layout: effective, count: 0, lineIndent: lineIndent))
        openCount += 1
        lastOpen = (count, lineIndent, effective)
        put(bracket)
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        guard openCount > 0 else { return }
        if top.layout == .block, top.count > 0 { newline(indent: top.lineIndent) }
        put(bracket)
        openCount -= 1
    }

    private mutating func growFrames() {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
        bigger.moveInitialize(from: frames, count: openCount + 1)
        frames.deallocate()
        frames = bigger
        frameCapacity *= 2
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
    mutating func key(text name: String) {
        separate()
        var name = name
        name.withUTF8 { appendEscaped($0) }
        afterName()
    }

    /// Writes a member name known to need no escapes (a literal of the format). Inlined, so the
    /// name's bytes are copied as constants.
    @inline(__always)
    mutating func key(_ name: StaticString) {
        separate()
        putName(name)
        afterKey = true
    }

    /// `"name": ` (`"name":` when not pretty), with nothing before it.
    @inline(__always)
    private mutating func putName(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        reserve(n + 4)
        base[count] = UInt8(ascii: "\"")
        (base + count + 1).update(from: name.utf8Start, count: n)
        base[count + n + 1] = UInt8(ascii: "\"")
        base[count + n + 2] = UInt8(ascii: ":")
        count += n + 3
        if pretty {
            base[count] = 0x20
            count += 1
        }
    }

    private mutating func afterName() {
        if pretty { put(UInt8(ascii: ":"), 0x20) } else { put(UInt8(ascii: ":")) }
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

    /// Writes `bytes` as a string value when they are valid UTF-8 and answers `true`; answers
    /// `false` and writes nothing when they are not. Printable ASCII with nothing to escape (most
    /// text) is looked at once and copied whole.
    mutating func stringIfUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        let plain = bytes.withUnsafeBufferPointer { text -> Bool in
            guard Self.isPlain(text) else { return false }
            separate()
            reserve(text.count + 2)
            base[count] = UInt8(ascii: "\"")
            if let source = text.baseAddress { (base + count + 1).update(from: source, count: text.count) }
            base[count + 1 + text.count] = UInt8(ascii: "\"")
            count += text.count + 2
            return true
        }
        if plain { return true }
        guard ByteText.isValidUTF8(bytes) else { return false }
        string(utf8: bytes)
        return true
    }

    /// Writes bytes as a string of lowercase hex digits.
    mutating func hexString(_ data: ArraySlice<UInt8>) {
        separate()
        reserve(2 * data.count + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        for b in data {
            base[count] = Self.hexDigits[Int(b >> 4)]
            base[count + 1] = Self.hexDigits[Int(b & 0xF)]
            count += 2
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Writes a number given as valid JSON number text.
    mutating func number(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { put($0) }
    }

    /// Writes an integer.
    mutating func integer(_ value: Int64) {
        separate()
        appendInteger(value)
    }

    /// The digits of `value`, after a minus sign when it is negative.
    private mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            put(UInt8(ascii: "-"))
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

    /// Writes `{"name": value}`: the text ``beginObject(_:)`` with `.inline`, ``key(_:)``,
    /// ``integer(_:)`` and ``endObject()`` write, without opening a container.
    mutating func integerObject(_ name: StaticString, _ value: Int64) {
        separate()
        put(UInt8(ascii: "{"))
        putName(name)
        appendInteger(value)
        put(UInt8(ascii: "}"))
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        if value { put("true") } else { put("false") }
    }

    /// Ends the document with a newline.
    mutating func finishLine() { put(0x0A) }

    /// Moves the text written so far to `out` (for writers that stream: the layout state stays,
    /// so writing goes on as if nothing had moved).
    mutating func drain(into out: inout OutputWriter) {
        out.append(UnsafeRawBufferPointer(start: base, count: count))
        drainedCount += count
        count = 0
    }

    /// The bytes buffered (not drained yet).
    var bufferedCount: Int { count }

    /// Every byte written, drained or not.
    var totalCount: Int { drainedCount + count }

    /// Writes pre-rendered value text (a scalar rendered by another writer).
    mutating func rawValue(_ text: UnsafeBufferPointer<UInt8>) {
        separate()
        put(text)
    }

    /// Writes a pre-rendered member name (a quoted string rendered by another writer).
    mutating func rawKey(_ text: UnsafeBufferPointer<UInt8>) {
        separate()
        put(text)
        afterName()
    }

    /// Inserts `text` into the buffer at `position` (which must not have been drained).
    mutating func insert(_ text: [UInt8], at position: Int) {
        guard !text.isEmpty, position >= 0, position <= count else { return }
        reserve(text.count)
        (base + position + text.count).update(from: base + position, count: count - position)
        text.withUnsafeBufferPointer { (base + position).update(from: $0.baseAddress!, count: text.count) }
        count += text.count
    }

    /// The text from `position` to the end of the buffer.
    func buffered(from position: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + position, count: max(0, count - position))
    }

    /// Forgets the text from `position` on (the layout state is the caller's to keep right).
    mutating func truncate(to position: Int) {
        count = min(max(position, 0), count)
    }

    /// Moves the text to `out` once it passes 64 KiB (as much as `out` buffers by default, so it
    /// goes to the sink without a copy).
    @inline(__always)
    mutating func drainIfLarge(into out: inout OutputWriter) {
        if count >= OutputWriter.defaultCapacity { drain(into: &out) }
    }

    /// Writes `null`.
    mutating func null() {
        separate()
        put("null")
    }

    /// The decimal digits of 0 to 99, two bytes each.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the decimal digits of `value`, two at a time from the last.
    private mutating func appendDigits(_ value: UInt64) {
        if value < 10 {
            put(0x30 + UInt8(truncatingIfNeeded: value))
            return
        }
        var digits = 2
        var bound: UInt64 = 100
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        reserve(digits)
        let pairs = Self.digitPairs.utf8Start
        var end = base + count + digits
        var v = value
        while v >= 100 {
            let q = v / 100
            let pair = Int(truncatingIfNeeded: v &- q &* 100) &* 2
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair + 1]
            v = q
        }
        if v >= 10 {
            let pair = Int(truncatingIfNeeded: v) &* 2
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair + 1]
        } else {
            end -= 1
            end[0] = 0x30 + UInt8(truncatingIfNeeded: v)
        }
        count += digits
    }

    /// Appends `"text"` with JSON escapes; `text` must be valid UTF-8.
    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        reserve(text.count + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        // Text that needs no escape (nearly all) is copied whole.
        let clean = Self.escapeFreePrefix(text)
        if clean == text.count {
            if let source = text.baseAddress { (base + count).update(from: source, count: clean) }
            base[count + clean] = UInt8(ascii: "\"")
            count += clean + 1
            return
        }
        var runStart = 0
        for i in clean..<text.count {
            let b = text[i]
            guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
            if runStart < i { put(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
            runStart = i + 1
            switch b {
            case 0x22: put(0x5C, 0x22)
            case 0x5C: put(0x5C, 0x5C)
            case 0x0A: put(0x5C, UInt8(ascii: "n"))
            case 0x0D: put(0x5C, UInt8(ascii: "r"))
            case 0x09: put(0x5C, UInt8(ascii: "t"))
            default:
                put("\\u00")
                put(Self.hexDigits[Int(b >> 4)], Self.hexDigits[Int(b & 0xF)])
            }
        }
        if runStart < text.count { put(UnsafeBufferPointer(rebasing: text[runStart...])) }
        put(UInt8(ascii: "\""))
    }

    /// Whether every byte of `text` is printable ASCII needing no JSON escape (not a quote, a
    /// backslash, a control character or a byte of 0x80 and above): eight at a time, the last
    /// eight (which may overlap the ones before) as one more word, one at a time below eight.
    @inline(__always)
    static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = text.baseAddress else { return true }
        let n = text.count
        if n < 8 {
            for i in 0..<n {
                let b = start[i]
                if b < 0x20 || b == 0x22 || b == 0x5C || b >= 0x80 { return false }
            }
            return true
        }
        var i = 0
        while true {
            if i > n &- 8 { i = n &- 8 }
            if !isPlainWord(UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)) { return false }
            i &+= 8
            if i >= n { return true }
        }
    }

    /// Whether all eight bytes of `w` are printable ASCII needing no JSON escape.
    @inline(__always)
    private static func isPlainWord(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte below 0x20, 0x22, 0x5C or of 0x80 and above sets its high bit in the result
        // (a borrow can flag a byte above a true hit, never one alone).
        let low = (w &- ones &* 0x20) & ~w
        let quote = w ^ (ones &* 0x22)
        let slash = w ^ (ones &* 0x5C)
        return (w | low | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)) & 0x8080_8080_8080_8080 == 0
    }

    /// How many bytes from the start of `text` need no JSON escape (a quote, a backslash or a
    /// control character), looked at eight at a time.
    @inline(__always)
    static func escapeFreePrefix(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let start = text.baseAddress else { return 0 }
        let n = text.count
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let w = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
            // A byte below 0x20, or equal to 0x22 or 0x5C, sets its high bit in `hit` (bytes of
            // 0x80 and above are cleared first: they never need an escape).
            let low = (w &- ones &* 0x20) & ~w
            let quote = w ^ (ones &* 0x22)
            let slash = w ^ (ones &* 0x5C)
            let hit = (low | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)) & highs
            if hit != 0 { break }
            i += 8
        }
        while i < n {
            let b = start[i]
            if b < 0x20 || b == 0x22 || b == 0x5C { return i }
            i += 1
        }
        return n
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
                key(text: member.key)
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
