import ObjCTypeEncoding

/// A Swift type that stands for an `@encode` type, so it can be archived with a typed, checked
/// call instead of a raw pointer: `Int32` ↔ `i`, `UInt32` ↔ `I`, `Float` ↔ `f`, a struct of four
/// floats ↔ `{?=ffff}`.
///
/// ```swift
/// struct Rect: ObjCValueConvertible {           // {?=ffff}
///     var x, y, width, height: Float
///     static let objCType = "{?=ffff}"
///     init(archivedValue v: ArchivedValue) throws(CoderError) {
///         let m = try v.members(4)
///         (x, y, width, height) = (try Float(archivedValue: m[0]), try Float(archivedValue: m[1]),
///                                  try Float(archivedValue: m[2]), try Float(archivedValue: m[3]))
///     }
///     var archivedValue: ArchivedValue { .structure([x, y, width, height].map(\.archivedValue)) }
/// }
/// ```
public protocol ObjCValueConvertible {
    /// The `@encode` string of this type (`"i"`, `"{?=ffff}"`).
    static var objCType: String { get }
    /// Creates a value from a decoded value of that type. Throws ``CoderError`` when the value
    /// has the wrong shape or does not fit.
    init(archivedValue: ArchivedValue) throws(CoderError)
    /// The value to archive.
    var archivedValue: ArchivedValue { get }
}

extension ArchivedValue {
    /// The integer inside an `.integer`, `.byte` (sign-extended for `c`), or throws.
    public func integerValue() throws(CoderError) -> Int64 {
        switch self {
        case .integer(let v, _): return v
        case .byte(let b): return Int64(b)
        default: throw CoderError(.typeMismatch, "expected an integer, found \(kindName)")
        }
    }

    /// The members of a struct value, checking their number.
    public func members(_ count: Int) throws(CoderError) -> [ArchivedValue] {
        guard case .structure(let values) = self, values.count == count else {
            throw CoderError(.typeMismatch, "expected a struct of \(count) members, found \(kindName)")
        }
        return values
    }

    /// A short name of the value's kind, for messages.
    public var kindName: String {
        switch self {
        case .integer: "an integer"
        case .float: "a float"
        case .double: "a double"
        case .byte: "a byte"
        case .bytes: "raw bytes"
        case .unsharedString: "counted bytes"
        case .sharedString: "a shared string"
        case .cString: "a C string"
        case .object: "an object"
        case .objectSlotClass: "a class in an object slot"
        case .classObject: "a class"
        case .array: "an array"
        case .structure: "a struct"
        case .ignored: "an ignored field"
        }
    }
}

/// Conformance helper for the fixed-width integers.
public protocol ObjCIntegerConvertible: ObjCValueConvertible, FixedWidthInteger {}

extension ObjCIntegerConvertible {
    /// Reads a decoded integer, reinterpreting the sign-extended wire value at this width.
    /// Inlinable, so that a call for one concrete width is compiled for it: the generic
    /// version looks up metadata at run time on every value.
    @inlinable
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        let wide = try archivedValue.integerValue()
        if Self.isSigned {
            guard let exact = Self(exactly: wide) else {
                throw CoderError(.valueOutOfRange, "\(wide) does not fit \(Self.self)")
            }
            self = exact
        } else {
            // Unsigned values travel as their signed bit pattern (0xFF is 255 for C, 65535 for S):
            // accept anything that fits the width as either signed or unsigned.
            if Self.bitWidth < 64 {
                let lowest = -(Int64(1) << (Self.bitWidth - 1))
                let highest = (Int64(1) << Self.bitWidth) - 1
                guard wide >= lowest, wide <= highest else {
                    throw CoderError(.valueOutOfRange, "\(wide) does not fit \(Self.self)")
                }
            }
            self = Self(truncatingIfNeeded: wide)
        }
    }

    /// The value as an integer (unsigned values as their signed bit pattern).
    @inlinable
    public var archivedValue: ArchivedValue {
        if Self.isSigned { return .integer(Int64(self), width: nil) }
        let shift = UInt64(64 - Self.bitWidth)
        let signed = Int64(bitPattern: UInt64(truncatingIfNeeded: self) << shift) >> Int64(shift)
        return .integer(signed, width: nil)
    }
}

extension Int16: ObjCIntegerConvertible { /// `s`
    public static let objCType = "s" }
extension UInt16: ObjCIntegerConvertible { /// `S`
    public static let objCType = "S" }
extension Int32: ObjCIntegerConvertible { /// `i`
    public static let objCType = "i" }
extension UInt32: ObjCIntegerConvertible { /// `I`
    public static let objCType = "I" }
extension Int64: ObjCIntegerConvertible { /// `q`
    public static let objCType = "q" }
extension UInt64: ObjCIntegerConvertible { /// `Q`
    public static let objCType = "Q" }

extension Int8: ObjCValueConvertible {
    /// `c`.
    public static let objCType = "c"
    /// Reads a `c` byte.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        guard case .byte(let b) = archivedValue else { throw CoderError(.typeMismatch, "expected a byte, found \(archivedValue.kindName)") }
        self = Int8(bitPattern: b)
    }
    /// One raw byte.
    public var archivedValue: ArchivedValue { .byte(UInt8(bitPattern: self)) }
}

extension UInt8: ObjCValueConvertible {
    /// `C`.
    public static let objCType = "C"
    /// Reads a `C` byte.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        guard case .byte(let b) = archivedValue else { throw CoderError(.typeMismatch, "expected a byte, found \(archivedValue.kindName)") }
        self = b
    }
    /// One raw byte.
    public var archivedValue: ArchivedValue { .byte(self) }
}

extension Bool: ObjCValueConvertible {
    /// `c` — how `BOOL` is archived (Objective-C `BOOL` is `signed char`).
    public static let objCType = "c"
    /// Reads a `c` or `B` byte: 0 is false, anything else true.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        guard case .byte(let b) = archivedValue else { throw CoderError(.typeMismatch, "expected a BOOL byte, found \(archivedValue.kindName)") }
        self = b != 0
    }
    /// 1 or 0.
    public var archivedValue: ArchivedValue { .byte(self ? 1 : 0) }
}

extension Float: ObjCValueConvertible {
    /// `f`.
    public static let objCType = "f"
    /// Reads a `f` value.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        guard case .float(let x, _) = archivedValue else { throw CoderError(.typeMismatch, "expected a float, found \(archivedValue.kindName)") }
        self = x
    }
    /// The value, written as NSArchiver decides.
    public var archivedValue: ArchivedValue { .float(self, form: nil) }
}

extension Double: ObjCValueConvertible {
    /// `d`.
    public static let objCType = "d"
    /// Reads a `d` value.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        guard case .double(let x, _) = archivedValue else { throw CoderError(.typeMismatch, "expected a double, found \(archivedValue.kindName)") }
        self = x
    }
    /// The value, written as NSArchiver decides.
    public var archivedValue: ArchivedValue { .double(self, form: nil) }
}
