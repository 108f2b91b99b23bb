import TypedStream

/// NeXTSTEP's `Font` (versions 0 and 2), the font object of NeXTSTEP 1–3 nibs and documents:
///
/// ```text
/// version 2 (NeXTSTEP 2 and 3):  "%fss"   name (an atom), point size, style, flags
/// version 0 (NeXTSTEP 1):        "*fss"   name (a C string), point size, style, flags
///                                "[6f]"   the font matrix (a, b, c, d, tx, ty), when there is one
/// ```
///
/// `style` and `flags` are the `short`s the class archives after the size; every archive seen
/// has style 0, and flags such as 2, 0x4000, 0x8002 and 0x8802 (the bits of NeXT's private font
/// flags, which are not documented; kept as read). Version 0 fonts are seen with the flipped
/// matrix `1 0 0 -1 0 0` and without a matrix group (the object ends after `"*fss"`); which of
/// the two a font had is kept. Other versions throw `unsupportedVersion` and stay generic.
///
/// The values are kept as read (the name's atom or C-string form, integer widths), so decoding
/// and encoding give the same bytes.
///
/// ```swift
/// let font = try Unarchiver(bytes: nib, registry: .foundation).decodeRootObject() as? NeXTFontObject
/// font?.name        // "Helvetica-Bold"
/// font?.size        // 12
/// ```
public final class NeXTFontObject: ArchivableObject, CustomStringConvertible {
    /// The archived versions this codec understands.
    public static let supportedVersions: [Int64] = [0, 2]

    /// The chain as archived (`Font` v2 : `Object` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = NeXTFontObject.defaultChain
    /// The name, size, style and flags as archived (`%fss`, or `*fss` for version 0).
    private var head: [ArchivedValue] = [
        .sharedString(ArraySlice("Helvetica".utf8), decision: nil), .float(12, form: nil),
        .integer(0, width: nil), .integer(0, width: nil),
    ]
    /// The matrix group of version 0, as archived.
    private var matrixValues: [ArchivedValue]?
    /// The groups as read (type-string sharing and all), written back while the values are
    /// unchanged; any setter drops them.
    private var readGroups: [ArchivedGroup]?

    /// `Font` v2 : `Object` v0.
    public static let defaultChain = [ArchiveClassLink("Font", version: 2), .object]

    /// Creates a 12-point Helvetica (replaced by ``decodeContents(with:)`` when decoding).
    public init() {}

    /// Creates a version 2 font.
    public init(name: String, size: Float, style: Int16 = 0, flags: Int16 = 0) {
        self.name = name
        self.size = size
        self.style = style
        self.flags = flags
    }

    /// The archived class version (0 or 2).
    public var version: Int64 { archiveClassChain.first?.version ?? 2 }

    /// The font name (`"Helvetica-Bold"`), read in the NeXTSTEP character set.
    public var name: String {
        get {
            switch head[0] {
            case .sharedString(let text?, _): return NeXTSTEPCharacterSet.decode(text)
            case .cString(let entry?, _): return NeXTSTEPCharacterSet.decode(entry.text)
            default: return ""
            }
        }
        set {
            readGroups = nil
            let bytes = NeXTSTEPCharacterSet.encode(newValue) ?? Array(newValue.utf8)
            head[0] = version == 0 ? .cString(ArchivedCString(text: bytes), referenceWidth: nil)
                                   : .sharedString(ArraySlice(bytes), decision: nil)
        }
    }

    /// The point size.
    public var size: Float {
        get { (try? Float(archivedValue: head[1])) ?? 0 }
        set { readGroups = nil; head[1] = .float(newValue, form: nil) }
    }

    /// The style `short` (0 in every archive seen).
    public var style: Int16 {
        get { (try? Int16(archivedValue: head[2])) ?? 0 }
        set { readGroups = nil; head[2] = .integer(Int64(newValue), width: nil) }
    }

    /// The flags `short`, as archived (meaning not documented).
    public var flags: Int16 {
        get { (try? Int16(archivedValue: head[3])) ?? 0 }
        set { readGroups = nil; head[3] = .integer(Int64(newValue), width: nil) }
    }

    /// The font matrix of a version 0 font (six floats), else `nil`.
    public var matrix: [Float]? {
        guard case .array(let elements)? = matrixValues?.first else { return nil }
        return elements.map { (try? Float(archivedValue: $0)) ?? 0 }
    }

    private var headTypes: String { version == 0 ? "*fss" : "%fss" }

    /// Reads the groups of the archived version. Throws ``CoderError``: `unsupportedVersion` for
    /// a `Font` version other than 0 and 2, `typeMismatch` when the groups have other types.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "Font", oneOf: Self.supportedVersions)
        guard decoder.nextGroupHasTypeString(headTypes) else {
            throw CoderError(.typeMismatch, at: decoder.nextGroupOffset, "Font version \(version) needs a '\(headTypes)' group, found '\(decoder.peekTypeString() ?? "the end of the object")'")
        }
        let first = try decoder.decodeGroup()
        head = first.values
        _ = try Float(archivedValue: head[1])
        _ = try Int16(archivedValue: head[2])
        _ = try Int16(archivedValue: head[3])
        var groups = [first]
        matrixValues = nil
        if version == 0, decoder.nextGroupHasTypeString("[6f]") {
            let matrix = try decoder.decodeGroup()
            matrixValues = matrix.values
            groups.append(matrix)
        }
        readGroups = groups
    }

    /// Writes the groups of the font's version (the matrix group when a version 0 font has one).
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        if let readGroups {
            for group in readGroups { try encoder.encodeGroup(group, objects: [:]) }
            return
        }
        try encoder.encodeValues(head, ofObjCTypes: headTypes)
        if version == 0, let matrixValues {
            try encoder.encodeValues(matrixValues, ofObjCTypes: "[6f]")
        }
    }

    /// "Helvetica-Bold 12.0".
    public var description: String { "\(name) \(size)" }
}
