import ObjCTypeEncoding
import TypedStream

/// Plain JSON for scripts: the archive's natural values without wire detail.
///
/// Every object becomes `{"$class": "NSFoo", "$id": n, "contents": [values…]}` at its first
/// occurrence (its groups' values flattened in order) and `{"$ref": n}` afterwards; strings are
/// strings, numbers are numbers (unsigned types read as unsigned), `B` values are booleans.
/// Byte arrays, and strings that are not UTF-8, become `{"$data": "<base64>"}`; class values
/// become `{"$classObject": "NSFoo"}`; non-finite reals become `"NaN"`, `"Infinity"`,
/// `"-Infinity"`. The document is `{"systemVersion": n, "values": [top-level values…]}`.
///
/// A higher layer (class codecs) can give objects better values through
/// ``Options/naturalValue``:
///
/// ```swift
/// var options = PlainJSON.Options()
/// options.naturalValue = { object, converter in
///     guard object.className == "NSString" else { return nil }
///     return converter.contents(of: object).first      // the "+" bytes as a string
/// }
/// let text = try PlainJSON.encode(archive, options: options)
/// ```
///
/// Plain JSON is one-way: it cannot be imported back (use ``ArchiveJSON`` for that).
public enum PlainJSON {
    /// Substitutes a natural JSON value for an object, or returns `nil` to keep the generic
    /// form. It is called once, at the object's first occurrence; the converter gives the JSON of
    /// nested values and objects. The value is repeated wherever the object occurs again (when the
    /// object is reached again while its value is being made, it gets `"$id"` and `{"$ref"}`s).
    public typealias NaturalValue = @Sendable (ArchivedObject, inout PlainJSONConverter) -> JSONValue?

    /// How to write plain JSON.
    public struct Options: Sendable {
        /// Indent nested containers. Default `true`.
        public var pretty: Bool
        /// The hook that substitutes natural values for objects. Default `nil` (generic form only).
        public var naturalValue: NaturalValue?
        /// Deepest nesting of objects, arrays and structs followed. Default
        /// ``ArchiveJSON/defaultMaximumNesting`` (256).
        public var maximumNesting: Int

        /// Creates options.
        public init(pretty: Bool = true, naturalValue: NaturalValue? = nil, maximumNesting: Int = ArchiveJSON.defaultMaximumNesting) {
            self.pretty = pretty
            self.naturalValue = naturalValue
            self.maximumNesting = maximumNesting
        }
    }

    /// The plain JSON value of `archive`. Throws ``ArchiveJSONError`` (`limitExceeded`) when the
    /// graph nests deeper than ``Options/maximumNesting``.
    public static func value(_ archive: Archive, options: Options = Options()) throws(ArchiveJSONError) -> JSONValue {
        var converter = PlainJSONConverter(naturalValue: options.naturalValue, maximumNesting: options.maximumNesting)
        var values: [JSONValue] = []
        for group in archive.groups {
            values.append(contentsOf: converter.values(of: group))
        }
        if converter.tooDeep {
            throw ArchiveJSONError(.limitExceeded, "the archive nests deeper than \(options.maximumNesting) objects, arrays and structs")
        }
        return .object([
            JSONMember("systemVersion", .integer(archive.header.systemVersion.value)),
            JSONMember("values", .array(values)),
        ])
    }

    /// `archive` as plain JSON text (UTF-8). Throws like ``value(_:options:)``.
    public static func encode(_ archive: Archive, options: Options = Options()) throws(ArchiveJSONError) -> [UInt8] {
        var text = try value(archive, options: options).text(pretty: options.pretty)
        text.append(0x0A)
        return text
    }
}

/// Turns archive values into plain JSON values, keeping the object ids; handed to
/// ``PlainJSON/NaturalValue`` hooks so they can convert what an object contains.
public struct PlainJSONConverter {
    private let naturalValue: PlainJSON.NaturalValue?
    private let maximumNesting: Int
    private var ids: [ObjectIdentifier: Int] = [:]
    private var substituted: [ObjectIdentifier: JSONValue] = [:]
    private var inProgress: Set<ObjectIdentifier> = []
    private var referencedInProgress: Set<ObjectIdentifier> = []
    private var nextID = 1
    private var depth = 0
    /// Whether some value was cut off at the nesting limit.
    public private(set) var tooDeep = false

    init(naturalValue: PlainJSON.NaturalValue?, maximumNesting: Int) {
        self.naturalValue = naturalValue
        self.maximumNesting = maximumNesting
    }

    private mutating func nest() -> Bool {
        depth += 1
        if depth > maximumNesting {
            depth -= 1
            tooDeep = true
            return false
        }
        return true
    }

    private static let tooDeepValue = JSONValue.object([JSONMember("$error", .string("nesting too deep"))])

    /// Bytes as a string when they are UTF-8, else `{"$data": base64}`.
    public static func text(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        if ByteText.isValidUTF8(bytes) { return .string(String(decoding: bytes, as: UTF8.self)) }
        return data(bytes)
    }

    /// `{"$data": base64}`.
    public static func data(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        .object([JSONMember("$data", .string(ByteText.base64(bytes)))])
    }

    /// The values of one group, converted in order.
    public mutating func values(of group: ArchivedGroup) -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(group.values.count)
        for (i, value) in group.values.enumerated() {
            result.append(self.value(value, type: i < group.types.count ? group.types[i] : nil))
        }
        return result
    }

    /// The values of all of an object's groups, flattened in order (its generic contents).
    public mutating func contents(of object: ArchivedObject) -> [JSONValue] {
        var result: [JSONValue] = []
        for group in object.groups { result.append(contentsOf: values(of: group)) }
        return result
    }

    /// One value; `type` (when known) decides how integers and `B` bytes read.
    public mutating func value(_ value: ArchivedValue, type: ObjCType?) -> JSONValue {
        let type = type?.unqualified
        switch value {
        case .integer(let v, _):
            if let type, let bits = WireDefaults.unsignedBits(type) {
                if bits == 64 { return .integer(UInt64(bitPattern: v)) }
                let half = Int64(1) << (bits - 1)
                if v < 0, v >= -half { return .integer(v + 2 * half) }
            }
            return .integer(v)
        case .float(let x, _):
            return x.isFinite ? .number(x.description) : .double(Double(x))
        case .double(let x, _):
            return .double(x)
        case .byte(let b):
            if type == .bool, b <= 1 { return .bool(b == 1) }
            return .integer(b)
        case .bytes(let payload):
            return Self.data(payload)
        case .unsharedString(let payload, _), .sharedString(let payload, _):
            return payload.map(Self.text) ?? .null
        case .cString(let entry, _):
            return entry.map { Self.text($0.text) } ?? .null
        case .object(let object, _):
            return object.map { self.object($0) } ?? .null
        case .objectSlotClass(let entry, _):
            return Self.classObject(entry)
        case .classObject(let entry, _):
            return entry.map(Self.classObject) ?? .null
        case .array(let values), .structure(let values):
            guard nest() else { return Self.tooDeepValue }
            defer { depth -= 1 }
            var elementTypes: [ObjCType?] = Array(repeating: nil, count: values.count)
            switch type {
            case .array(_, let element)?: elementTypes = Array(repeating: element, count: values.count)
            case .structure(_, let fields)? where fields.count == values.count: elementTypes = fields.map(\.type)
            default: break
            }
            return .array(zip(values, elementTypes).map { self.value($0, type: $1) })
        case .ignored:
            return .null
        }
    }

    private static func classObject(_ entry: ArchivedClass) -> JSONValue {
        .object([JSONMember("$classObject", text(entry.name))])
    }

    /// An object: its natural value (from the hook), its generic form at its first occurrence,
    /// or `{"$ref": n}` afterwards.
    public mutating func object(_ object: ArchivedObject) -> JSONValue {
        let key = ObjectIdentifier(object)
        if let cached = substituted[key] { return cached }
        if let id = ids[key] { return .object([JSONMember("$ref", .integer(id))]) }
        if inProgress.contains(key) {
            referencedInProgress.insert(key)
            ids[key] = nextID
            nextID += 1
            return .object([JSONMember("$ref", .integer(nextID - 1))])
        }
        guard nest() else { return Self.tooDeepValue }
        defer { depth -= 1 }
        if let hook = naturalValue {
            inProgress.insert(key)
            let natural = hook(object, &self)
            inProgress.remove(key)
            if let natural {
                guard referencedInProgress.contains(key), let id = ids[key] else {
                    substituted[key] = natural
                    return natural
                }
                if case .object(let members) = natural {
                    return .object([JSONMember("$id", .integer(id))] + members)
                }
                return .object([JSONMember("$id", .integer(id)), JSONMember("$value", natural)])
            }
        }
        let id: Int
        if let existing = ids[key] {
            id = existing
        } else {
            id = nextID
            ids[key] = id
            nextID += 1
        }
        return .object([
            JSONMember("$class", Self.text(object.archivedClass.name)),
            JSONMember("$id", .integer(id)),
            JSONMember("contents", .array(contents(of: object))),
        ])
    }
}
