/// A string of the old binary property list, kept as the exact bytes it was written with.
///
/// Two encodings exist on the wire: type 5, the NeXTSTEP 8-bit character set (written by
/// NeXTSTEP and OPENSTEP), and type 6, UTF-16 with a byte-order mark (written by Mac OS X and
/// later, in the byte order of the machine: `FE FF` + big-endian on PowerPC, `FF FE` +
/// little-endian on Intel and Apple silicon). Keeping the bytes means decode → encode gives the
/// same bytes even for text that does not survive a trip through `String` (a lone surrogate,
/// an odd byte count, the unassigned NeXTSTEP bytes `0xFE`/`0xFF`).
///
/// ```swift
/// let name = NeXTPlistString("Helvetica")            // UTF-16, FF FE, little-endian
/// name.string                                          // "Helvetica"
/// NeXTPlistString(nextstep: "Helvetica")?.bytes        // 48 65 6C 76 65 74 69 63 61
/// ```
public struct NeXTPlistString: Hashable, Sendable, CustomStringConvertible {
    /// Which of the two string types the bytes are.
    public enum Encoding: Hashable, Sendable {
        /// Type code 5: one byte per character in the NeXTSTEP character set
        /// (see ``NeXTSTEPCharacterSet``).
        case nextstep
        /// Type code 6: UTF-16, normally starting with a byte-order mark.
        case utf16
    }

    /// The byte order of UTF-16 text.
    public enum ByteOrder: Hashable, Sendable {
        /// Most significant byte first (byte-order mark `FE FF`).
        case bigEndian
        /// Least significant byte first (byte-order mark `FF FE`).
        case littleEndian
    }

    /// Which string type this is.
    public var encoding: Encoding
    /// The string's bytes as written between the length and the padding (for UTF-16 including
    /// the byte-order mark).
    public var bytes: [UInt8]

    /// Creates a string from its wire bytes, as they are.
    public init(encoding: Encoding, bytes: [UInt8]) {
        self.encoding = encoding
        self.bytes = bytes
    }

    /// Creates a UTF-16 string (type 6) with a byte-order mark, as macOS writes it; the default
    /// byte order is that of current Macs (little-endian).
    public init(_ string: String, byteOrder: ByteOrder = .littleEndian) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 + 2 * string.utf16.count)
        func append(_ unit: UInt16) {
            let high = UInt8(unit >> 8), low = UInt8(truncatingIfNeeded: unit)
            switch byteOrder {
            case .bigEndian: bytes += [high, low]
            case .littleEndian: bytes += [low, high]
            }
        }
        append(0xFEFF)
        for unit in string.utf16 { append(unit) }
        self.init(encoding: .utf16, bytes: bytes)
    }

    /// Creates a NeXTSTEP 8-bit string (type 5), or returns nil if the text holds a character
    /// the NeXTSTEP character set lacks.
    public init?(nextstep string: String) {
        guard let bytes = NeXTSTEPCharacterSet.encode(string) else { return nil }
        self.init(encoding: .nextstep, bytes: bytes)
    }

    /// Whether UTF-16 bytes start with a byte-order mark (`FE FF` or `FF FE`); false for
    /// NeXTSTEP strings.
    public var hasByteOrderMark: Bool {
        guard encoding == .utf16, bytes.count >= 2 else { return false }
        return (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
    }

    /// The byte order of UTF-16 bytes, from the byte-order mark (big-endian when there is none,
    /// the Unicode default for external UTF-16); nil for NeXTSTEP strings.
    public var byteOrder: ByteOrder? {
        guard encoding == .utf16 else { return nil }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return .littleEndian }
        return .bigEndian
    }

    /// The text. Bytes that do not decode (a lone surrogate, an odd last byte, an unassigned
    /// NeXTSTEP byte) become U+FFFD; ``bytes`` still holds them.
    public var string: String {
        switch encoding {
        case .nextstep:
            return NeXTSTEPCharacterSet.decode(bytes)
        case .utf16:
            let start = hasByteOrderMark ? 2 : 0
            let bigEndian = byteOrder == .bigEndian
            var units: [UInt16] = []
            units.reserveCapacity((bytes.count - start) / 2)
            var index = start
            while index + 1 < bytes.count {
                let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                index += 2
            }
            var text = String(decoding: units, as: UTF16.self)
            if index < bytes.count { text.append("\u{FFFD}") }
            return text
        }
    }

    /// The text (see ``string``).
    public var description: String { string }
}
