import TypedStream
import TypedStreamFoundation

/// What the reading outputs (the `decode` tree and plain JSON) show for values people want to
/// read rather than decode: fonts, colours, colour lists and RTF text.
///
/// These are added for reading: the tree still shows each object's groups beneath its readable
/// line, and the lossless JSON and the keyed export keep everything needed to write the bytes
/// back.
///
/// | value | tree (after the object's class chain) | plain JSON |
/// |---|---|---|
/// | `NSFont` | `= NSFont "LucidaGrande" 13`; a reference to it `→ #12 NSFont "LucidaGrande" 13` | `{"$class": "NSFont", "name", "size"}` |
/// | NeXT `Font` | `= Font "Helvetica" 12 style 0 flags 0x8802` | `{"$class": "Font", "name", "size", "style", "flags"}` (+ `"matrix"` for version 0) |
/// | `NSColor` | `= NSColor calibratedRGB 1 0 0 1` | `{"$class": "NSColor", "colorSpace": "calibratedRGB", "red", "green", "blue", "alpha"}` |
/// | named `NSColor` | `= NSColor named "System" "controlColor"` | `{"$class": "NSColor", "colorSpace": "named", "catalog", "name", "fallback"}` |
/// | bytes with RTF | a line `RTF text: "…"` beneath the bytes | `"$rtfText"` beside `"$data"` |
public enum ReadableValues {
    /// The classes whose objects get a readable form.
    public static let classNames: Set<String> = ["NSFont", "Font", "NSColor"]

    /// Whether the class named by the UTF-8 bytes `name` is one of ``classNames`` (compared
    /// byte by byte: no string is made, nothing is hashed; asked for every object of a tree).
    static func isReadableClass(_ name: ArraySlice<UInt8>) -> Bool {
        classNameBytes.contains { $0.elementsEqual(name) }
    }

    /// ``classNames`` as UTF-8 bytes.
    private static let classNameBytes: [[UInt8]] = classNames.map { Array($0.utf8) }

    /// The one-line text of a decoded font or colour (`NSColor calibratedRGB 1 0 0 1`), `nil`
    /// for other objects.
    public static func text(_ object: AnyObject) -> String? {
        switch object {
        case let font as FontObject:
            return "NSFont \(quoted(font.name)) \(number(font.size))"
        case let font as NeXTFontObject:
            var text = "Font \(quoted(font.name)) \(number(font.size)) style \(font.style) flags 0x\(String(UInt16(bitPattern: font.flags), radix: 16))"
            if let matrix = font.matrix { text += " matrix [\(matrix.map(number).joined(separator: " "))]" }
            return text
        case let color as ColorObject:
            return "NSColor " + colorText(color)
        default:
            return nil
        }
    }

    /// `calibratedRGB 1 0 0 1`, or `named "System" "controlColor"`.
    static func colorText(_ color: ColorObject) -> String {
        if color.kind == .named {
            return "named \(color.catalogName.map(quoted) ?? "nil") \(color.colorName.map(quoted) ?? "nil")"
        }
        return ([color.kind.shortName] + color.components.map(number)).joined(separator: " ")
    }

    /// The plain-JSON form of a decoded font or colour, `nil` for other objects.
    public static func json(_ object: AnyObject) -> JSONValue? {
        switch object {
        case let font as FontObject:
            return .object([JSONMember("$class", .string("NSFont")), JSONMember("name", .string(font.name)),
                            JSONMember("size", json(font.size))])
        case let font as NeXTFontObject:
            var members = [JSONMember("$class", .string("Font")), JSONMember("name", .string(font.name)),
                           JSONMember("size", json(font.size)), JSONMember("style", .integer(Int64(font.style))),
                           JSONMember("flags", .integer(Int64(font.flags)))]
            if let matrix = font.matrix { members.append(JSONMember("matrix", .array(matrix.map(json)))) }
            return .object(members)
        case let color as ColorObject:
            return colorJSON(color, depth: 0)
        default:
            return nil
        }
    }

    /// A colour's members; a named colour's fallback nests (at most a few levels).
    static func colorJSON(_ color: ColorObject, depth: Int) -> JSONValue {
        var members = [JSONMember("$class", .string("NSColor")), JSONMember("colorSpace", .string(color.kind.shortName))]
        if case .named(let catalog, let name, let fallback) = color.value {
            members.append(JSONMember("catalog", catalog.map { .string($0.string) } ?? .null))
            members.append(JSONMember("name", name.map { .string($0.string) } ?? .null))
            let nested: JSONValue = fallback.map { depth < 8 ? colorJSON($0, depth: depth + 1) : .string("NSColor " + colorText($0)) } ?? .null
            members.append(JSONMember("fallback", nested))
        } else {
            for (name, value) in zip(color.kind.componentNames, color.components) { members.append(JSONMember(name, json(value))) }
        }
        return .object(members)
    }

    /// A colour list as `[{"name", "color"}]`.
    public static func json(_ list: ColorListDocument) -> JSONValue {
        .array(list.entries.map { .object([JSONMember("name", .string($0.name)), JSONMember("color", colorJSON($0.color, depth: 0))]) })
    }

    /// A float as JSON: its shortest spelling.
    static func json(_ x: Float) -> JSONValue {
        x.isFinite ? .number(number(x)) : .string(x.isNaN ? "NaN" : (x < 0 ? "-Infinity" : "Infinity"))
    }

    /// A float as people write it: integral values below 10⁷ without a fraction (`1`, `13`),
    /// others as their shortest spelling (`0.5647059`).
    public static func number(_ x: Float) -> String {
        if x.isFinite, x == x.rounded(), abs(x) < 1e7 { return x == 0 ? "0" : String(Int(x)) }
        return "\(x)"
    }

    /// Text in double quotes, whole, escaped as error messages escape input
    /// (``TextExcerpt``: quotes, backslashes, C0 and C1 control characters).
    static func quoted(_ text: String) -> String {
        TextExcerpt.quoted(text, limit: text.unicodeScalars.count)
    }

    /// The plain text of RTF (or serialized RTFD) bytes, `nil` for other bytes.
    public static func rtfText(_ bytes: ArraySlice<UInt8>) -> String? {
        RTFText.document(in: bytes).map { RTFText.plainText($0) }
    }

    /// The colour list the archive is, when its top-level groups have a colour list's shape
    /// (`"i"`, `"@i"`, then `"@@"` pairs) and it reads as one; else `nil`.
    public static func colorList(_ index: ArchiveIndex) -> ColorListDocument? {
        var reader = TokenReader(bytes: index.bytes)
        var groupTypes: [ArraySlice<UInt8>] = []
        var depth = 0
        // The first three top-level type strings decide, each as soon as it is read: any other
        // archive is left at its first or second group, not read to its end.
        let expected = ["i", "@i", "@@"]
        while groupTypes.count < 3, let token = try? reader.nextCompact() {
            switch token.code {
            case .typeString where depth == 0:
                let type = index.bytes[token.payload]
                guard type.elementsEqual(expected[groupTypes.count].utf8) else { return nil }
                groupTypes.append(type)
            case .untypedGroup where depth == 0: return nil
            case .object where token.form == .new: depth += 1
            case .endOfObject: depth -= 1
            default: break
            }
        }
        guard groupTypes.count >= 2 else { return nil }
        return try? ColorListDocument(bytes: index.bytes)
    }
}
