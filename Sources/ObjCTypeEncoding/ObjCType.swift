/// A parsed Objective-C `@encode` type: the type language that typedstream groups carry.
///
/// Every case cites the letter it stands for. Parse with ``ObjCType/parse(_:)`` or split a
/// whole group string with ``ObjCType/parseGroup(_:)``; print with ``ObjCType/encoding``.
///
/// ```swift
/// let rect = try ObjCType.parse("{?=ffff}")          // .structure(name: "?", fields: 4 × .float)
/// let group = try ObjCType.parseGroup("{?=ffff}Ii")   // [rect, .unsignedInt, .int]
/// print(rect.encoding)                               // "{?=ffff}"
/// ```
public indirect enum ObjCType: Hashable, Sendable {
    /// `c` — `char` (and `BOOL` on Apple's 32-bit ABIs); archived as one raw byte.
    case char
    /// `C` — `unsigned char`; archived as one raw byte.
    case unsignedChar
    /// `s` — `short`.
    case short
    /// `S` — `unsigned short`.
    case unsignedShort
    /// `i` — `int`.
    case int
    /// `I` — `unsigned int`.
    case unsignedInt
    /// `l` — `long` (32 bits in the archive, as NeXT treats it).
    case long
    /// `L` — `unsigned long`.
    case unsignedLong
    /// `q` — `long long`.
    case longLong
    /// `Q` — `unsigned long long`.
    case unsignedLongLong
    /// `f` — `float`.
    case float
    /// `d` — `double`.
    case double
    /// `B` — C99 `_Bool` / C++ `bool`; archived as one raw byte.
    case bool
    /// `v` — `void`.
    case void
    /// `*` — `char *`, a C string.
    case cString
    /// `@` — an object; `@"Name"` carries a class-name hint (kept, not archived differently).
    case object(className: String?)
    /// `#` — a class object.
    case classObject
    /// `:` — a selector.
    case selector
    /// `%` — a NeXT atom (`NXAtom`, a unique C string).
    case atom
    /// `+` — counted bytes written by `encodeBytes:length:` (an unshared string on the wire).
    case bytes
    /// `!` — an ignored field: nothing is written for it.
    case ignored
    /// `?` — an unknown type (function pointers, blocks).
    case unknown
    /// `^t` — a pointer to `t`.
    case pointer(ObjCType)
    /// `[Nt]` — a C array of `count` elements.
    case array(count: Int, element: ObjCType)
    /// `{name=t…}` — a struct. `name` is `nil` when the string has no `name=` part (`{ff}`).
    case structure(name: String?, fields: [ObjCField])
    /// `(name=t…)` — a union.
    case union(name: String?, fields: [ObjCField])
    /// `bN` — a bitfield of `width` bits.
    case bitfield(width: Int)
    /// A type preceded by method-type qualifiers (`r n N o O R V`).
    case qualified(ObjCTypeQualifiers, ObjCType)
}

/// One member of a struct or union: its optional quoted name (`"x"d`) and its type.
public struct ObjCField: Hashable, Sendable {
    /// The member's name, when the encoding quotes one (`{CGPoint="x"d"y"d}`).
    public var name: String?
    /// The member's type.
    public var type: ObjCType

    /// Creates a member.
    public init(name: String? = nil, type: ObjCType) {
        self.name = name
        self.type = type
    }
}

/// The method-type qualifiers that may precede a type: `r` const, `n` in, `N` inout, `o` out,
/// `O` bycopy, `R` byref, `V` oneway. Kept in the order written.
public struct ObjCTypeQualifiers: Hashable, Sendable {
    /// The qualifier letters, in the order they were written (each one of `rnNoORV`).
    public var letters: [UInt8]

    /// Creates a qualifier list from its letters.
    public init(letters: [UInt8]) { self.letters = letters }

    /// The qualifier letters the grammar accepts.
    public static let allowed: Set<UInt8> = Set("rnNoORV".utf8)

    /// Whether `letter` is one of ``allowed`` (a switch: the parser asks for every type, and
    /// hashing the byte for the set cost more than the rest of parsing a one-letter type).
    @inlinable
    public static func isQualifier(_ letter: UInt8) -> Bool {
        switch letter {
        case UInt8(ascii: "r"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "o"),
             UInt8(ascii: "O"), UInt8(ascii: "R"), UInt8(ascii: "V"):
            return true
        default:
            return false
        }
    }
}

extension ObjCType {
    /// The type with qualifiers removed (they do not change the wire form).
    public var unqualified: ObjCType {
        if case .qualified(_, let inner) = self { return inner.unqualified }
        return self
    }

    /// A struct with no name part, as NeXT reads a multi-letter array element (`[3ii]`).
    public static func anonymousStruct(_ types: [ObjCType]) -> ObjCType {
        .structure(name: nil, fields: types.map { ObjCField(type: $0) })
    }

    /// The single letter of a simple type, or `nil` for compound types.
    public var letter: UInt8? {
        switch self {
        case .char: UInt8(ascii: "c")
        case .unsignedChar: UInt8(ascii: "C")
        case .short: UInt8(ascii: "s")
        case .unsignedShort: UInt8(ascii: "S")
        case .int: UInt8(ascii: "i")
        case .unsignedInt: UInt8(ascii: "I")
        case .long: UInt8(ascii: "l")
        case .unsignedLong: UInt8(ascii: "L")
        case .longLong: UInt8(ascii: "q")
        case .unsignedLongLong: UInt8(ascii: "Q")
        case .float: UInt8(ascii: "f")
        case .double: UInt8(ascii: "d")
        case .bool: UInt8(ascii: "B")
        case .void: UInt8(ascii: "v")
        case .cString: UInt8(ascii: "*")
        case .object: UInt8(ascii: "@")
        case .classObject: UInt8(ascii: "#")
        case .selector: UInt8(ascii: ":")
        case .atom: UInt8(ascii: "%")
        case .bytes: UInt8(ascii: "+")
        case .ignored: UInt8(ascii: "!")
        case .unknown: UInt8(ascii: "?")
        default: nil
        }
    }

    /// The simple type for a single letter, or `nil` when the letter starts no simple type.
    public static func simple(letter: UInt8) -> ObjCType? {
        switch letter {
        case UInt8(ascii: "c"): .char
        case UInt8(ascii: "C"): .unsignedChar
        case UInt8(ascii: "s"): .short
        case UInt8(ascii: "S"): .unsignedShort
        case UInt8(ascii: "i"): .int
        case UInt8(ascii: "I"): .unsignedInt
        case UInt8(ascii: "l"): .long
        case UInt8(ascii: "L"): .unsignedLong
        case UInt8(ascii: "q"): .longLong
        case UInt8(ascii: "Q"): .unsignedLongLong
        case UInt8(ascii: "f"): .float
        case UInt8(ascii: "d"): .double
        case UInt8(ascii: "B"): .bool
        case UInt8(ascii: "v"): .void
        case UInt8(ascii: "*"): .cString
        case UInt8(ascii: "@"): .object(className: nil)
        case UInt8(ascii: "#"): .classObject
        case UInt8(ascii: ":"): .selector
        case UInt8(ascii: "%"): .atom
        case UInt8(ascii: "+"): .bytes
        case UInt8(ascii: "!"): .ignored
        case UInt8(ascii: "?"): .unknown
        default: nil
        }
    }
}
