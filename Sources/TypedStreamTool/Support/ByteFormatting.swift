import TypedStreamExport

extension OutputWriter {
    /// Appends bytes as text: as they are when they are UTF-8, else decoded with replacement
    /// characters (what `String(decoding:as:)` shows).
    mutating func appendLossy(_ bytes: ArraySlice<UInt8>) {
        if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
            append(bytes)
        } else {
            append(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Appends bytes as a double-quoted string: UTF-8 shown as text, control characters, quotes
    /// and invalid bytes escaped (`\n`, `\"`, `\xff`), cut after `limit` characters with `…`
    /// (as ``TextFormatting/quoted(_:limit:)`` spells it).
    mutating func appendQuoted(_ bytes: ArraySlice<UInt8>, limit: Int = 48) {
        append(UInt8(ascii: "\""))
        var index = bytes.startIndex
        var count = 0
        while index < bytes.endIndex {
            if count == limit {
                append("…")
                break
            }
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x20..<0x7F: append(byte)
                default: appendEscapedByte(byte)
                }
                index += 1
            } else if let (_, length) = TextFormatting.printableScalar(bytes, at: index) {
                append(bytes[index..<index + length])
                index += length
            } else {
                appendEscapedByte(byte)
                index += 1
            }
            count += 1
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func appendEscapedByte(_ byte: UInt8) {
        append("\\x")
        appendHex(UInt64(byte), digits: 2)
    }

}
