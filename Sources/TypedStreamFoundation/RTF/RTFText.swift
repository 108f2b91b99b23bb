import Foundation

/// The plain text of an RTF document: what NeXT's `Text` objects, Draw's `TextGraphic` and
/// later Cocoa text views archive as `[Nc]` bytes or `NSData` starting with `{\rtf`.
///
/// A small reader, not a renderer: it keeps the characters and turns `\par`, `\line`, `\sect`,
/// `\page`, `\row` into line feeds and `\tab`, `\cell` into tabs, reads `\'hh` escapes in the
/// document's character set (`\ansi` Windows-1252, `\mac` Mac OS Roman, `\pc`/`\pca` code pages
/// 437/850 read as Windows-1252, `\next` NeXTSTEP), `\uN` (with `\ucN` fallback characters
/// skipped, surrogate pairs joined) and the named symbols (`\emdash`, `\bullet`, `\lquote` …),
/// and leaves out ignorable destinations (`\fonttbl`, `\colortbl`, `\stylesheet`, `\info`,
/// `\pict`, headers and footers, `\fldinst`, and every group starting with `\*`).
///
/// It never throws and never traps: unbalanced braces, truncated escapes, numbers of any length
/// and nesting of any depth read as far as they go. Work is one pass over the bytes, the group
/// stack is an array (capped at ``maximumTrackedDepth`` levels; deeper groups share the state of
/// the deepest tracked one, except that an ignorable destination still ends with its group), and the text holds at most one character per input byte.
///
/// ```swift
/// RTFText.plainText(Array(#"{\rtf0\ansi{\fonttbl\f0\fswiss Helvetica;}\f0 Hello\par World}"#.utf8))
/// // "Hello\nWorld"
/// ```
public enum RTFText {
    /// Group nesting tracked with its own state; deeper groups are counted only.
    public static let maximumTrackedDepth = 4096

    /// Whether `bytes` start with `{\rtf`, the signature of an RTF document.
    public static func hasSignature(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    /// The RTF document in `bytes`: all of them when they start with `{\rtf`; in a serialized
    /// RTFD (bytes starting with `rtfd`, the file-wrapper form `NSText` archives), the text
    /// document inside it, from its first `{\rtf`; else `nil`.
    public static func document(in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        if hasSignature(bytes) { return bytes }
        guard bytes.starts(with: rtfdSignature) else { return nil }
        var i = bytes.startIndex
        while i + signature.count <= bytes.endIndex {
            if bytes[i] == signature[0], bytes[i..<i + signature.count].elementsEqual(signature) { return bytes[i...] }
            i += 1
        }
        return nil
    }

    /// `rtfd`, the start of a serialized RTFD.
    static let rtfdSignature: [UInt8] = Array("rtfd".utf8)

    /// `{\rtf`.
    static let signature: [UInt8] = Array(#"{\rtf"#.utf8)

    /// The plain text of the RTF document `bytes` (see ``RTFText``); at most `maximumCharacters`
    /// characters (Unicode scalars), the rest cut.
    public static func plainText(_ bytes: some Collection<UInt8>, maximumCharacters: Int = .max) -> String {
        var reader = RTFTextReader(bytes: Array(bytes), limit: maximumCharacters)
        reader.run()
        return reader.text
    }
}

/// One reading of an RTF document: a state machine over the bytes with an explicit group stack.
private struct RTFTextReader {
    /// The state a group inherits and may change.
    struct GroupState {
        /// Inside an ignorable destination: nothing is kept.
        var skipping = false
        /// Fallback characters to skip after `\uN` (`\ucN`).
        var fallbackCount = 1
    }

    enum Charset { case ansi, mac, next }

    let bytes: [UInt8]
    let limit: Int
    var text = ""
    var scalars = 0
    var position = 0
    var state = GroupState()
    var stack: [GroupState] = []
    /// Groups opened past ``RTFText/maximumTrackedDepth``, still open.
    var untrackedDepth = 0
    /// The untracked depth at which an ignorable destination began, while inside it.
    var untrackedSkipDepth: Int?
    var charset = Charset.ansi
    /// Fallback characters still to skip after a `\uN`.
    var pendingSkip = 0
    /// A high surrogate from `\uN` waiting for its low half.
    var pendingHighSurrogate: UInt32?
    /// The bytes start with `{`: the document ends where that group closes.
    let startedWithGroup: Bool

    init(bytes: [UInt8], limit: Int) {
        self.bytes = bytes
        self.limit = max(0, limit)
        startedWithGroup = bytes.first == UInt8(ascii: "{")
    }

    mutating func run() {
        while position < bytes.count, scalars < limit {
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "{"):
                position += 1
                openGroup()
                pendingSkip = 0
            case UInt8(ascii: "}"):
                position += 1
                closeGroup()
                pendingSkip = 0
                // The document ends with the group it opened with.
                if stack.isEmpty, untrackedDepth == 0, startedWithGroup { return }
            case UInt8(ascii: "\\"):
                controlSequence()
            case 0x0D, 0x0A:
                position += 1
            default:
                position += 1
                if pendingSkip > 0 {
                    pendingSkip -= 1
                } else if b >= 0x20 {
                    emit(byte: b)
                } else if b == 0x09 {
                    emit(0x09)
                }
            }
        }
    }

    // MARK: - Groups

    mutating func openGroup() {
        if stack.count < RTFText.maximumTrackedDepth {
            stack.append(state)
        } else {
            untrackedDepth += 1
        }
    }

    mutating func closeGroup() {
        if untrackedDepth > 0 {
            untrackedDepth -= 1
            if let depth = untrackedSkipDepth, untrackedDepth < depth { untrackedSkipDepth = nil }
        } else if let outer = stack.popLast() {
            state = outer
        }
        // A "}" with no group open is ignored.
    }

    // MARK: - Control words and symbols

    mutating func controlSequence() {
        position += 1
        guard position < bytes.count else { return }
        let c = bytes[position]
        if isLetter(c) {
            let start = position
            while position < bytes.count, isLetter(bytes[position]), position - start < 32 { position += 1 }
            // A word longer than 32 letters: the rest of its letters are dropped.
            while position < bytes.count, isLetter(bytes[position]) { position += 1 }
            let word = bytes[start..<min(start + 32, position)]
            let parameter = readParameter()
            if position < bytes.count, bytes[position] == 0x20 { position += 1 }
            controlWord(String(decoding: word, as: UTF8.self), parameter)
            return
        }
        position += 1
        switch c {
        case UInt8(ascii: "'"):
            // \'hh: a byte in the document's character set; a truncated escape is dropped.
            guard let high = hexValue(at: position), let low = hexValue(at: position + 1) else {
                position = min(position + 2, bytes.count)
                return
            }
            position += 2
            if pendingSkip > 0 { pendingSkip -= 1; return }
            emit(byte: high << 4 | low)
        case UInt8(ascii: "*"):
            skipGroup()
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            if pendingSkip > 0 { pendingSkip -= 1; return }
            emit(UInt32(c))
        case UInt8(ascii: "~"): emit(0xA0)
        case UInt8(ascii: "_"): emit(0x2011)
        case UInt8(ascii: "-"): break
        case 0x0A, 0x0D: emit(0x0A)
        case 0x09: emit(0x09)
        default: break
        }
    }

    /// An optional signed decimal after a control word; digits past ten are read and dropped, and
    /// the value is clamped to `Int32`.
    mutating func readParameter() -> Int? {
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-"),
           position + 1 < bytes.count, isDigit(bytes[position + 1]) {
            negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { return nil }
        var value = 0
        while position < bytes.count, isDigit(bytes[position]) {
            if value < 1 << 40 { value = value * 10 + Int(bytes[position] - 0x30) }
            position += 1
        }
        value = min(value, Int(Int32.max))
        return negative ? -value : value
    }

    /// Destinations whose text is not part of the document's text.
    static let ignoredDestinations: Set<String> = [
        "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "header", "headerl", "headerr", "headerf",
        "footer", "footerl", "footerr", "footerf", "footnote", "fldinst", "listtable", "listoverridetable",
        "revtbl", "rsidtbl", "generator", "xmlnstbl", "themedata", "colorschememapping", "datastore",
        "latentstyles", "filetbl", "bkmkstart", "bkmkend", "expandedcolortbl", "NeXTGraphic", "NeXTHelpMarker",
        "NeXTHelpLink", "pn", "pntext", "comment", "title", "author", "operator", "keywords", "subject", "doccomm",
    ]

    /// Symbols written as control words.
    static let symbols: [String: UInt32] = [
        "emdash": 0x2014, "endash": 0x2013, "emspace": 0x2003, "enspace": 0x2002, "qmspace": 0x2005,
        "bullet": 0x2022, "lquote": 0x2018, "rquote": 0x2019, "ldblquote": 0x201C, "rdblquote": 0x201D,
        "zwj": 0x200D, "zwnj": 0x200C, "ltrmark": 0x200E, "rtlmark": 0x200F,
    ]

    mutating func controlWord(_ word: String, _ parameter: Int?) {
        if Self.ignoredDestinations.contains(word) {
            // Its group (from here to its closing brace) is not text.
            skipGroup()
            return
        }
        switch word {
        case "par", "line", "sect", "page", "row": emit(0x0A)
        case "tab", "cell": emit(0x09)
        case "ansi", "pc", "pca": charset = .ansi
        case "mac": charset = .mac
        case "next", "NeXT": charset = .next
        case "uc": state.fallbackCount = max(0, min(parameter ?? 1, 16))
        case "u":
            guard let parameter else { return }
            // Negative values are the 16-bit value minus 65536, as RTF writers emit them.
            var value = parameter < 0 ? parameter + 65536 : parameter
            if value < 0 || value > 0x10FFFF { value = 0xFFFD }
            emitUnicode(UInt32(value))
            pendingSkip = state.fallbackCount
        default:
            if let symbol = Self.symbols[word] { emit(symbol) }
        }
    }

    /// The rest of the current group is not text.
    mutating func skipGroup() {
        if untrackedDepth > 0 {
            if untrackedSkipDepth == nil { untrackedSkipDepth = untrackedDepth }
        } else {
            state.skipping = true
        }
    }

    // MARK: - Text

    mutating func emitUnicode(_ value: UInt32) {
        if (0xD800...0xDBFF).contains(value) {
            if pendingHighSurrogate != nil { append(0xFFFD) }
            pendingHighSurrogate = value
            return
        }
        if (0xDC00...0xDFFF).contains(value) {
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                return append(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
            }
            return append(0xFFFD)
        }
        append(value)
    }

    mutating func emit(byte: UInt8) {
        guard byte >= 0x80 else { return emit(UInt32(byte)) }
        switch charset {
        case .ansi: emit(RTFCharsets.cp1252[Int(byte - 0x80)])
        case .mac: emit(RTFCharsets.macRoman[Int(byte - 0x80)])
        case .next: emit(NeXTSTEPCharacterSet.scalar(for: byte).map(\.value) ?? 0xFFFD)
        }
    }

    mutating func emit(_ value: UInt32) {
        if pendingHighSurrogate != nil {
            pendingHighSurrogate = nil
            append(0xFFFD)
        }
        append(value)
    }

    mutating func append(_ value: UInt32) {
        guard !state.skipping, untrackedSkipDepth == nil, scalars < limit else { return }
        text.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        scalars += 1
    }

    func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    func hexValue(at i: Int) -> UInt8? {
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case 0x30...0x39: return bytes[i] - 0x30
        case 0x41...0x46: return bytes[i] - 0x41 + 10
        case 0x61...0x66: return bytes[i] - 0x61 + 10
        default: return nil
        }
    }
}

/// The upper halves of the 8-bit character sets RTF's `\'hh` escapes use.
enum RTFCharsets {
    /// Windows-1252, from Foundation's converter.
    static let cp1252: [UInt32] = table(.windowsCP1252)
    /// Mac OS Roman (0xDB as the euro sign, 0xF0 as Apple's private-use logo U+F8FF), written
    /// out: swift-corelibs-foundation's converter reads these bytes as Latin-1.
    static let macRoman: [UInt32] = (
        "ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü" + "†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø"
        + "¿¡¬√ƒ≈∆«»…\u{A0}ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ" + "‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\u{F8FF}ÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ"
    ).unicodeScalars.map(\.value)

    private static func table(_ encoding: String.Encoding) -> [UInt32] {
        (0x80...0xFF).map { (b: Int) -> UInt32 in
            guard let s = String(bytes: [UInt8(b)], encoding: encoding), s.unicodeScalars.count == 1 else {
                // Windows-1252 leaves five bytes undefined; they read as the Latin-1 control they name.
                return encoding == .windowsCP1252 ? UInt32(b) : 0xFFFD
            }
            return s.unicodeScalars.first?.value ?? 0xFFFD
        }
    }
}
