/// Maps a model's name to the name of its thumbnail side file in `thumbnails/`, safely.
///
/// The scheme (reversible for every name whose escaped form fits in ``maximumStemLength`` bytes):
///
/// 1. Take the name's UTF-8 bytes. Keep `a`–`z`, `0`–`9`, `-` and `_` as they are; write every
///    other byte as `%` and two **uppercase** hex digits (`A` → `%41`, `/` → `%2F`, `.` → `%2E`,
///    NUL → `%00`, `é` → `%C3%A9`). So no file name holds `/`, NUL, `..`, a leading dot or an
///    uppercase letter outside a hex pair.
/// 2. Append ``fileExtension`` after a dot (the only unescaped dot in the name).
/// 3. If the escaped stem is longer than ``maximumStemLength`` bytes, use instead its first
///    ``hashedPrefixLength`` bytes (cut at a whole escape), `~`, and the SHA-256 of the name's
///    UTF-8 bytes in lowercase hex. Such names are collision-free but not reversible; `~` never
///    appears in a reversible name, so the two kinds cannot clash.
///
/// No two names map to file names that differ only in letter case (literal letters are always
/// lowercase, hex digits always uppercase, and `%` fixes which is which), so the scheme is safe on
/// case-insensitive file systems; and every file name is ASCII, so Unicode normalisation by the
/// file system (HFS+ decomposes) cannot change it. Empty and nil names have no thumbnail (as in the original
/// `initWithCoder:`, which only loads one when the name is not empty).
///
/// ```swift
/// ThumbnailName.fileName(for: "Sunrise")  // "%53unrise.thumbnail"
/// ThumbnailName.fileName(for: "../etc")   // "%2E%2E%2Fetc.thumbnail"
/// ```
public enum ThumbnailName {
    /// `"thumbnail"`: the extension of every side file.
    public static let fileExtension = "thumbnail"
    /// Escaped stems longer than this (in bytes) are shortened with a digest.
    public static let maximumStemLength = 200
    /// How much of a long escaped stem is kept in front of the digest.
    public static let hashedPrefixLength = 120

    private static func isLiteral(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The side file's name for `modelName`, or `nil` when the name is nil or empty.
    public static func fileName(for modelName: String?) -> String? {
        guard let modelName, !modelName.isEmpty else { return nil }
        var stem: [UInt8] = []
        var escapeStarts: [Int] = []
        for byte in modelName.utf8 {
            escapeStarts.append(stem.count)
            if isLiteral(byte) {
                stem.append(byte)
            } else {
                stem.append(0x25)
                stem.append(hexDigits[Int(byte >> 4)])
                stem.append(hexDigits[Int(byte & 0xF)])
            }
        }
        if stem.count > maximumStemLength {
            let cut = escapeStarts.last(where: { $0 <= hashedPrefixLength }) ?? 0
            stem = Array(stem[..<cut]) + Array("~".utf8) + Array(SHA256.hexDigest(of: Array(modelName.utf8)).utf8)
        }
        return String(decoding: stem, as: UTF8.self) + "." + fileExtension
    }

    /// The model name a side file stands for, or `nil` when the file name is not one this scheme
    /// makes reversibly (a digest name, a foreign file, a bad escape).
    public static func modelName(forFileName fileName: String) -> String? {
        let suffix = "." + fileExtension
        guard fileName.hasSuffix(suffix) else { return nil }
        let stem = Array(fileName.utf8.dropLast(suffix.utf8.count))
        guard !stem.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var i = 0
        while i < stem.count {
            let byte = stem[i]
            if isLiteral(byte) {
                bytes.append(byte)
                i += 1
            } else if byte == 0x25, i + 2 < stem.count, let high = hexValue(stem[i + 1]), let low = hexValue(stem[i + 2]) {
                let decoded = high << 4 | low
                // A byte that should have been kept literally was not escaped by this scheme.
                if isLiteral(decoded) { return nil }
                bytes.append(decoded)
                i += 3
            } else {
                return nil
            }
        }
        guard let name = String(validating: bytes, as: UTF8.self), Self.fileName(for: name) == fileName else { return nil }
        return name
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        default: nil
        }
    }
}
