import TypedStream

/// Lays out the lines of an annotated dump: offset, hex column, ASCII column, annotation;
/// adds ANSI colours when asked.
///
/// ```
/// 00000010  84 01 40                                         |..@|               type string "@" (new shared string #0)
/// ```
///
/// The ASCII column is padded after its closing bar so that annotations line up; a line with
/// no annotation (the continuation of a wrapped token) ends at the bar. Without colour, the
/// offset, hex and ASCII columns of a line are written in one pass from tables straight into
/// the writer's buffer.
struct AnnotatedDumpLayout {
    /// Bytes per line in the hex and ASCII columns.
    let bytesPerLine: Int
    /// Whether to emit ANSI colour escapes.
    let useColor: Bool

    private enum Color {
        static let offset: StaticString = "\u{1B}[36m"   // cyan
        static let tag: StaticString = "\u{1B}[33m"      // yellow
        static let error: StaticString = "\u{1B}[31m"    // red
        static let reset: StaticString = "\u{1B}[0m"
    }

    private static let hexDigits = AnnotatedDumpText.hexDigitBytes
    /// Per byte value: its two hex digits, the first in the low byte.
    private static let hexPairs: [UInt16] = (0..<256).map { byte in
        UInt16(hexDigits[byte >> 4]) | UInt16(hexDigits[byte & 0x0F]) << 8
    }
    /// Per byte value: how the ASCII column shows it.
    private static let asciiColumn: [UInt8] = (0..<256).map { byte in
        byte >= 0x20 && byte <= 0x7E ? UInt8(byte) : UInt8(ascii: ".")
    }
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

    /// Writes a line showing `data[range]` (so starting at offset `range.lowerBound`) and, if
    /// `phrase` is not empty, an annotation indented by `depth`, after `(continued from 0x…) `
    /// when `continuedFrom` gives where the token started.
    func writeDataLine(_ data: [UInt8], _ range: Range<Int>, role: ByteRole, depth: Int,
                       continuedFrom: Int? = nil, phrase: [UInt8], to line: inout OutputWriter) {
        let count = range.count
        if useColor {
            writeColoredColumns(data, range, role: role, to: &line)
        } else {
            // Offset, hex, padding, ASCII: at most 8 + 2 + 767 + 3 + 256 + 1 bytes.
            let lineWidth = 16 + 2 + 3 * bytesPerLine + 2 + 1 + bytesPerLine + 1
            data.withUnsafeBufferPointer { source in
                Self.hexPairs.withUnsafeBufferPointer { pairs in
                    Self.asciiColumn.withUnsafeBufferPointer { ascii in
                        line.withSpace(lineWidth) { pointer in
                            var i = Self.writeOffset(range.lowerBound, to: pointer)
                            pointer[i] = Self.space
                            pointer[i + 1] = Self.space
                            i += 2
                            for position in range {
                                let pair = pairs[Int(source[position])]
                                pointer[i] = UInt8(truncatingIfNeeded: pair)
                                pointer[i + 1] = UInt8(truncatingIfNeeded: pair >> 8)
                                pointer[i + 2] = Self.space
                                i += 3
                            }
                            // The space after the last byte starts the padding.
                            if count > 0 { i -= 1 }
                            let padding = hexPadding(count) + 2
                            (pointer + i).update(repeating: Self.space, count: padding)
                            i += padding
                            pointer[i] = Self.bar
                            i += 1
                            for position in range {
                                pointer[i] = ascii[Int(source[position])]
                                i += 1
                            }
                            pointer[i] = Self.bar
                            return i + 1
                        }
                    }
                }
            }
        }
        if !phrase.isEmpty {
            line.appendSpaces(bytesPerLine - count + 2 + 2 * max(depth, 0))
            if let continuedFrom {
                line.append("(continued from 0x")
                line.appendHex(UInt64(max(continuedFrom, 0)), digits: 8)
                line.append(") ")
            }
            line.append(phrase)
        }
        line.append(0x0A)
    }

    /// The offset, hex and ASCII columns with colours.
    private func writeColoredColumns(_ data: [UInt8], _ range: Range<Int>, role: ByteRole, to line: inout OutputWriter) {
        appendOffset(range.lowerBound, to: &line)
        line.append(Self.space)
        line.append(Self.space)
        switch role {
        case .undecoded:
            line.append(Color.error)
            appendHex(data[range], to: &line)
            line.append(Color.reset)
        case .decoded(let heads):
            for position in range {
                let byte = data[position]
                if position != range.lowerBound { line.append(Self.space) }
                let isTag = byte >= 0x80 && byte <= 0x91 && heads.contains(position)
                if isTag { line.append(Color.tag) }
                line.append(Self.hexDigits[Int(byte >> 4)])
                line.append(Self.hexDigits[Int(byte & 0x0F)])
                if isTag { line.append(Color.reset) }
            }
        }
        line.appendSpaces(hexPadding(range.count) + 2)
        line.append(Self.bar)
        for position in range { line.append(Self.asciiColumn[Int(data[position])]) }
        line.append(Self.bar)
    }

    /// Writes a line for a token without bytes (array and struct markers, `!` fields): offset,
    /// empty columns, annotation.
    func writeMarkerLine(offset: Int, depth: Int, phrase: [UInt8], to line: inout OutputWriter) {
        appendOffset(offset, to: &line)
        line.appendSpaces(2 + hexPadding(0) + 2 + bytesPerLine + 2 + 2 + 2 * max(depth, 0))
        line.append(phrase)
        line.append(0x0A)
    }

    /// Writes the final line of a dump that stopped at damage: `error at offset 0x…: reason`.
    func writeErrorLine(_ error: WireError, to line: inout OutputWriter) {
        if useColor { line.append(Color.error) }
        line.append("error at offset 0x")
        line.appendHex(UInt64(max(error.offset, 0)), digits: 8)
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

    /// Writes `offset` as eight (or more) hex digits at `pointer`; returns how many.
    @inline(__always)
    private static func writeOffset(_ offset: Int, to pointer: UnsafeMutablePointer<UInt8>) -> Int {
        let value = UInt64(max(offset, 0))
        var shown = 8
        while shown < 16 && value >> (4 * UInt64(shown)) != 0 { shown += 1 }
        for i in 0..<shown {
            pointer[i] = hexDigits[Int((value >> (4 * UInt64(shown - 1 - i))) & 0xF)]
        }
        return shown
    }

    private func appendOffset(_ offset: Int, to line: inout OutputWriter) {
        if useColor { line.append(Color.offset) }
        line.appendHex(UInt64(max(offset, 0)), digits: 8)
        if useColor { line.append(Color.reset) }
    }

    private func appendHex(_ bytes: ArraySlice<UInt8>, to line: inout OutputWriter) {
        var first = true
        for byte in bytes {
            if !first { line.append(Self.space) }
            first = false
            line.append(Self.hexDigits[Int(byte >> 4)])
            line.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}

extension AnnotatedDumpLayout {
    /// The offsets of the head bytes inside `token` (the bytes whose value may be a tag such
    /// as `0x84` new or `0x81` int16), for colouring. Payload bytes are never included.
    static func headOffsets(of token: CompactToken) -> [Int] {
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
        /// Records the heads of the token's shared string at `offset`; returns the offset after it.
        func sharedString(at offset: Int) -> Int {
            heads.append(offset)
            if token.textIsReference { return offset + integerSize(token.textWidth) }
            heads.append(offset + 1)
            return offset + 1 + integerSize(token.textWidth) + token.payload.count
        }
        switch token.code {
        case .header:
            heads.append(start + 2 + StreamHeader.signatureLength)
        case .typeString:
            _ = sharedString(at: start)
        case .sharedString where token.form != .null:
            _ = sharedString(at: start)
        case .cString where token.form == .new:
            heads.append(start)
            _ = sharedString(at: start + 1)
        case .classLink where token.form == .new:
            heads.append(start)
            heads.append(sharedString(at: start + 1))
        case .integer, .float, .double, .unsharedString, .sharedString, .cString, .object,
             .classLink, .instanceSize, .endOfObject:
            heads.append(start)
        case .byte, .rawBytes, .arrayStart, .arrayEnd, .structStart, .structEnd, .ignored, .untypedGroup:
            break
        }
        return heads
    }
}
