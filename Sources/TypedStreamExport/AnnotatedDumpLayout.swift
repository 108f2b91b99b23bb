import TypedStream

/// Lays out the lines of an annotated dump: offset, hex column, ASCII column, annotation;
/// adds ANSI colours when asked.
///
/// ```
/// 00000010  84 01 40                                          |..@|                type string "@" (new shared string #0)
/// ```
struct AnnotatedDumpLayout {
    /// Bytes per line in the hex and ASCII columns.
    let bytesPerLine: Int
    /// Whether to emit ANSI colour escapes.
    let useColor: Bool

    private enum Color: String {
        case offset = "\u{1B}[36m"   // cyan
        case tag = "\u{1B}[33m"      // yellow
        case string = "\u{1B}[32m"   // green
        case name = "\u{1B}[1m"      // bold
        case error = "\u{1B}[31m"    // red
        static let reset = "\u{1B}[0m"
    }

    init(bytesPerLine: Int, useColor: Bool) {
        self.bytesPerLine = bytesPerLine
        self.useColor = useColor
    }

    /// How the bytes of a line are coloured.
    enum ByteRole {
        /// Decoded bytes; head bytes that are tags (`0x80…0x91`) at `headOffsets` stand out.
        case decoded(headOffsets: [Int])
        /// Bytes the reader could not decode (at or after damage).
        case undecoded
    }

    /// A line showing `bytes` (which start at `offset`) and, if given, an annotation indented by
    /// `depth`.
    func dataLine(offset: Int, bytes: ArraySlice<UInt8>, role: ByteRole, depth: Int, phrase: AnnotatedDumpPhrase?) -> String {
        var line = paint(AnnotatedDumpText.hex(offset), .offset)
        line += "  "
        switch role {
        case .undecoded:
            line += paint(bytes.map(AnnotatedDumpText.hexByte).joined(separator: " "), .error)
        case .decoded(let heads):
            var position = offset
            for byte in bytes {
                if position != offset { line += " " }
                let hex = AnnotatedDumpText.hexByte(byte)
                line += (0x80...0x91).contains(byte) && heads.contains(position) ? paint(hex, .tag) : hex
                position += 1
            }
        }
        var ascii = "|"
        for byte in bytes { ascii.append(AnnotatedDumpText.asciiCharacter(byte)) }
        ascii += "|"
        guard let phrase, !phrase.parts.isEmpty else {
            return line + padding(hexBytes: bytes.count) + "  " + ascii
        }
        line += padding(hexBytes: bytes.count) + "  " + ascii
        line += String(repeating: " ", count: bytesPerLine - bytes.count)
        return line + "  " + indent(depth) + render(phrase)
    }

    /// A line for a token without bytes (array and struct markers, `!` fields): offset,
    /// empty columns, annotation.
    func markerLine(offset: Int, depth: Int, phrase: AnnotatedDumpPhrase) -> String {
        var line = paint(AnnotatedDumpText.hex(offset), .offset)
        line += "  " + padding(hexBytes: 0) + "  " + String(repeating: " ", count: bytesPerLine + 2)
        return line + "  " + indent(depth) + render(phrase)
    }

    /// The final line of a dump that stopped at damage: `error at offset 0x…: reason`.
    func errorLine(_ error: WireError) -> String {
        paint("error at offset 0x\(AnnotatedDumpText.hex(error.offset)): \(error.reason)", .error)
    }

    private func padding(hexBytes count: Int) -> String {
        let used = count == 0 ? 0 : count * 3 - 1
        return String(repeating: " ", count: max(bytesPerLine * 3 - 1 - used, 0))
    }

    private func indent(_ depth: Int) -> String { String(repeating: "  ", count: max(depth, 0)) }

    private func render(_ phrase: AnnotatedDumpPhrase) -> String {
        var out = ""
        for (style, text) in phrase.parts {
            switch style {
            case .plain: out += text
            case .string: out += paint(text, .string)
            case .name: out += paint(text, .name)
            case .error: out += paint(text, .error)
            }
        }
        return out
    }

    private func paint(_ text: String, _ color: Color) -> String {
        useColor ? color.rawValue + text + Color.reset : text
    }
}

extension AnnotatedDumpLayout {
    /// The offsets of the head bytes inside `token` (the bytes whose value may be a tag such
    /// as `0x84` new or `0x81` int16), for colouring. Payload bytes are never included.
    static func headOffsets(of token: Token) -> [Int] {
        var heads: [Int] = []
        let start = token.start
        func integerSize(_ width: IntegerWidth) -> Int {
            switch width {
            case .inline: 1
            case .int16: 3
            case .int32: 5
            case .int64: 9
            }
        }
        /// Records the heads of a shared string at `offset`; returns the offset after it.
        func sharedString(_ text: SharedString, at offset: Int) -> Int {
            heads.append(offset)
            switch text.form {
            case .literal(_, let width):
                heads.append(offset + 1)
                return offset + 1 + integerSize(width) + text.bytes.count
            case .reference(_, let width):
                return offset + integerSize(width)
            }
        }
        switch token.kind {
        case .header:
            heads.append(start + 2 + StreamHeader.signatureLength)
        case .typeString(let text), .sharedString(let text?):
            _ = sharedString(text, at: start)
        case .cString(.literal(_, let text)):
            heads.append(start)
            _ = sharedString(text, at: start + 1)
        case .classLink(.new(_, let name, _)):
            heads.append(start)
            heads.append(sharedString(name, at: start + 1))
        case .integer, .float, .double, .unsharedString, .sharedString(nil), .cString, .object,
             .classLink, .instanceSize, .endOfObject:
            heads.append(start)
        case .byte, .rawBytes, .arrayStart, .arrayEnd, .structStart, .structEnd, .ignored:
            break
        }
        return heads
    }
}
