/// One archive `carve` found in a file, or one candidate that turned out damaged: a line of
/// `carved.tsv` and, when it is whole, a file of its own.
struct CarvedItem: Hashable, Sendable {
    /// What was found.
    enum Kind: String, Hashable, Sendable {
        /// A typedstream, raw.
        case typedStream = "typedstream"
        /// An NSKeyedArchiver archive (`bplist00` with `$archiver`), raw.
        case keyedArchive = "keyed-archive"
        /// A typedstream written as base64 text.
        case base64TypedStream = "typedstream-base64"
        /// An NSKeyedArchiver archive written as base64 text.
        case base64KeyedArchive = "keyed-archive-base64"

        /// The extension of the file the archive is written to.
        var fileExtension: String {
            switch self {
            case .typedStream, .base64TypedStream: "typedstream"
            case .keyedArchive, .base64KeyedArchive: "plist"
            }
        }
    }

    /// Whether the archive is whole.
    enum Status: String, Hashable, Sendable {
        /// A whole archive: it decodes from its first byte to its last.
        case ok
        /// A signature, but no whole archive after it.
        case damaged
    }

    /// Where it starts in the file.
    var offset: Int
    /// How many bytes of the file it takes (for base64, the text); for a damaged one, how far
    /// it could be read before the damage. For one put back together from a SQLite payload's
    /// pages, the bytes it takes in the payload.
    var length: Int
    /// What it is.
    var kind: Kind
    /// Whole or damaged.
    var status: Status
    /// For a whole archive what it holds (streamer version, byte order, groups …); for a
    /// damaged one, what is wrong and where.
    var reason: String
    /// The archive's bytes (decoded, for base64), when it is whole.
    var archive: [UInt8]?

    /// The name of the file a whole archive is written to, `OFFSET-LENGTH.EXT` with the offset
    /// in at least 12 digits (so that names sort in file order): `000000001234-5678.typedstream`.
    var fileName: String? {
        guard status == .ok else { return nil }
        let digits = String(offset)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits + "-\(length).\(kind.fileExtension)"
    }

    /// The header of `carved.tsv`.
    static let tableHeader = "offset\tlength\tkind\tstatus\treason\n"

    /// Its line in `carved.tsv`: offset, length, kind, status, reason (tabs and line breaks in
    /// the reason replaced by spaces).
    var tableLine: String {
        let isBreak = { (byte: UInt8) in byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let cleaned = reason.utf8.contains(where: isBreak)
            ? String(decoding: reason.utf8.map { isBreak($0) ? 0x20 : $0 }, as: UTF8.self) : reason
        return "\(offset)\t\(length)\t\(kind.rawValue)\t\(status.rawValue)\t\(cleaned)\n"
    }
}
