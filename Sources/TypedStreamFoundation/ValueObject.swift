import TypedStream

/// A point, size, rectangle or range held by an `NSValue`, independent of the 32-bit
/// (`NSPoint`, `{_NSPoint=ff}`) or 64-bit (`CGPoint`, `{CGPoint=dd}`) spelling it was archived with.
public enum GeometryValue: Hashable, Sendable {
    /// `NSPoint` / `CGPoint`.
    case point(x: Double, y: Double)
    /// `NSSize` / `CGSize`.
    case size(width: Double, height: Double)
    /// `NSRect` / `CGRect`: origin and size.
    case rect(x: Double, y: Double, width: Double, height: Double)
    /// `NSRange`: location and length (unsigned, 32- or 64-bit).
    case range(location: UInt64, length: UInt64)
}

/// Which `@encode` spelling a new geometry `NSValue` gets.
public enum GeometryEncoding: Hashable, Sendable {
    /// 64-bit macOS: `{CGPoint=dd}`, `{CGSize=dd}`, `{CGRect={CGPoint=dd}{CGSize=dd}}`, `{_NSRange=QQ}`.
    case cgFloat64
    /// 32-bit Mac OS X and OPENSTEP: `{_NSPoint=ff}`, `{_NSSize=ff}`,
    /// `{_NSRect={_NSPoint=ff}{_NSSize=ff}}`, `{_NSRange=II}`.
    case nsFloat32
}

/// `NSValue` (version 0): a `"*"` group with the `objCType` C string, then one group whose type
/// string *is* that string, holding the value.
///
/// Any `objCType` decodes and re-encodes; points, sizes, rectangles and ranges (both the `NS…`
/// and `CG…` spellings) are also available as ``geometry``.
///
/// ```swift
/// let size = ValueObject(.size(width: 826, height: 615))   // {CGSize=dd}
/// ```
public final class ValueObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSValue` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = ValueObject.chain
    /// The `@encode` string of the value (`"{CGSize=dd}"`).
    public var objCType: String = "i"
    /// The value, shaped as ``objCType`` says.
    public var value: ArchivedValue = .integer(0, width: nil)

    /// `NSValue` v0 : `NSObject` v0.
    public static let chain = [ArchiveClassLink("NSValue", version: 0), .nsObject]

    /// Creates an `NSValue` holding the `int` 0.
    public init() {}

    /// Creates an `NSValue` holding `value` of type `objCType`. The shapes are checked when the
    /// object is encoded.
    public init(objCType: String, value: ArchivedValue) {
        self.objCType = objCType
        self.value = value
    }

    /// Creates an `NSValue` holding a point, size, rectangle or range.
    public init(_ geometry: GeometryValue, encoding: GeometryEncoding = .cgFloat64) {
        (objCType, value) = Self.archived(geometry, encoding: encoding)
    }

    /// The point, size, rectangle or range held, or `nil` for any other `objCType`.
    public var geometry: GeometryValue? { Self.geometry(objCType: objCType, value: value) }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSValue": 0...0]

    /// Reads the `objCType` and the value.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        (objCType, value) = try Self.decodeTypeAndValue(with: decoder)
    }

    /// Writes the `objCType` and the value.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try Self.encodeTypeAndValue(objCType: objCType, value: value, with: encoder)
    }

    /// "NSValue({CGSize=dd}: size(width: 826.0, height: 615.0))".
    public var description: String {
        if let geometry { return "NSValue(\(objCType): \(geometry))" }
        return "NSValue(\(objCType))"
    }

    // MARK: - The NSValue part, shared with NSNumber

    /// Reads NSValue's two groups: the `"*"` objCType and the value group of that type.
    /// Throws ``CoderError`` `badContents` for a NULL or unparsable objCType.
    static func decodeTypeAndValue(with decoder: some ObjectDecoder) throws(CoderError) -> (String, ArchivedValue) {
        let offset = decoder.currentObjectOffset
        guard let objCType = try decoder.decodeCString() else {
            throw CoderError(.badContents, at: offset, "NSValue objCType is NULL")
        }
        do {
            return (objCType, try decoder.decodeValue(ofObjCType: objCType))
        } catch where error.code == .invalidValue {
            throw CoderError(.badContents, at: offset, "NSValue objCType '\(objCType)' is not a type: \(error.reason)")
        }
    }

    /// Writes NSValue's two groups. The objCType C string is shared by content, so equal type
    /// strings take one object-table slot, and the value group's type string reuses its text.
    static func encodeTypeAndValue(objCType: String, value: ArchivedValue, with encoder: some ObjectEncoder) throws(CoderError) {
        try encoder.encodeValue(.cString(encoder.cString(Array(objCType.utf8)), referenceWidth: nil), ofObjCType: "*")
        try encoder.encodeValue(value, ofObjCType: objCType)
    }

    // MARK: - Geometry

    private enum StructKind { case point, size, rect, range }

    private static func structKind(of objCType: String) -> (StructKind, fields: Substring)? {
        guard objCType.hasPrefix("{"), objCType.hasSuffix("}"), let equals = objCType.firstIndex(of: "=") else { return nil }
        let name = objCType[objCType.index(after: objCType.startIndex)..<equals]
        let fields = objCType[objCType.index(after: equals)..<objCType.index(before: objCType.endIndex)]
        switch name {
        case "CGPoint", "_NSPoint", "NSPoint": return (.point, fields)
        case "CGSize", "_NSSize", "NSSize": return (.size, fields)
        case "CGRect", "_NSRect", "NSRect": return (.rect, fields)
        case "_NSRange", "NSRange": return (.range, fields)
        default: return nil
        }
    }

    private static func real(_ value: ArchivedValue) -> Double? {
        switch value {
        case .float(let x, _): Double(x)
        case .double(let x, _): x
        default: nil
        }
    }

    private static func pair(_ value: ArchivedValue) -> (Double, Double)? {
        guard case .structure(let members) = value, members.count == 2,
              let a = real(members[0]), let b = real(members[1]) else { return nil }
        return (a, b)
    }

    static func geometry(objCType: String, value: ArchivedValue) -> GeometryValue? {
        guard let (kind, fields) = structKind(of: objCType) else { return nil }
        switch kind {
        case .point:
            return pair(value).map { .point(x: $0.0, y: $0.1) }
        case .size:
            return pair(value).map { .size(width: $0.0, height: $0.1) }
        case .rect:
            guard case .structure(let members) = value, members.count == 2,
                  let origin = pair(members[0]), let size = pair(members[1]) else { return nil }
            return .rect(x: origin.0, y: origin.1, width: size.0, height: size.1)
        case .range:
            guard case .structure(let members) = value, members.count == 2,
                  case .integer(let location, _) = members[0], case .integer(let length, _) = members[1] else { return nil }
            let narrow = fields.allSatisfy { "iIlL".contains($0) }
            func unsigned(_ v: Int64) -> UInt64 { narrow ? UInt64(UInt32(truncatingIfNeeded: v)) : UInt64(bitPattern: v) }
            return .range(location: unsigned(location), length: unsigned(length))
        }
    }

    static func archived(_ geometry: GeometryValue, encoding: GeometryEncoding) -> (String, ArchivedValue) {
        let wide = encoding == .cgFloat64
        func real(_ x: Double) -> ArchivedValue { wide ? .double(x, form: nil) : .float(Float(x), form: nil) }
        let point = wide ? "{CGPoint=dd}" : "{_NSPoint=ff}"
        let size = wide ? "{CGSize=dd}" : "{_NSSize=ff}"
        switch geometry {
        case .point(let x, let y):
            return (point, .structure([real(x), real(y)]))
        case .size(let w, let h):
            return (size, .structure([real(w), real(h)]))
        case .rect(let x, let y, let w, let h):
            let type = wide ? "{CGRect=\(point)\(size)}" : "{_NSRect=\(point)\(size)}"
            return (type, .structure([.structure([real(x), real(y)]), .structure([real(w), real(h)])]))
        case .range(let location, let length):
            func integer(_ v: UInt64) -> ArchivedValue {
                wide ? .integer(Int64(bitPattern: v), width: nil) : .integer(Int64(Int32(truncatingIfNeeded: v)), width: nil)
            }
            return (wide ? "{_NSRange=QQ}" : "{_NSRange=II}", .structure([integer(location), integer(length)]))
        }
    }
}
