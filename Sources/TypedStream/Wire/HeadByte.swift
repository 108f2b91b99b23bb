/// The format's tag values: a head byte that is not an inline integer.
///
/// Every integer-like item on the wire starts with a signed *head byte*. Values −110…127 are the
/// integer itself; −128…−111 (`0x80`…`0x91`) are *tags* that say what follows. Names follow
/// NeXT's `typedstream.m` (`LONG2LABEL` …) where it had one.
public enum HeadByte {
    /// `0x80` — reserved, never written.
    public static let reserved: UInt8 = 0x80
    /// `0x81` — NeXT `LONG2LABEL`: a 2-byte integer follows.
    public static let int16: UInt8 = 0x81
    /// `0x82` — NeXT `LONG4LABEL`: a 4-byte integer follows.
    public static let int32: UInt8 = 0x82
    /// `0x83` — NeXT `REALLABEL`: an IEEE float (4 bytes) or double (8 bytes) follows.
    public static let real: UInt8 = 0x83
    /// `0x84` — NeXT `NEWLABEL`: a new (literal) string, class, object or C string follows.
    public static let new: UInt8 = 0x84
    /// `0x85` — NeXT `NULLLABEL`: nil / NULL.
    public static let null: UInt8 = 0x85
    /// `0x86` — NeXT `EOOLABEL`: end of object.
    public static let endOfObject: UInt8 = 0x86
    /// `0x87` — reserved by NeXT; modern Foundation writes an 8-byte integer here.
    public static let int64: UInt8 = 0x87

    /// The smallest integer a head byte carries inline (`0x92`).
    public static let smallestInline: Int64 = -110
    /// The largest integer a head byte carries inline (`0x7F`).
    public static let largestInline: Int64 = 127
    /// References are written as `index + referenceBias` (index 0 is the head byte `0x92`).
    public static let referenceBias: Int64 = -110

    /// Whether `byte` is an inline integer rather than a tag.
    @inline(__always)
    public static func isInline(_ byte: UInt8) -> Bool { byte < 0x80 || byte >= 0x92 }

    /// A short name for a head byte, for messages ("0x84 new", "inline 5").
    public static func describe(_ byte: UInt8) -> String {
        let hex = "0x" + String(byte, radix: 16, uppercase: false)
        switch byte {
        case reserved: return "\(hex) (reserved tag)"
        case int16: return "\(hex) (int16 tag)"
        case int32: return "\(hex) (int32 tag)"
        case real: return "\(hex) (real tag)"
        case new: return "\(hex) (new)"
        case null: return "\(hex) (nil)"
        case endOfObject: return "\(hex) (end of object)"
        case int64: return "\(hex) (int64 tag)"
        case 0x88...0x91: return "\(hex) (reserved tag)"
        default: return "\(hex) (inline \(Int8(bitPattern: byte)))"
        }
    }
}

/// How an integer was (or is to be) written: inline in its head byte, or after a size tag.
public enum IntegerWidth: UInt8, Hashable, Sendable, CaseIterable {
    /// The head byte is the value (−110…127).
    case inline = 0
    /// `0x81` then 2 bytes.
    case int16 = 0x81
    /// `0x82` then 4 bytes.
    case int32 = 0x82
    /// `0x87` then 8 bytes (Apple Foundation's int64 extension).
    case int64 = 0x87

    /// Whether `value` can be written with this width.
    @inline(__always)
    public func canHold(_ value: Int64) -> Bool {
        switch self {
        case .inline: value >= HeadByte.smallestInline && value <= HeadByte.largestInline
        case .int16: value >= Int64(Int16.min) && value <= Int64(Int16.max)
        case .int32: value >= Int64(Int32.min) && value <= Int64(Int32.max)
        case .int64: true
        }
    }

    /// The width Apple's `NSArchiver` (after NeXT's `_NXEncodeInt`) chooses for `value`:
    /// inline, else int16 for −32767…32767, else int32, else int64.
    public static func archiverChoice(for value: Int64) -> IntegerWidth {
        if value >= HeadByte.smallestInline && value <= HeadByte.largestInline { return .inline }
        if value >= -32767 && value <= 32767 { return .int16 }
        if value >= Int64(Int32.min) && value <= Int64(Int32.max) { return .int32 }
        return .int64
    }

    /// A short name ("inline", "int16" …).
    public var name: String {
        switch self {
        case .inline: "inline"
        case .int16: "int16"
        case .int32: "int32"
        case .int64: "int64"
        }
    }
}

/// An integer as it sits on the wire: its value and the width it was written with.
public struct WireInteger: Hashable, Sendable {
    /// The value, sign-extended from its width.
    public var value: Int64
    /// The width it was written with.
    public var width: IntegerWidth

    /// Creates a wire integer.
    public init(_ value: Int64, width: IntegerWidth) {
        self.value = value
        self.width = width
    }

    /// The integer with the width `NSArchiver` would choose.
    public static func archiverChoice(_ value: Int64) -> WireInteger {
        WireInteger(value, width: .archiverChoice(for: value))
    }
}
