/// The NeXTSTEP 8-bit character set (`NSNEXTSTEPStringEncoding`, encoding number 2), used by
/// type-5 strings of the old binary property list.
///
/// Bytes `0x00…0x7F` are ASCII, exactly (macOS decodes `0x27` and `0x60` as the ASCII apostrophe
/// and grave accent, although NeXT's own documentation showed curly quotes there). Bytes
/// `0x80…0xFD` follow the NeXT character set as published in the Unicode Consortium's vendor
/// mapping table `VENDORS/NEXT/NEXTSTEP.TXT`; `0xFE` and `0xFF` are unassigned and decode to
/// U+FFFD. Strings keep their raw bytes (see ``NeXTPlistString``), so no byte is ever lost.
public enum NeXTSTEPCharacterSet {
    /// Unicode scalars for bytes `0x80…0xFF`; 0 marks an unassigned byte.
    private static let upperHalf: [UInt32] = [
        // 0x80
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
        0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        // 0x90
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
        0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
        // 0xA0
        0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
        0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
        // 0xB0
        0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
        0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
        // 0xC0
        0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
        0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
        // 0xD0
        0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
        0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
        // 0xE0
        0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
        0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        // 0xF0
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
        0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0, 0,
    ]

    /// Unicode scalar → byte, for the upper half.
    private static let reverse: [UInt32: UInt8] = {
        var map: [UInt32: UInt8] = [:]
        for (index, scalar) in upperHalf.enumerated() where scalar != 0 {
            map[scalar] = UInt8(0x80 + index)
        }
        return map
    }()

    /// The character a byte stands for, or nil for the unassigned bytes `0xFE` and `0xFF`.
    public static func scalar(for byte: UInt8) -> Unicode.Scalar? {
        if byte < 0x80 { return Unicode.Scalar(byte) }
        let value = upperHalf[Int(byte) - 0x80]
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    /// The byte for a character, or nil when the character set has no such character.
    public static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        if scalar.value < 0x80 { return UInt8(scalar.value) }
        return reverse[scalar.value]
    }

    /// Decodes bytes; unassigned bytes become U+FFFD.
    public static func decode(_ bytes: some Sequence<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(scalar(for: byte) ?? "\u{FFFD}") }
        return String(scalars)
    }

    /// Encodes a string, or returns nil if it holds a character the set lacks.
    public static func encode(_ string: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.unicodeScalars.count)
        for scalar in string.unicodeScalars {
            guard let byte = byte(for: scalar) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
