import TypedStream

/// How the tree quotes text: strings escaped and cut at the preview length, bytes that are not
/// UTF-8 as hex.
extension ArchiveTreeWriter {
    /// A string as the tree shows it: quoted and escaped, cut after the preview length with `…`;
    /// bytes that are not UTF-8 as a hex preview.
    func preview(_ text: ArraySlice<UInt8>, _ out: inout OutputWriter) {
        preview(text, limit: options.previewLength, &out)
    }

    /// ``preview(_:_:)`` cut after `limit` characters.
    func preview(_ text: ArraySlice<UInt8>, limit: Int, _ out: inout OutputWriter) {
        guard ByteText.isValidUTF8(text) else {
            out.append("<")
            out.appendDecimal(text.count)
            out.append(" bytes, not UTF-8: ")
            var first = true
            for b in text.prefix(limit / 3) {
                if !first { out.append(0x20) }
                first = false
                out.appendHex(UInt64(b), digits: 2)
            }
            if text.count > limit / 3 { out.append(" …") }
            out.append(">")
            return
        }
        // Fast path: fewer escaped scalars than the limit, so fewer characters too — the whole
        // text, escaped byte by byte.
        var scalars = 0
        for b in text {
            if b & 0xC0 == 0x80 { continue }
            switch b {
            case 0x0A, 0x09, 0x22, 0x5C: scalars += 2
            case 0..<0x20: scalars += b < 0x10 ? 5 : 6
            default: scalars += 1
            }
        }
        if scalars < limit {
            out.append(UInt8(ascii: "\""))
            for b in text {
                switch b {
                case 0x0A: out.append("\\n")
                case 0x09: out.append("\\t")
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0..<0x20:
                    out.append("\\u{")
                    out.append(String(b, radix: 16))
                    out.append("}")
                default: out.append(b)
                }
            }
            out.append(UInt8(ascii: "\""))
            return
        }
        // As people count characters (grapheme clusters), which only matters near the limit.
        var escaped = ""
        var escapedScalars = 0
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"; escapedScalars += 2
            case "\t": escaped += "\\t"; escapedScalars += 2
            case "\"": escaped += "\\\""; escapedScalars += 2
            case "\\": escaped += "\\\\"; escapedScalars += 2
            default:
                if scalar.value < 0x20 {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                    escapedScalars += scalar.value < 0x10 ? 5 : 6
                } else {
                    escaped.unicodeScalars.append(scalar)
                    escapedScalars += 1
                }
            }
            // Characters never outnumber scalars: count them only once the scalars reach the limit.
            if escapedScalars >= limit, escaped.count >= limit {
                escaped += "…"
                break
            }
        }
        out.append(UInt8(ascii: "\""))
        out.append(escaped)
        out.append(UInt8(ascii: "\""))
    }
}

extension Array where Element == UInt8 {
    /// Appends bytes as text: as they are when UTF-8, else decoded with replacement characters.
    mutating func appendLossy(_ bytes: ArraySlice<UInt8>) {
        if ByteText.isValidUTF8(bytes) { append(contentsOf: bytes) } else { append(contentsOf: String(decoding: bytes, as: UTF8.self).utf8) }
    }
}

extension OutputWriter {
    /// Appends bytes as text: as they are when UTF-8, else decoded with replacement characters
    /// (what `String(decoding:as:)` gives).
    mutating func appendLossy(_ bytes: ArraySlice<UInt8>) {
        if ByteText.isValidUTF8(bytes) { append(bytes) } else { append(String(decoding: bytes, as: UTF8.self)) }
    }
}
