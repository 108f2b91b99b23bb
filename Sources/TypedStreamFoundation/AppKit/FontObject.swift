import TypedStream

/// AppKit's `NSFont` (versions 21 and 30) as `NSArchiver` writes it:
///
/// ```text
/// "i" + "[Nc]"   encodePropertyList: — a data object holding an old NeXT binary property list,
///                which is the font name as a string (NeXTSTEP-encoded or UTF-16)
/// "f"            the point size
/// "c" "c" "c" "c"  four separate one-byte groups whose meaning is not known (kept as read)
/// ```
///
/// Both versions have this layout in every archive checked (OPENSTEP 4 and Mac OS X nibs,
/// Grapher documents); other versions throw `unsupportedVersion` and stay generic.
///
/// ```swift
/// let font = FontObject(name: "Helvetica", size: 12)
/// font.name                 // "Helvetica"
/// font.propertyList         // the name as a UTF-16 property-list string
/// ```
public final class FontObject: ArchivableObject, CustomStringConvertible {
    /// The archived versions this codec understands.
    public static let supportedVersions: [Int64] = [21, 30]

    /// The chain as archived (`NSFont` v21 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = FontObject.defaultChain
    /// The property list as archived: a string with the font name. Kept whole so its encoding,
    /// byte-order mark and padding are written back unchanged.
    public var propertyList: NeXTPlistValue = "Helvetica"
    /// The point size.
    public var size: Float = 12
    /// The four bytes after the size, one `"c"` group each; their meaning is unknown. Values
    /// seen: `0 1 0 n` with n in 0…14.
    public var trailingBytes: [Int8] = FontObject.commonTrailingBytes

    /// `NSFont` v21 : `NSObject` v0 — what OPENSTEP and Mac OS X nibs hold.
    public static let defaultChain = [ArchiveClassLink("NSFont", version: 21), .nsObject]
    /// `0 1 0 0`, the most common trailing bytes in real nibs (used for new fonts).
    public static let commonTrailingBytes: [Int8] = [0, 1, 0, 0]

    /// Creates a 12-point Helvetica (replaced by ``decodeContents(with:)`` when decoding).
    public init() {}

    /// Creates a font; the name is stored as a little-endian UTF-16 property-list string.
    public init(name: String, size: Float, trailingBytes: [Int8] = FontObject.commonTrailingBytes) {
        self.propertyList = NeXTPlistValue(name)
        self.size = size
        self.trailingBytes = trailingBytes
    }

    /// The font name (`"LucidaGrande-Bold"`). Setting it stores a new string in the encoding of
    /// the old one (NeXTSTEP when possible, else UTF-16 in the old byte order).
    public var name: String {
        get { propertyList.stringValue ?? "" }
        set {
            if let old = propertyList.plistString, old.encoding == .nextstep,
               let string = NeXTPlistString(nextstep: newValue) {
                propertyList = .string(string)
            } else {
                propertyList = NeXTPlistValue(newValue, byteOrder: propertyList.plistString?.byteOrder ?? .littleEndian)
            }
        }
    }

    /// Reads the property list, size and trailing bytes. Throws ``CoderError``:
    /// `unsupportedVersion` for another `NSFont` version, `badContents` when the property list
    /// does not decode or is not a string.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "NSFont", oneOf: Self.supportedVersions)
        let offset = decoder.objectOffset
        let payload = try decoder.decodeDataObject()
        let plist: NeXTPlistValue
        do { plist = try NeXTBinaryPlist.decode(payload) } catch {
            throw CoderError(.badContents, at: offset, "NSFont property list: \(error.description)")
        }
        guard plist.plistString != nil else {
            throw CoderError(.badContents, at: offset, "NSFont property list is a \(plist.typeCode.name), not a string")
        }
        propertyList = plist
        size = try decoder.decode()
        trailingBytes = []
        for _ in 0..<4 { trailingBytes.append(try decoder.decode()) }
    }

    /// Writes the property list, size and trailing bytes. Throws ``CoderError`` `invalidValue`
    /// unless there are exactly four trailing bytes.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        guard trailingBytes.count == 4 else {
            throw CoderError(.invalidValue, "NSFont needs 4 trailing bytes, has \(trailingBytes.count)")
        }
        try encoder.encodeDataObject(NeXTBinaryPlist.encode(propertyList))
        try encoder.encode(size)
        for byte in trailingBytes { try encoder.encode(byte) }
    }

    /// "LucidaGrande 13.0".
    public var description: String { "\(name) \(size)" }
}
