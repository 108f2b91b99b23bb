import TypedStream

/// AppKit's `NSColor` (version 0) as `NSArchiver` writes it: a `"c"` kind byte, then the
/// components for that kind.
///
/// | kind | colour space | groups after the kind |
/// |---|---|---|
/// | 1 | `NSCalibratedRGBColorSpace` | `"ffff"` red, green, blue, alpha |
/// | 2 | `NSDeviceRGBColorSpace` | `"ffff"` red, green, blue, alpha |
/// | 3 | `NSCalibratedWhiteColorSpace` | `"ff"` white, alpha |
/// | 4 | `NSDeviceWhiteColorSpace` | `"ff"` white, alpha |
/// | 5 | `NSDeviceCMYKColorSpace` | `"fffff"` cyan, magenta, yellow, black, alpha |
/// | 6 | `NSNamedColorSpace` | `"@@@"` catalog `NSString`, name `NSString`, fallback `NSColor` |
///
/// Other kinds (pattern colours, component-based colours of later AppKits) have not been seen in
/// any archive this codec was checked against; decoding one throws `unsupportedVersion`, so the
/// unarchiver keeps that colour as a ``GenericObject`` (and writes it back unchanged).
///
/// ```swift
/// let red = ColorObject(.calibratedRGB(red: 1, green: 0, blue: 0, alpha: 1))
/// red.components          // [1, 0, 0, 1]
/// red.colorSpaceName      // "NSCalibratedRGBColorSpace"
/// ```
public final class ColorObject: ArchivableObject, CustomStringConvertible {
    /// The kind byte NSColor archives first.
    public enum Kind: Int8, Hashable, Sendable, CaseIterable {
        /// 1: calibrated (device-independent) RGB with alpha.
        case calibratedRGB = 1
        /// 2: device RGB with alpha.
        case deviceRGB = 2
        /// 3: calibrated white with alpha.
        case calibratedWhite = 3
        /// 4: device white with alpha.
        case deviceWhite = 4
        /// 5: device CMYK with alpha.
        case deviceCMYK = 5
        /// 6: a named colour from a catalog.
        case named = 6

        /// The AppKit colour-space name (`NSCalibratedRGBColorSpace` …).
        public var colorSpaceName: String {
            switch self {
            case .calibratedRGB: "NSCalibratedRGBColorSpace"
            case .deviceRGB: "NSDeviceRGBColorSpace"
            case .calibratedWhite: "NSCalibratedWhiteColorSpace"
            case .deviceWhite: "NSDeviceWhiteColorSpace"
            case .deviceCMYK: "NSDeviceCMYKColorSpace"
            case .named: "NSNamedColorSpace"
            }
        }

        /// The colour space's short name, as the readable outputs show it: `calibratedRGB`,
        /// `deviceRGB`, `calibratedWhite`, `deviceWhite`, `deviceCMYK`, `named` (a catalogue colour).
        public var shortName: String {
            switch self {
            case .calibratedRGB: "calibratedRGB"
            case .deviceRGB: "deviceRGB"
            case .calibratedWhite: "calibratedWhite"
            case .deviceWhite: "deviceWhite"
            case .deviceCMYK: "deviceCMYK"
            case .named: "named"
            }
        }

        /// The names of the components in archive order (empty for a named colour).
        public var componentNames: [String] {
            switch self {
            case .calibratedRGB, .deviceRGB: ["red", "green", "blue", "alpha"]
            case .calibratedWhite, .deviceWhite: ["white", "alpha"]
            case .deviceCMYK: ["cyan", "magenta", "yellow", "black", "alpha"]
            case .named: []
            }
        }

        /// The type string of the group after the kind byte.
        var componentTypes: String {
            switch self {
            case .calibratedRGB, .deviceRGB: "ffff"
            case .calibratedWhite, .deviceWhite: "ff"
            case .deviceCMYK: "fffff"
            case .named: "@@@"
            }
        }
    }

    /// The colour itself.
    public enum Value {
        /// Kind 1.
        case calibratedRGB(red: Float, green: Float, blue: Float, alpha: Float)
        /// Kind 2.
        case deviceRGB(red: Float, green: Float, blue: Float, alpha: Float)
        /// Kind 3.
        case calibratedWhite(white: Float, alpha: Float)
        /// Kind 4.
        case deviceWhite(white: Float, alpha: Float)
        /// Kind 5.
        case deviceCMYK(cyan: Float, magenta: Float, yellow: Float, black: Float, alpha: Float)
        /// Kind 6: the catalog and colour names (string objects, kept so shared ones stay shared)
        /// and the colour to use when the catalog is not available.
        case named(catalog: StringObject?, name: StringObject?, fallback: ColorObject?)

        /// The kind byte for this value.
        public var kind: Kind {
            switch self {
            case .calibratedRGB: .calibratedRGB
            case .deviceRGB: .deviceRGB
            case .calibratedWhite: .calibratedWhite
            case .deviceWhite: .deviceWhite
            case .deviceCMYK: .deviceCMYK
            case .named: .named
            }
        }
    }

    /// The chain as archived (`NSColor` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = ColorObject.defaultChain
    /// The colour.
    public var value: Value = .deviceWhite(white: 0, alpha: 1)

    /// `NSColor` v0 : `NSObject` v0.
    public static let defaultChain = [ArchiveClassLink("NSColor", version: 0), .nsObject]

    /// Creates opaque device black (replaced by ``decodeContents(with:)`` when decoding).
    public init() {}

    /// Creates a colour.
    public init(_ value: Value) {
        self.value = value
    }

    /// Creates a colour of a numeric kind from its components in archive order (alpha last);
    /// `nil` for ``Kind/named`` or the wrong number of components.
    public convenience init?(kind: Kind, components c: [Float]) {
        switch (kind, c.count) {
        case (.calibratedRGB, 4): self.init(.calibratedRGB(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case (.deviceRGB, 4): self.init(.deviceRGB(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case (.calibratedWhite, 2): self.init(.calibratedWhite(white: c[0], alpha: c[1]))
        case (.deviceWhite, 2): self.init(.deviceWhite(white: c[0], alpha: c[1]))
        case (.deviceCMYK, 5): self.init(.deviceCMYK(cyan: c[0], magenta: c[1], yellow: c[2], black: c[3], alpha: c[4]))
        default: return nil
        }
    }

    /// Creates a named colour with new string objects for its catalog and name.
    public static func named(catalog: String, name: String, fallback: ColorObject?) -> ColorObject {
        ColorObject(.named(catalog: StringObject(catalog), name: StringObject(name), fallback: fallback))
    }

    /// The kind byte.
    public var kind: Kind { value.kind }

    /// The AppKit colour-space name.
    public var colorSpaceName: String { kind.colorSpaceName }

    /// The components in archive order (alpha last); empty for a named colour.
    public var components: [Float] {
        switch value {
        case .calibratedRGB(let r, let g, let b, let a), .deviceRGB(let r, let g, let b, let a): [r, g, b, a]
        case .calibratedWhite(let w, let a), .deviceWhite(let w, let a): [w, a]
        case .deviceCMYK(let c, let m, let y, let k, let a): [c, m, y, k, a]
        case .named: []
        }
    }

    /// The alpha component; for a named colour, its fallback's (1 when there is none).
    public var alpha: Float {
        if case .named(_, _, let fallback) = value { return fallback?.alpha ?? 1 }
        return components.last ?? 1
    }

    /// A named colour's catalog name (`"System"`), else `nil`.
    public var catalogName: String? {
        if case .named(let catalog, _, _) = value { return catalog?.string }
        return nil
    }

    /// A named colour's name (`"controlColor"`), else `nil`.
    public var colorName: String? {
        if case .named(_, let name, _) = value { return name?.string }
        return nil
    }

    /// Reads the kind and the components. Throws ``CoderError``: `unsupportedVersion` for an
    /// `NSColor` version other than 0, an unknown kind, or a named colour whose parts are not
    /// strings and a colour this codec understands (the colour is then kept generic).
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "NSColor", in: 0...0)
        let offset = decoder.objectOffset
        let kindByte: Int8 = try decoder.decode()
        guard let kind = Kind(rawValue: kindByte) else {
            throw CoderError(.unsupportedVersion, at: offset, "NSColor kind \(kindByte) is not understood (supported: 1…6)")
        }
        let values = try decoder.decodeValues(ofObjCTypes: kind.componentTypes)
        if kind == .named {
            let catalog = try decoder.object(for: values[0])
            let name = try decoder.object(for: values[1])
            let fallback = try decoder.object(for: values[2])
            guard catalog == nil || catalog is StringObject, name == nil || name is StringObject,
                  fallback == nil || fallback is ColorObject else {
                throw CoderError(.unsupportedVersion, at: offset, "NSColor named colour whose catalog, name or fallback is not a string or colour this codec understands")
            }
            value = .named(catalog: catalog as? StringObject, name: name as? StringObject, fallback: fallback as? ColorObject)
            return
        }
        var f: [Float] = []
        for v in values { f.append(try Float(archivedValue: v)) }
        guard let parsed = ColorObject(kind: kind, components: f) else {
            throw CoderError(.badContents, at: offset, "NSColor kind \(kind.rawValue) with \(f.count) components")
        }
        value = parsed.value
    }

    /// Writes the kind and the components.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encode(kind.rawValue)
        if case .named(let catalog, let name, let fallback) = value {
            try encoder.encodeValues([encoder.archivedValue(for: catalog), encoder.archivedValue(for: name),
                                      encoder.archivedValue(for: fallback)], ofObjCTypes: "@@@")
            return
        }
        try encoder.encodeValues(components.map(\.archivedValue), ofObjCTypes: kind.componentTypes)
    }

    /// "NSCalibratedRGBColorSpace 1 0 0 1" or "NSNamedColorSpace System controlColor".
    public var description: String {
        if kind == .named { return "\(colorSpaceName) \(catalogName ?? "nil") \(colorName ?? "nil")" }
        return ([colorSpaceName] + components.map { "\($0)" }).joined(separator: " ")
    }
}
