import TypedStream

/// What `--deep` decodes in place: a typedstream held as bytes inside another archive (an
/// `NSData`, a `[Nc]` array, a `StreamTable` entry), within limits on how deep archives nest
/// and how many bytes of nested archives one output reads.
///
/// The budget is shared by every archive of one output (the counter is a reference), so a file
/// of many nested archives and a file of deeply nested ones both stop at the same limits.
public final class NestedArchives: @unchecked Sendable {
    /// Deepest nesting decoded: an archive inside an archive is depth 1. Default 8.
    public let maximumDepth: Int
    /// Most bytes of nested archives decoded in one output. Default 64 MiB.
    public let maximumBytes: Int
    /// Bytes of nested archives decoded so far.
    public private(set) var bytesRead = 0

    /// Creates a budget.
    public init(maximumDepth: Int = 8, maximumBytes: Int = 64 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumBytes = maximumBytes
    }

    /// Whether `bytes` start with a typedstream header (streamer 3 or 4, `typedstream` or
    /// `streamtyped`).
    public static func isTypedstream(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 13, let first = bytes.first, first == 3 || first == 4, bytes[bytes.startIndex + 1] == 11 else { return false }
        return ByteOrder(signature: bytes[bytes.startIndex + 2..<bytes.startIndex + 13]) != nil
    }

    /// The result of looking at bytes for a nested archive.
    public enum Outcome {
        /// Not a typedstream: shown as the bytes they are.
        case notAnArchive
        /// A typedstream, read and checked.
        case archive(ArchiveIndex)
        /// A typedstream that is not decoded: too deep, over the byte budget, or damaged (with
        /// the offset from the nested archive's start); the reason says which.
        case refused(String)
    }

    /// Reads `bytes` as a nested archive at nesting depth `depth` (1 for an archive inside the
    /// file's own), counting them against the budget.
    public func read(_ bytes: ArraySlice<UInt8>, depth: Int) -> Outcome {
        guard Self.isTypedstream(bytes) else { return .notAnArchive }
        guard depth <= maximumDepth else {
            return .refused("not decoded: archives nest deeper than \(maximumDepth) levels")
        }
        guard bytesRead + bytes.count <= maximumBytes else {
            return .refused("not decoded: nested archives pass the \(maximumBytes) bytes allowed for one output")
        }
        bytesRead += bytes.count
        do {
            return .archive(try ArchiveIndex(bytes: Array(bytes)))
        } catch {
            return .refused("damaged at offset 0x\(String(error.offset, radix: 16)) (\(error.offset)) of the nested archive: \(error.reason)")
        }
    }
}
