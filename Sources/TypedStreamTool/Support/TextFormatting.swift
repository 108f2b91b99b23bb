/// Small text helpers shared by the subcommands: hex, quoted byte strings, sizes and times.
enum TextFormatting {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `0x1a3`.
    static func hexOffset(_ offset: Int) -> String { "0x" + String(offset, radix: 16) }

    /// An offset as 8 hex digits, for columns: `000001a3`.
    static func paddedHex(_ value: Int, width: Int = 8) -> String {
        let text = String(value, radix: 16)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// `84 01 40`; with more than `limit` bytes, the first `limit − 1` and `…` (limit 0: all).
    static func hexBytes(_ bytes: some Collection<UInt8>, limit: Int = 0) -> String {
        var out: [UInt8] = []
        let truncate = limit > 0 && bytes.count > limit
        let shown = truncate ? limit - 1 : bytes.count
        out.reserveCapacity(shown * 3 + 4)
        for (position, byte) in bytes.prefix(shown).enumerated() {
            if position > 0 { out.append(0x20) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        var text = String(decoding: out, as: UTF8.self)
        if truncate { text += shown > 0 ? " …" : "…" }
        return text
    }

    /// Bytes as a double-quoted string: UTF-8 decoded, control characters, quotes and invalid
    /// bytes escaped (`\n`, `\"`, `\xff`), cut after `limit` characters with `…`.
    static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 48) -> String {
        let buffer = Array(bytes)
        var text = "\""
        var index = 0
        var count = 0
        while index < buffer.count {
            if count == limit {
                text += "…"
                break
            }
            let byte = buffer[index]
            if byte < 0x80 {
                text += escapeASCII(byte)
                index += 1
            } else if let (scalar, length) = printableScalar(buffer[...], at: index) {
                text.unicodeScalars.append(scalar)
                index += length
            } else {
                text += "\\x" + paddedHex(Int(byte), width: 2)
                index += 1
            }
            count += 1
        }
        return text + "\""
    }

    /// The scalar of the valid multi-byte UTF-8 sequence at `index`, with its length, when it
    /// is neither a control nor a format character (what the quoting of `tokens`, `inspect`
    /// and error messages prints as it is); else `nil`.
    static func printableScalar(_ bytes: ArraySlice<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, index + length <= bytes.endIndex else { return nil }
        var iterator = bytes[index..<index + length].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else { return nil }
        let category = scalar.properties.generalCategory
        guard category != .control, category != .format else { return nil }
        return (scalar, length)
    }

    private static func escapeASCII(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x20..<0x7F: return String(UnicodeScalar(byte))
        default: return "\\x" + paddedHex(Int(byte), width: 2)
        }
    }

    /// `12.3 MB` (decimal units, as Finder shows them).
    static func byteCount(_ count: Int) -> String {
        if count < 1000 { return "\(count) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(count) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return oneDecimal(value) + " " + units[unit]
    }

    /// `1:05` or `1:02:03` for a number of seconds.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }

    /// A number with one decimal: `3.4`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
