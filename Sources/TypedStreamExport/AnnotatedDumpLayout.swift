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

    /// A line showing `bytes` (which start at `offset`) and, if given, an annotation indented by
    /// `depth`.
    func dataLine(offset: Int, bytes: ArraySlice<UInt8>, role: ByteRole, depth: Int, phrase: AnnotatedDumpPhrase?) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(bytesPerLine * 4 + 96)
        appendOffset(offset, to: &line)
        line.append(Self.space)
        line.append(Self.space)
        switch role {
        case .undecoded:
            if useColor { line += Color.error }
            appendHex(bytes, to: &line)
            if useColor { line += Color.reset }
        case .decoded(let heads):
            var position = offset
            for byte in bytes {
                if position != offset { line.append(Self.space) }
                let isTag = useColor && byte >= 0x80 && byte <= 0x91 && heads.contains(position)
                if isTag { line += Color.tag }
                line.append(Self.hexDigits[Int(byte >> 4)])
                line.append(Self.hexDigits[Int(byte & 0x0F)])
                if isTag { line += Color.reset }
                position += 1
            }
        }
        appendSpaces(hexPadding(bytes.count) + 2, to: &line)
        line.append(Self.bar)
        for byte in bytes { line.append(byte >= 0x20 && byte <= 0x7E ? byte : UInt8(ascii: ".")) }
        line.append(Self.bar)
        if let phrase, !phrase.parts.isEmpty {
            appendSpaces(bytesPerLine - bytes.count + 2 + 2 * max(depth, 0), to: &line)
            append(phrase, to: &line)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// A line for a token without bytes (array and struct markers, `!` fields): offset,
    /// empty columns, annotation.
    func markerLine(offset: Int, depth: Int, phrase: AnnotatedDumpPhrase) -> String {
        var line: [UInt8] = []
        appendOffset(offset, to: &line)
        appendSpaces(2 + hexPadding(0) + 2 + bytesPerLine + 2 + 2 + 2 * max(depth, 0), to: &line)
        append(phrase, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// The final line of a dump that stopped at damage: `error at offset 0x…: reason`.
    func errorLine(_ error: WireError) -> String {
        var line: [UInt8] = []
        if useColor { line += Color.error }
        line += "error at offset 0x".utf8
        appendOffset(error.offset, to: &line, colored: false)
        line += ": ".utf8
        line += error.reason.utf8
        if useColor { line += Color.reset }
        return String(decoding: line, as: UTF8.self)
    }

    /// Spaces after `count` bytes in the hex column to reach its full width.
    private func hexPadding(_ count: Int) -> Int {
        let used = count == 0 ? 0 : count * 3 - 1
        return max(bytesPerLine * 3 - 1 - used, 0)
    }

    private func appendOffset(_ offset: Int, to line: inout [UInt8], colored: Bool = true) {
        if colored && useColor { line += Color.offset }
        var digits = 8
        while digits < 16 && offset >> (4 * digits) != 0 { digits += 1 }
        var shift = 4 * (digits - 1)
        while shift >= 0 {
            line.append(Self.hexDigits[(offset >> shift) & 0x0F])
            shift -= 4
        }
        if colored && useColor { line += Color.reset }
    }

    private func appendHex(_ bytes: ArraySlice<UInt8>, to line: inout [UInt8]) {
        var first = true
        for byte in bytes {
            if !first { line.append(Self.space) }
            first = false
            line.append(Self.hexDigits[Int(byte >> 4)])
            line.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    /// Runs of 0…64 spaces, appended whole (much faster than appending one at a time).
    private static let spaceRuns: [[UInt8]] = (0...64).map { [UInt8](repeating: space, count: $0) }

    private func appendSpaces(_ count: Int, to line: inout [UInt8]) {
        var remaining = max(count, 0)
        while remaining > 64 {
            line += Self.spaceRuns[64]
            remaining -= 64
        }
        line += Self.spaceRuns[remaining]
    }

    private func append(_ phrase: AnnotatedDumpPhrase, to line: inout [UInt8]) {
        for (style, text) in phrase.parts {
            let color: [UInt8]?
            switch style {
            case .plain: color = nil
            case .string: color = Color.string
            case .name: color = Color.name
            case .error: color = Color.error
            }
            if useColor, let color { line += color }
            line += text.utf8
            if useColor, color != nil { line += Color.reset }
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
