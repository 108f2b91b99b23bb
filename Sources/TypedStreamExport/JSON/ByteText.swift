import TypedStream

/// Byte helpers shared by the JSON exporters and the command line: UTF-8 validity, hex and
/// base64.
public enum ByteText {
    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), so that a JSON string can carry them exactly.
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.withUnsafeBufferPointer({ ASCIIScan.prefixCount($0) == $0.count }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func nibble(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    /// The bytes spelled by a string of hex digits (either case), or `nil` when the length is
    /// odd or a character is not a hex digit.
    static func bytes(fromHex text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes(fromHex: $0) }
    }

    /// The bytes spelled by hex digits (either case) in UTF-8 `text`, or `nil` when the length is
    /// odd or a character is not a hex digit (``firstNonHexDigit(in:)`` says where).
    public static func bytes(fromHex text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        let count = text.count / 2
        guard count > 0, let digits = text.baseAddress else { return [] }
        var valid = true
        // The loop is what a line of `sqlite3 … hex(blob)` output costs per byte: sixteen digits
        // at a time as two words (``hexWord(_:)``), the rest through the table, on raw pointers
        // (every index is below `count`; the table has 256 entries).
        let result = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let output = buffer.baseAddress!
            var refused: UInt64 = 0
            var i = 0
            while i &+ 8 <= count {
                let low = hexWord(UInt64(littleEndian: UnsafeRawPointer(digits + 2 &* i).loadUnaligned(as: UInt64.self)))
                let high = hexWord(UInt64(littleEndian: UnsafeRawPointer(digits + (2 &* i &+ 8)).loadUnaligned(as: UInt64.self)))
                refused |= low.refused | high.refused
                let word = UInt64(low.bytes) | UInt64(high.bytes) &<< 32
                UnsafeMutableRawPointer(output + i).storeBytes(of: word.littleEndian, as: UInt64.self)
                i &+= 8
            }
            hexValues.withUnsafeBufferPointer { table in
                let values = table.baseAddress!
                var badTail: UInt8 = 0
                while i < count {
                    let high = values[Int(digits[2 &* i])], low = values[Int(digits[2 &* i &+ 1])]
                    badTail |= high | low
                    output[i] = high &<< 4 | low & 0x0F
                    i &+= 1
                }
                valid = refused == 0 && badTail & 0x10 == 0
            }
            initialized = count
        }
        return valid ? result : nil
    }

    /// The four bytes spelled by the eight hex digits in `word` (the first digit in its lowest
    /// byte), first byte lowest, and the high bit of each byte of `word` that is not a hex digit
    /// (`refused` is 0 when all eight are): each test is made on the eight bytes at once, which
    /// cannot carry into each other while they are ASCII (below 0x80).
    @inline(__always)
    static func hexWord(_ word: UInt64) -> (bytes: UInt32, refused: UInt64) {
        let high: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each byte of `x &+ (0x80 - lo)` is set when the byte is at least lo.
        let digit = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646) & high      // 0x30...0x39
        let folded = word | 0x2020_2020_2020_2020                                                     // A-F → a-f
        let letter = (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x1919_1919_1919_1919) & high // 0x61...0x66
        let refused = (word | ~(digit | letter)) & high
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter &>> 7) &* 9
        var packed = (nibbles & 0x000F_000F_000F_000F) &<< 4 | (nibbles &>> 8) & 0x000F_000F_000F_000F
        packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed &>> 16) & 0xFFFF_FFFF
        return (UInt32(truncatingIfNeeded: packed), refused)
    }

    /// The index of the first byte of `text` that is not a hex digit, if any.
    public static func firstNonHexDigit(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        text.firstIndex { hexValues[Int($0)] & 0x10 != 0 }
    }

    /// Per byte: its hex digit value, or `0x10` when it is not a hex digit.
    private static let hexValues: [UInt8] = (0...255).map { nibble(UInt8($0)) ?? 0x10 }

    /// Parses `0x` followed by exactly `digits` hex digits.
    static func bitPattern(_ text: String, digits: Int) -> UInt64? {
        let utf8 = Array(text.utf8)
        guard utf8.count == digits + 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X") else { return nil }
        var value: UInt64 = 0
        for c in utf8.dropFirst(2) {
            guard let n = nibble(c) else { return nil }
            value = value << 4 | UInt64(n)
        }
        return value
    }

    /// `0x` and `digits` lowercase hex digits of `value`.
    static func bitPatternText(_ value: UInt64, digits: Int) -> String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }

    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 (RFC 4648, with padding).
    static func base64(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let remaining = bytes.endIndex - i
            let b0 = UInt32(bytes[i])
            let b1 = remaining > 1 ? UInt32(bytes[i + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(base64Alphabet[Int(triple >> 18 & 0x3F)])
            out.append(base64Alphabet[Int(triple >> 12 & 0x3F)])
            out.append(remaining > 1 ? base64Alphabet[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? base64Alphabet[Int(triple & 0x3F)] : UInt8(ascii: "="))
            i += min(3, remaining)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of standard base64 text (RFC 4648), ignoring whitespace; padding optional.
    /// `nil` for any other character or a dangling sixth bit group.
    static func bytes(fromBase64 text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes(fromBase64: $0) }
    }

    /// The bytes of standard base64 text (RFC 4648) given as UTF-8, ignoring whitespace; padding
    /// optional. `nil` for any other character or a dangling sixth bit group.
    public static func bytes(fromBase64 text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3 + 2)
        var accumulator: UInt32 = 0, bits = 0, padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard bits < 6, padding <= 2 else { return nil }
        return out
    }
}
