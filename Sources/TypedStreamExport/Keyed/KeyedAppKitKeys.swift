import TypedStream
import TypedStreamFoundation

/// Apple's keyed names for fonts and colours, written beside the `TSGroups` of a generic
/// `NSFont` or `NSColor` object so that keyed readers find the values under the keys
/// `-[NSFont initWithCoder:]` and `-[NSColor initWithCoder:]` read; `TSGroups` stays, and is
/// what `convert --to typedstream` reads back. The mapping is documented in
/// docs/keyed-mapping.md ("Fonts", "Colours").
enum KeyedAppKitKeys {
    /// Adds the keys for `object` when it is an `NSFont` (versions 21, 30) or `NSColor`
    /// (version 0, kinds 1–6) of the layout the codecs read; any other shape gets none.
    static func encode(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        guard let link = object.archiveClassChain.first else { return }
        switch link.name {
        case "NSFont" where FontObject.supportedVersions.contains(link.version):
            try encodeFont(object, with: encoder)
        case "NSColor" where link.version == 0:
            try encodeColor(object, with: encoder)
        default:
            break
        }
    }

    /// `NSName` (a string object) and `NSSize` (a real). `NSfFlags` is not written: how its
    /// bits relate to the four bytes the typedstream holds after the size is not known.
    private static func encodeFont(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        var name: String?
        var size: Float?
        for group in object.groups {
            for value in group.values {
                switch value {
                case .bytes(let payload) where name == nil:
                    name = (try? NeXTBinaryPlist.decode(payload))?.stringValue
                case .float(let x, _) where size == nil && name != nil:
                    size = x
                default: break
                }
            }
        }
        guard let name, let size else { return }
        try encoder.encodeStringObject(name, forKey: "NSName")
        encoder.encode(.real(Double(size)), forKey: "NSSize")
    }

    /// `NSColorSpace` (the kind, 1–6) and the components: `NSRGB`, `NSWhite` or `NSCMYK` as
    /// data holding the numbers as text, space-separated, alpha left out when it is 1, with a
    /// closing NUL (`"1 0 0\0"`); a named colour's `NSCatalogName`, `NSColorName` and `NSColor`
    /// (the fallback colour), references to the objects the typedstream holds.
    private static func encodeColor(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        let groups = object.groups
        guard groups.count == 2, groups[0].values.count == 1, case .byte(let kindByte) = groups[0].values[0],
              let kind = ColorObject.Kind(rawValue: Int8(bitPattern: kindByte)),
              groups[1].typeText == kind.componentTypesText else { return }
        encoder.encode(.integer(Int64(kind.rawValue)), forKey: "NSColorSpace")
        let values = groups[1].values
        if kind == .named {
            try encoder.encode(values[0], of: object, forKey: "NSCatalogName")
            try encoder.encode(values[1], of: object, forKey: "NSColorName")
            try encoder.encode(values[2], of: object, forKey: "NSColor")
            return
        }
        var numbers: [Float] = []
        for value in values {
            guard case .float(let x, _) = value else { return }
            numbers.append(x)
        }
        if numbers.last == 1 { numbers.removeLast() }
        let key = switch kind {
        case .calibratedRGB, .deviceRGB: "NSRGB"
        case .calibratedWhite, .deviceWhite: "NSWhite"
        default: "NSCMYK"
        }
        encoder.encode(.data(Array(numbers.map { "\($0)" }.joined(separator: " ").utf8) + [0]), forKey: key)
    }
}

extension ColorObject.Kind {
    /// The type string of the group after the kind byte, as text.
    var componentTypesText: String {
        switch self {
        case .calibratedRGB, .deviceRGB: "ffff"
        case .calibratedWhite, .deviceWhite: "ff"
        case .deviceCMYK: "fffff"
        case .named: "@@@"
        }
    }
}
