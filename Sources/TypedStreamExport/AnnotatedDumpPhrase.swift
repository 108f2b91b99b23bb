import TypedStream

/// An annotation of the annotated dump, written as bytes: the describer appends its pieces, the
/// layout copies the whole into the line. One buffer is reused from token to token, so an
/// annotation costs no allocation; with colour on, each coloured piece carries its ANSI escapes.
struct AnnotatedDumpPhrase {
    /// How a piece of an annotation is coloured.
    enum Style {
        /// Ordinary words.
        case plain
        /// Text from the archive (quoted strings).
        case string
        /// Class names.
        case name
        /// Error messages.
        case error

        /// The escape that starts the style's colour (`nil` for plain text).
        var escape: StaticString? {
            switch self {
            case .plain: nil
            case .string: "\u{1B}[32m"   // green
            case .name: "\u{1B}[1m"      // bold
            case .error: "\u{1B}[31m"    // red
            }
        }

        /// The escape that ends a colour.
        static let reset: StaticString = "\u{1B}[0m"
    }

    /// The annotation so far.
    private(set) var bytes: [UInt8] = []
    /// Whether coloured pieces carry their escapes.
    let useColor: Bool

    init(useColor: Bool) {
        self.useColor = useColor
        bytes.reserveCapacity(256)
    }

    /// Whether nothing has been written.
    var isEmpty: Bool { bytes.isEmpty }

    /// Empties the buffer for the next annotation, keeping its room.
    @inline(__always)
    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    // MARK: - Plain pieces

    /// Appends words.
    @inline(__always)
    mutating func add(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text (for the rare pieces made as strings: reals, type encodings, error reasons).
    @_disfavoredOverload
    mutating func add(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends one ASCII byte.
    @inline(__always)
    mutating func add(byte: UInt8) { bytes.append(byte) }

    /// Appends a decimal integer.
    mutating func addDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        addDecimal(value.magnitude)
    }

    /// Appends a decimal integer.
    @inline(__always)
    mutating func addDecimal(_ value: Int) { addDecimal(Int64(value)) }

    /// Appends a decimal integer.
    mutating func addDecimal(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 + UInt8(truncatingIfNeeded: value))
            return
        }
        var count = 0
        var rest = value
        while rest > 0 {
            rest /= 10
            count += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0x30, count: count))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var v = value
            var i = start + count - 1
            while v > 0 {
                buffer[i] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
                i -= 1
            }
        }
    }

    /// Appends `value` in lowercase hex, zero-padded to at least `digits` digits.
    mutating func addHex(_ value: Int, digits: Int = 8) {
        let magnitude = UInt64(max(value, 0))
        var shown = max(1, min(digits, 16))
        while shown < 16 && magnitude >> (4 * UInt64(shown)) != 0 { shown += 1 }
        for i in 0..<shown {
            bytes.append(AnnotatedDumpText.hexDigitBytes[Int((magnitude >> (4 * UInt64(shown - 1 - i))) & 0xF)])
        }
    }

    /// Appends ` (int16)`-style width names: `inline`, `int16`, `int32`, `int64`.
    mutating func add(_ width: IntegerWidth) {
        switch width {
        case .inline: add("inline")
        case .int16: add("int16")
        case .int32: add("int32")
        case .int64: add("int64")
        }
    }

    // MARK: - Styled pieces

    /// Starts a piece in `style` (its colour, when colouring).
    @inline(__always)
    mutating func begin(_ style: Style) {
        if useColor, let escape = style.escape { add(escape) }
    }

    /// Ends a piece started with ``begin(_:)``.
    @inline(__always)
    mutating func end(_ style: Style) {
        if useColor, style.escape != nil { add(Style.reset) }
    }

    /// Appends archive text as a quoted string in the string colour, at most `limit` characters
    /// (``TextExcerpt/quoted(_:limit:)``: the same text, without making a `String` when the
    /// text is plain ASCII).
    mutating func addQuoted(_ text: ArraySlice<UInt8>, limit: Int) {
        begin(.string)
        appendQuoted(text, limit: limit)
        end(.string)
    }

    /// Appends the quoted form of `text` (``TextExcerpt/quoted(_:limit:)``), unstyled.
    mutating func appendQuoted(_ text: ArraySlice<UInt8>, limit: Int) {
        let shown = min(text.count, max(limit, 0))
        let plain = text.withUnsafeBufferPointer { buffer -> Bool in
            for i in 0..<shown {
                let byte = buffer[i]
                if byte < 0x20 || byte > 0x7E || byte == 0x22 || byte == 0x5C { return false }
            }
            return true
        }
        guard plain else {
            bytes.append(contentsOf: TextExcerpt.quoted(text, limit: limit).utf8)
            return
        }
        // Every byte is one printable character that needs no escape.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text.prefix(shown))
        bytes.append(UInt8(ascii: "\""))
        if shown < text.count { add("…") }
    }

    /// Appends a class name in the name colour, as `String(decoding:as:)` shows it (bytes that
    /// are not UTF-8 become replacement characters). An empty name adds nothing, not even its
    /// colour.
    mutating func addName(_ name: ArraySlice<UInt8>) {
        guard !name.isEmpty else { return }
        begin(.name)
        addLossy(name)
        end(.name)
    }

    /// Appends text as `String(decoding:as:)` shows it: the bytes themselves when UTF-8.
    mutating func addLossy(_ text: ArraySlice<UInt8>) {
        if ByteText.isValidUTF8(text) {
            bytes.append(contentsOf: text)
        } else {
            bytes.append(contentsOf: String(decoding: text, as: UTF8.self).utf8)
        }
    }

    /// Appends `text` in `style`; empty text adds nothing.
    @_disfavoredOverload
    mutating func add(_ text: String, _ style: Style) {
        guard !text.isEmpty else { return }
        begin(style)
        add(text)
        end(style)
    }
}
