/// The formats a typedstream is most often confused with, told apart by their first bytes: the
/// one place that knows their signatures. The reader names them in its header error, `detect`
/// and the keyed importer choose their parser by them, `carve` looks for them.
public enum ForeignFormat: String, Sendable, CaseIterable {
    /// A binary property list: `bplist` and a two-character version (`bplist00`, the form of
    /// NSKeyedArchiver archives).
    case binaryPropertyList = "binary property list"
    /// GNUstep's own archive format, which starts with the text `GNUstep archive`.
    case gnustepArchive = "GNUstep archive"
    /// An XML document (an XML property list, such as a keyed archive in XML form).
    case xml = "XML"

    /// The first six bytes of every binary property list.
    public static let binaryPropertyListPrefix: [UInt8] = Array("bplist".utf8)
    /// The first eight bytes of a binary property list of version 00, the one version Apple's
    /// keyed archiver writes.
    public static let binaryPropertyList00: [UInt8] = Array("bplist00".utf8)
    /// The first fifteen bytes of a GNUstep archive.
    public static let gnustepArchiveSignature: [UInt8] = Array("GNUstep archive".utf8)

    /// Which of these formats `bytes` start as, if any.
    public static func recognise(_ bytes: [UInt8]) -> ForeignFormat? {
        if bytes.starts(with: binaryPropertyListPrefix) { return .binaryPropertyList }
        if bytes.starts(with: gnustepArchiveSignature) { return .gnustepArchive }
        if xmlStart(bytes) != nil { return .xml }
        return nil
    }

    /// Where the XML markup of `bytes` starts, after a UTF-8 byte-order mark and white space,
    /// when it starts an XML document: `<?xml`, `<!DOCTYPE`, `<plist` or a comment; `nil`
    /// otherwise.
    public static func xmlStart(_ bytes: [UInt8]) -> Int? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 9)]
        return xmlOpenings.contains { head.starts(with: $0) } ? start : nil
    }

    private static let xmlOpenings: [[UInt8]] = ["<?xml", "<!DOCTYPE", "<plist", "<!--"].map { Array($0.utf8) }

    /// The reader's header error for input of this format: a code a caller can act on, and a
    /// reason that names the format.
    public func headerError(_ bytes: [UInt8]) -> WireError {
        switch self {
        case .binaryPropertyList where bytes.starts(with: Self.binaryPropertyList00):
            return WireError(.foreignKeyedArchive, at: 0, "this is a binary property list (bplist00), such as an NSKeyedArchiver archive, not a typedstream")
        case .binaryPropertyList, .xml:
            return WireError(.foreignKeyedArchive, at: 0, "this is a property list, not a typedstream")
        case .gnustepArchive:
            return WireError(.foreignGNUstep, at: 0, "this is a GNUstep archive (header 'GNUstep archive'), a different format from Apple's typedstream")
        }
    }
}
