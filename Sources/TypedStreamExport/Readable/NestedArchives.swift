import TypedStream
import TypedStreamFoundation

/// What `--deep` decodes in place: an archive or property list held as bytes inside another
/// archive (an `NSData`, a `[Nc]` array, a `StreamTable` entry, a data value of a nested
/// property list), within limits on how deep archives nest and how many bytes of nested
/// archives one output reads.
///
/// | bytes that | are |
/// |---|---|
/// | start with a typedstream header (streamer 3 or 4) | a nested typedstream |
/// | start with `bplist00` | a binary property list (a keyed archive when its top dictionary has `$archiver`) |
/// | start like XML (``XMLPlistReader/looksLikeXML(_:)``) and name `<plist` in their first 1 KiB | an XML property list |
/// | are at least 8 bytes, start with a NeXT type code (2, 4, 5, 6, 7) and decode to their last byte | an old NeXT binary property list (``NeXTBinaryPlist``) |
///
/// The NeXT list has no signature: bytes that do not decode exactly are shown as bytes, not as
/// a damaged list. Every other kind, once recognised, is either read or refused with the reason
/// (and the offset in the nested bytes).
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

    /// Deepest nesting of arrays and dictionaries inside one nested property list.
    public static let maximumPlistDepth = 64

    /// Creates a budget.
    public init(maximumDepth: Int = 8, maximumBytes: Int = 64 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumBytes = maximumBytes
    }

    /// What nested bytes were recognised as.
    public enum Kind: String, Sendable {
        /// A typedstream.
        case typedstream
        /// A `bplist00` binary property list.
        case binaryPlist
        /// An XML property list.
        case xmlPlist
        /// An old NeXT binary property list (`NSSerializer`).
        case nextPlist

        /// How the outputs name it: `typedstream`, `binary property list` …
        public var title: String {
            switch self {
            case .typedstream: "typedstream"
            case .binaryPlist: "binary property list"
            case .xmlPlist: "XML property list"
            case .nextPlist: "NeXT binary property list"
            }
        }

        /// The plain-JSON `"$plistFormat"` of a property list: `binary`, `xml`, `nextstep`.
        public var plistFormat: String {
            switch self {
            case .typedstream: "typedstream"
            case .binaryPlist: "binary"
            case .xmlPlist: "xml"
            case .nextPlist: "nextstep"
            }
        }
    }

    /// Whether `bytes` start with a typedstream header (streamer 3 or 4, `typedstream` or
    /// `streamtyped`).
    public static func isTypedstream(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 13, let first = bytes.first, first == 3 || first == 4, bytes[bytes.startIndex + 1] == 11 else { return false }
        return ByteOrder(signature: bytes[bytes.startIndex + 2..<bytes.startIndex + 13]) != nil
    }

    /// What `bytes` look like, from their first bytes only (`nil`: none of the kinds; a NeXT
    /// list is only a candidate until it decodes).
    public static func kind(of bytes: ArraySlice<UInt8>) -> Kind? {
        if isTypedstream(bytes) { return .typedstream }
        if bytes.starts(with: ForeignFormat.binaryPropertyList00) { return .binaryPlist }
        if let first = bytes.first, first == 0x3C || first == 0xEF || first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D {
            let head = Array(bytes.prefix(1024))
            if ForeignFormat.xmlStart(head) != nil, contains(head, "<plist") { return .xmlPlist }
        }
        if bytes.count >= 8, [2, 4, 5, 6, 7].contains(bytes.first!), bytes.dropFirst().prefix(3).allSatisfy({ $0 == 0 }) {
            return .nextPlist
        }
        return nil
    }

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<i + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// The result of looking at bytes for a nested archive.
    public enum Outcome {
        /// Not an archive nor a property list: shown as the bytes they are.
        case notAnArchive
        /// A typedstream, read and checked.
        case archive(ArchiveIndex)
        /// A property list, read and checked.
        case plist(NestedPlist)
        /// An archive or property list that is not decoded: too deep, over the byte budget,
        /// or damaged (with the offset from the nested bytes' start); the reason says which.
        case refused(Kind, String)
    }

    /// Reads `bytes` as a nested archive at nesting depth `depth` (1 for an archive inside the
    /// file's own), counting them against the budget.
    public func read(_ bytes: ArraySlice<UInt8>, depth: Int) -> Outcome {
        guard let kind = Self.kind(of: bytes) else { return .notAnArchive }
        if kind == .nextPlist {
            // No signature: only bytes that decode exactly are a list, whatever the budget says.
            guard depth <= maximumDepth, bytesRead + bytes.count <= maximumBytes,
                  let value = try? NeXTBinaryPlist.decode(bytes, maximumDepth: Self.maximumPlistDepth) else { return .notAnArchive }
            bytesRead += bytes.count
            return .plist(NestedPlist(kind: kind, value: PlistNode(value)))
        }
        guard depth <= maximumDepth else {
            return .refused(kind, "not decoded: archives nest deeper than \(maximumDepth) levels")
        }
        guard bytesRead + bytes.count <= maximumBytes else {
            return .refused(kind, "not decoded: nested archives pass the \(maximumBytes) bytes allowed for one output")
        }
        bytesRead += bytes.count
        switch kind {
        case .typedstream:
            do {
                return .archive(try ArchiveIndex(bytes: Array(bytes)))
            } catch {
                return .refused(kind, "damaged at \(WireError.offsetText(error.offset)) of the nested archive: \(error.reason)")
            }
        case .binaryPlist, .xmlPlist:
            var limits = PlistLimits.default
            limits.maximumDepth = Self.maximumPlistDepth
            // Shared objects are shown again wherever they are referred to: at most 16 bytes of
            // values per byte of the list (plus 1 MiB), so the output stays linear in the input.
            limits.expandedBytesPerInputByte = 16
            do {
                let value = kind == .binaryPlist ? try BinaryPlistReader.read(Array(bytes), limits: limits)
                    : try XMLPlistReader.read(Array(bytes), limits: limits)
                return .plist(NestedPlist(kind: kind, value: PlistNode(value)))
            } catch {
                let offset = error.offset ?? 0
                // The readers name the format at the start of their reasons; the line names it already.
                let reason = error.reason.hasPrefix(kind.title + ": ") ? String(error.reason.dropFirst(kind.title.count + 2)) : error.reason
                return .refused(kind, "damaged at \(KeyedArchiveError.offsetText(offset)) of the nested \(kind.title): \(reason)")
            }
        case .nextPlist:
            return .notAnArchive
        }
    }
}

/// A property list read from nested bytes (``NestedArchives``).
public struct NestedPlist: Sendable {
    /// The format it was read from.
    public var kind: NestedArchives.Kind
    /// Its value.
    public var value: PlistNode

    /// Whether it is an `NSKeyedArchiver` archive (its top dictionary has `$archiver`).
    public var isKeyedArchive: Bool {
        if case .dictionary(let entries) = value { return entries.contains { $0.key == "$archiver" } }
        return false
    }

    /// `binary property list (keyed archive)`, `NeXT binary property list` …
    public var title: String { kind.title + (isKeyedArchive ? " (keyed archive)" : "") }
}

/// A value of a nested property list of any of the three formats: the ``PlistValue`` kinds
/// plus the NeXT list's nil. Built with at most ``NestedArchives/maximumPlistDepth`` levels,
/// the readers' bound.
public indirect enum PlistNode: Sendable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A real.
    case real(Double)
    /// A boolean.
    case bool(Bool)
    /// Bytes.
    case data([UInt8])
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// A keyed-archive object reference.
    case uid(UInt32)
    /// The NeXT list's nil.
    case null
    /// An array.
    case array([PlistNode])
    /// A dictionary, keys in order (a NeXT key that is not a string is shown as text).
    case dictionary([(key: String, value: PlistNode)])

    /// The node of a `bplist00` or XML value (the reader bounded its depth).
    init(_ value: PlistValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .real(let r): self = .real(r)
        case .bool(let b): self = .bool(b)
        case .data(let d): self = .data(d)
        case .date(let d): self = .date(d)
        case .uid(let u): self = .uid(u)
        case .array(let elements): self = .array(elements.map(PlistNode.init))
        case .dictionary(let entries): self = .dictionary(entries.map { ($0.key, PlistNode($0.value)) })
        }
    }

    /// The node of a NeXT value (the decoder bounded its depth).
    init(_ value: NeXTPlistValue) {
        switch value {
        case .string(let s, _): self = .string(s.string)
        case .data(let d, _): self = .data(d)
        case .null: self = .null
        case .array(let elements): self = .array(elements.map(PlistNode.init))
        case .dictionary(let entries):
            self = .dictionary(entries.map { ($0.key.stringValue ?? "\($0.key)", PlistNode($0.value)) })
        }
    }
}
