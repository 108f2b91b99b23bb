import TypedStream

/// The value an `NSNumber` holds, by kind.
public enum NumberValue: Hashable, Sendable {
    /// A signed integer (`c` other than 0/1, `s`, `i`, `l`, `q`).
    case int(Int64)
    /// An unsigned integer (`C`, `S`, `I`, `L`, `Q`).
    case uint(UInt64)
    /// A `float` (`f`).
    case float(Float)
    /// A `double` (`d`).
    case double(Double)
    /// A `BOOL`: `c` (or Apple's `B`) holding 0 or 1.
    case bool(Bool)

    /// The `objCType` a new `NSNumber` of this kind gets, as modern Foundation writes it:
    /// `q`, `Q`, `f`, `d`, and `c` for `BOOL`.
    public var defaultObjCType: String {
        switch self {
        case .int: "q"
        case .uint: "Q"
        case .float: "f"
        case .double: "d"
        case .bool: "c"
        }
    }
}

/// `NSNumber` (version 0), an `NSValue` subclass (chain `NSNumber` : `NSValue` : `NSObject`)
/// that writes only NSValue's part: a `"*"` objCType group, then the value in a group of that
/// type. `BOOL` is archived as `c`.
///
/// A `c` number holding 0 or 1 reads as ``NumberValue/bool(_:)`` — the archive cannot tell
/// `@YES` from `[NSNumber numberWithChar:1]`.
public final class NumberObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSNumber` v0 : `NSValue` v0 : `NSObject` v0).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.chain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// The `@encode` letter of the value (`"q"`, `"d"`, `"c"` …).
    @exclusivity(unchecked) public var objCType: String = "q"
    /// The value.
    @exclusivity(unchecked) public var value: NumberValue = .int(0)

    /// `NSNumber` v0 : `NSValue` v0 : `NSObject` v0.
    public static let chain = [ArchiveClassLink("NSNumber", version: 0), ArchiveClassLink("NSValue", version: 0), .nsObject]

    /// Creates the number 0 (`q`).
    public init() {}

    /// Creates a number with the objCType modern Foundation uses for its kind
    /// (``NumberValue/defaultObjCType``).
    public init(_ value: NumberValue) {
        self.value = value
        objCType = value.defaultObjCType
    }

    /// Creates a number archived with `objCType` (`"i"` for `numberWithInt:`). Throws
    /// ``CoderError`` `invalidValue` when `objCType` is not a scalar type or `value` does not fit it.
    public init(_ value: NumberValue, objCType: String) throws(CoderError) {
        self.value = value
        self.objCType = objCType
        _ = try Self.archivedValue(value, objCType: objCType)
    }

    /// `@YES` / `@NO`.
    public convenience init(bool: Bool) { self.init(.bool(bool)) }
    /// A `q` number (`numberWithInteger:`).
    public convenience init(int: Int64) { self.init(.int(int)) }
    /// A `d` number (`numberWithDouble:`).
    public convenience init(double: Double) { self.init(.double(double)) }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSNumber": 0...0, "NSValue": 0...0]

    /// Reads the NSValue part and interprets it by its objCType. Throws ``CoderError``
    /// `badContents` for an objCType that is not a scalar.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        let offset = decoder.currentObjectOffset
        let (type, archived) = try ValueObject.decodeTypeAndValue(with: decoder)
        guard let number = Self.number(archived, objCType: type) else {
            throw CoderError(.badContents, at: offset, "NSNumber objCType '\(type)' is not a scalar type")
        }
        objCType = type
        value = number
    }

    /// Writes the NSValue part. Throws ``CoderError`` `invalidValue` when the value does not fit
    /// the objCType.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try ValueObject.encodeTypeAndValue(objCType: objCType, value: Self.archivedValue(value, objCType: objCType), with: encoder)
    }

    /// "NSNumber(q: 42)".
    public var description: String {
        switch value {
        case .int(let v): "NSNumber(\(objCType): \(v))"
        case .uint(let v): "NSNumber(\(objCType): \(v))"
        case .float(let v): "NSNumber(\(objCType): \(v))"
        case .double(let v): "NSNumber(\(objCType): \(v))"
        case .bool(let v): "NSNumber(\(objCType): \(v ? "YES" : "NO"))"
        }
    }

    // MARK: - Conversions

    /// The bit width of an integer letter, and whether it is signed.
    private static func integerShape(_ letter: String) -> (bits: Int, signed: Bool)? {
        let utf8 = letter.utf8
        guard utf8.count == 1, let byte = utf8.first else { return nil }
        return integerShape(byte)
    }

    /// ``integerShape(_:)-(String)`` of a letter's byte.
    private static func integerShape(_ letter: UInt8) -> (bits: Int, signed: Bool)? {
        switch letter {
        case UInt8(ascii: "c"): (8, true)
        case UInt8(ascii: "C"), UInt8(ascii: "B"): (8, false)
        case UInt8(ascii: "s"): (16, true)
        case UInt8(ascii: "S"): (16, false)
        case UInt8(ascii: "i"), UInt8(ascii: "l"): (32, true)
        case UInt8(ascii: "I"), UInt8(ascii: "L"): (32, false)
        case UInt8(ascii: "q"): (64, true)
        case UInt8(ascii: "Q"): (64, false)
        default: nil
        }
    }

    /// Interprets a decoded value by its objCType; `nil` when the type is not a scalar. (Public
    /// so plain JSON can read a number without decoding the object around it.)
    public static func number(_ archived: ArchivedValue, objCType: String) -> NumberValue? {
        // Every scalar objCType is one ASCII letter: compared as a byte, not as text.
        let utf8 = objCType.utf8
        guard utf8.count == 1, let letter = utf8.first else { return nil }
        switch (letter, archived) {
        case (UInt8(ascii: "f"), .float(let x, _)): return .float(x)
        case (UInt8(ascii: "d"), .double(let x, _)): return .double(x)
        case (UInt8(ascii: "c"), .byte(let b)): return b <= 1 ? .bool(b == 1) : .int(Int64(Int8(bitPattern: b)))
        case (UInt8(ascii: "B"), .byte(let b)): return b <= 1 ? .bool(b == 1) : .uint(UInt64(b))
        case (UInt8(ascii: "C"), .byte(let b)): return .uint(UInt64(b))
        case (_, .integer(let v, _)):
            guard let shape = integerShape(letter), shape.bits > 8 else { return nil }
            if shape.signed { return .int(v) }
            return .uint(UInt64(truncatingIfNeeded: v) & (shape.bits == 64 ? .max : (1 << UInt64(shape.bits)) - 1))
        default: return nil
        }
    }

    /// The archived value of `value` written as `objCType`. Throws ``CoderError`` `invalidValue`
    /// when the type is not a scalar or the value does not fit it.
    static func archivedValue(_ value: NumberValue, objCType: String) throws(CoderError) -> ArchivedValue {
        switch (objCType, value) {
        case ("f", .float(let x)): return .float(x, form: nil)
        case ("d", .double(let x)): return .double(x, form: nil)
        default: break
        }
        guard let shape = integerShape(objCType) else {
            throw CoderError(.invalidValue, "NSNumber cannot hold \(value) as '\(objCType)'")
        }
        let wide: Int64
        switch value {
        case .bool(let b): wide = b ? 1 : 0
        case .int(let v):
            guard shape.signed || v >= 0 else { throw CoderError(.invalidValue, "\(v) does not fit '\(objCType)'") }
            wide = v
        case .uint(let v):
            guard !shape.signed || v <= UInt64(Int64.max) else { throw CoderError(.invalidValue, "\(v) does not fit '\(objCType)'") }
            wide = Int64(bitPattern: v)
        case .float, .double:
            throw CoderError(.invalidValue, "NSNumber cannot hold \(value) as '\(objCType)'")
        }
        if shape.bits < 64 {
            let fits = shape.signed
                ? wide >= -(Int64(1) << (shape.bits - 1)) && wide < (Int64(1) << (shape.bits - 1))
                : wide >= 0 && wide < (Int64(1) << shape.bits)
            guard fits else { throw CoderError(.invalidValue, "\(value) does not fit '\(objCType)'") }
        }
        if shape.bits == 8 { return .byte(UInt8(truncatingIfNeeded: wide)) }
        // Unsigned values travel as their signed bit pattern at their width.
        let shift = Int64(64 - shape.bits)
        return .integer((wide << shift) >> shift, width: nil)
    }
}
