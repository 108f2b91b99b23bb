import TypedStream

/// Lays out the lines of an annotated dump: offset, hex column, ASCII column, annotation;
/// adds ANSI colours when asked.
///
/// ```
/// 00000010  84 01 40                                         |..@|               type string "@" (new shared string #0)
/// ```
///
/// The ASCII column is padded after its closing bar so that annotations line up; a line with
/// no annotation (the continuation of a wrapped token) ends at the bar.
struct AnnotatedDumpLayout {
    /// Bytes per line in the hex and ASCII columns.
    let bytesPerLine: Int
    /// Whether to emit ANSI colour escapes.
    let useColor: Bool

    private enum Color {
        static let offset: [UInt8] = Array("\u{1B}[36m".utf8)   // cyan
        static let tag: [UInt8] = Array("\u{1B}[33m".utf8)      // yellow
        static let string: [UInt8] = Array("\u{1B}[32m".utf8)   // green
        static let name: [UInt8] = Array("\u{1B}[1m".utf8)      // bold
        static let error: [UInt8] = Array("\u{1B}[31m".utf8)    // red
        static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let space = UInt8(ascii: " ")
    private static let bar = UInt8(ascii: "|")

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

    /// Writes a line showing `bytes` (which start at `offset`) and, if given, an annotation
    /// indented by `depth`.
    func writeDataLine(offset: Int, bytes: ArraySlice<UInt8>, role: ByteRole, depth: Int, phrase: AnnotatedDumpPhrase?,
                       to line: inout OutputWriter) {
        appendOffset(offset, to: &line)
        line.append(Self.space)
        line.append(Self.space)
        switch role {
        case .undecoded:
            if useColor { line.append(Color.error) }
            appendHex(bytes, to: &line)
            if useColor { line.append(Color.reset) }
        case .decoded(let heads):
            if useColor {
                var position = offset
                for byte in bytes {
                    if position != offset { line.append(Self.space) }
                    let isTag = byte >= 0x80 && byte <= 0x91 && heads.contains(position)
                    if isTag { line.append(Color.tag) }
                    line.append(Self.hexDigits[Int(byte >> 4)])
                    line.append(Self.hexDigits[Int(byte & 0x0F)])
                    if isTag { line.append(Color.reset) }
                    position += 1
                }
            } else {
                appendHex(bytes, to: &line)
            }
        }
        line.appendSpaces(hexPadding(bytes.count) + 2)
        line.append(Self.bar)
        if !bytes.isEmpty {
            line.withSpace(bytes.count) { pointer in
                var i = 0
                for byte in bytes {
                    pointer[i] = byte >= 0x20 && byte <= 0x7E ? byte : UInt8(ascii: ".")
                    i += 1
                }
                return i
            }
        }
        line.append(Self.bar)
        if let phrase, !phrase.parts.isEmpty {
            line.appendSpaces(bytesPerLine - bytes.count + 2 + 2 * max(depth, 0))
            append(phrase, to: &line)
        }
        line.append(0x0A)
    }

    /// Writes a line for a token without bytes (array and struct markers, `!` fields): offset,
    /// empty columns, annotation.
    func writeMarkerLine(offset: Int, depth: Int, phrase: AnnotatedDumpPhrase, to line: inout OutputWriter) {
        appendOffset(offset, to: &line)
        line.appendSpaces(2 + hexPadding(0) + 2 + bytesPerLine + 2 + 2 + 2 * max(depth, 0))
        append(phrase, to: &line)
        line.append(0x0A)
    }

    /// Writes the final line of a dump that stopped at damage: `error at offset 0x…: reason`.
    func writeErrorLine(_ error: WireError, to line: inout OutputWriter) {
        if useColor { line.append(Color.error) }
        line.append("error at offset 0x")
        appendOffset(error.offset, to: &line, colored: false)
        line.append(": ")
        line.append(error.reason)
        if useColor { line.append(Color.reset) }
        line.append(0x0A)
    }

    /// Spaces after `count` bytes in the hex column to reach its full width.
    private func hexPadding(_ count: Int) -> Int {
        let used = count == 0 ? 0 : count * 3 - 1
        return max(bytesPerLine * 3 - 1 - used, 0)
    }

    private func appendOffset(_ offset: Int, to line: inout OutputWriter, colored: Bool = true) {
        if colored && useColor { line.append(Color.offset) }
        line.appendHex(UInt64(max(offset, 0)), digits: 8)
        if colored && useColor { line.append(Color.reset) }
    }

    private func appendHex(_ bytes: ArraySlice<UInt8>, to line: inout OutputWriter) {
        guard !bytes.isEmpty else { return }
        line.withSpace(3 * bytes.count) { pointer in
            var i = 0
            for byte in bytes {
                if i > 0 {
                    pointer[i] = Self.space
                    i += 1
                }
                pointer[i] = Self.hexDigits[Int(byte >> 4)]
                pointer[i + 1] = Self.hexDigits[Int(byte & 0x0F)]
                i += 2
            }
            return i
        }
    }

    private func append(_ phrase: AnnotatedDumpPhrase, to line: inout OutputWriter) {
        for (style, text) in phrase.parts {
            let color: [UInt8]?
            switch style {
            case .plain: color = nil
            case .string: color = Color.string
            case .name: color = Color.name
            case .error: color = Color.error
            }
            if useColor, let color { line.append(color) }
            line.append(text)
            if useColor, color != nil { line.append(Color.reset) }
        }
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
        case .byte, .rawBytes, .arrayStart, .arrayEnd, .structStart, .structEnd, .ignored, .untypedGroup:
            break
        }
        return heads
    }
}
