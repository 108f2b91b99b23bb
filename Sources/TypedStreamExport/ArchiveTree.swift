import ObjCTypeEncoding
import TypedStream

/// Renders an ``Archive`` as an indented tree for people: one object per line with its class
/// chain and versions, its values beneath it, references as `→ #n`.
///
/// ```
/// "@" #0 NSMutableArray v0 : NSArray v0 : NSObject v0
///   "i" 2
///   "@" #3 NSString v1 : NSObject v0
///     "+" "first"
///   "@" → #3 NSString
/// ```
///
/// Object numbers are the object-table slots of the archive (what references use), so they
/// match `typedstream tokens` and `inspect`.
public struct ArchiveTree {
    /// How much to show.
    public struct Options: Sendable {
        /// Longest string or data preview, in characters. Default 120.
        public var previewLength = 120
        /// Deepest object nesting printed; deeper objects print as `…`. Default 256.
        public var maximumDepth = 256
        /// Creates the defaults.
        public init() {}
    }

    private var lines: [String] = []
    private var printed = Set<ObjectIdentifier>()
    private var numbers: [ObjectIdentifier: Int] = [:]
    private var nextNumber = 0
    private let options: Options

    private init(options: Options) { self.options = options }

    /// The tree of `archive`, one line per entry.
    public static func render(_ archive: Archive, options: Options = Options()) -> [String] {
        var tree = ArchiveTree(options: options)
        let h = archive.header
        tree.lines.append("typedstream v\(h.streamerVersion), \(h.byteOrder == .big ? "big-endian" : "little-endian"), system version \(h.systemVersion.value)")
        for group in archive.groups { tree.render(group, depth: 0) }
        return tree.lines
    }

    private func pad(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

    private mutating func number(_ id: ObjectIdentifier, source: Int?) -> Int {
        if let n = numbers[id] { return n }
        let n = source ?? nextNumber
        numbers[id] = n
        nextNumber = max(nextNumber, n + 1)
        return n
    }

    private mutating func render(_ group: ArchivedGroup, depth: Int) {
        let type = group.typeString == nil ? "(untyped)" : "\"\(group.typeText)\""
        if group.values.count == 1 {
            render(group.values[0], type: group.types.first, prefix: type, depth: depth)
        } else {
            lines.append(pad(depth) + type)
            for (value, valueType) in zip(group.values, group.types) { render(value, type: valueType, prefix: "", depth: depth + 1) }
        }
    }

    private func chainText(_ entry: ArchivedClass) -> String {
        entry.chain.map { "\($0.nameText) v\($0.version)" }.joined(separator: " : ")
    }

    private func preview(_ bytes: ArraySlice<UInt8>) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return "<\(bytes.count) bytes, not UTF-8: " + bytes.prefix(options.previewLength / 3).map { hex2($0) }.joined(separator: " ") + (bytes.count > options.previewLength / 3 ? " …" : "") + ">"
        }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default:
                if scalar.value < 0x20 { escaped += "\\u{\(String(scalar.value, radix: 16))}" } else { escaped.unicodeScalars.append(scalar) }
            }
            if escaped.count >= options.previewLength { escaped += "…"; break }
        }
        return "\"\(escaped)\""
    }

    private func hex2(_ b: UInt8) -> String { b < 16 ? "0" + String(b, radix: 16) : String(b, radix: 16) }

    /// The integer as its type reads it: unsigned types reinterpret the sign-extended value.
    static func integerText(_ v: Int64, _ type: ObjCType?) -> String {
        switch type?.unqualified {
        case .unsignedShort?: return "\(UInt16(truncatingIfNeeded: v))"
        case .unsignedInt?, .unsignedLong?: return "\(UInt32(truncatingIfNeeded: v))"
        case .unsignedLongLong?: return "\(UInt64(bitPattern: v))"
        default: return "\(v)"
        }
    }

    private mutating func render(_ value: ArchivedValue, type: ObjCType?, prefix: String, depth: Int) {
        let lead = pad(depth) + (prefix.isEmpty ? "" : prefix + " ")
        switch value {
        case .integer(let v, _): lines.append(lead + Self.integerText(v, type))
        case .float(let x, _): lines.append(lead + "\(x)")
        case .double(let x, _): lines.append(lead + "\(x)")
        case .byte(let b):
            let unsigned = type?.unqualified == .unsignedChar || type?.unqualified == .bool
            lines.append(lead + (unsigned ? "\(b)" : "\(Int8(bitPattern: b))") + (b >= 0x80 ? " (0x\(hex2(b)))" : ""))
        case .bytes(let payload):
            lines.append(lead + "<\(payload.count) bytes: " + payload.prefix(16).map { hex2($0) }.joined(separator: " ") + (payload.count > 16 ? " …" : "") + ">")
        case .unsharedString(let payload, _): lines.append(lead + (payload.map(preview) ?? "NULL"))
        case .sharedString(let text, _): lines.append(lead + (text.map(preview) ?? "NULL"))
        case .cString(let entry, _): lines.append(lead + (entry.map { "C string " + preview($0.text) } ?? "NULL"))
        case .classObject(let entry, _): lines.append(lead + (entry.map { "class " + chainText($0) } ?? "Nil"))
        case .objectSlotClass(let entry, _): lines.append(lead + "→ class " + chainText(entry))
        case .ignored: lines.append(lead + "(ignored)")
        case .array(let values):
            lines.append(lead + "[\(values.count) elements]")
            var element: ObjCType? = nil
            if case .array(_, let e)? = type?.unqualified { element = e }
            for v in values { render(v, type: element, prefix: "", depth: depth + 1) }
        case .structure(let values):
            lines.append(lead + "{")
            var fields: [ObjCType?] = Array(repeating: nil, count: values.count)
            if case .structure(_, let f)? = type?.unqualified, f.count == values.count { fields = f.map(\.type) }
            for (v, t) in zip(values, fields) { render(v, type: t, prefix: "", depth: depth + 1) }
            lines.append(pad(depth) + "}")
        case .object(let entry, _):
            guard let entry else { return lines.append(lead + "nil") }
            let id = ObjectIdentifier(entry)
            let n = number(id, source: entry.sourceIndex)
            if printed.contains(id) {
                return lines.append(lead + "→ #\(n) \(entry.className)")
            }
            printed.insert(id)
            guard depth < options.maximumDepth else { return lines.append(lead + "#\(n) \(entry.className) …") }
            lines.append(lead + "#\(n) " + chainText(entry.archivedClass))
            for group in entry.groups { render(group, depth: depth + 1) }
        }
    }
}
