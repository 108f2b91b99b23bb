/// A shared string as it sits on the wire: written literally (taking the next slot of the
/// shared-string table) or as a reference to an earlier slot. `bytes` is the text either way.
public struct SharedString: Hashable, Sendable {
    /// How it was written.
    public enum Form: Hashable, Sendable {
        /// `0x84`, a length and the bytes; `index` is the slot it took in the shared-string table.
        case literal(index: Int, length: IntegerWidth)
        /// A reference to slot `index`, written as `index − 110` with this width.
        case reference(index: Int, width: IntegerWidth)
    }

    /// How it was written.
    public var form: Form
    /// The text (a slice of the input when read; no copy is made).
    public var bytes: ArraySlice<UInt8>

    /// Creates a shared string.
    public init(form: Form, bytes: ArraySlice<UInt8>) {
        self.form = form
        self.bytes = bytes
    }

    /// The slot in the shared-string table this string occupies or refers to.
    public var index: Int {
        switch form {
        case .literal(let index, _), .reference(let index, _): index
        }
    }

    /// The text decoded as UTF-8 (invalid sequences replaced).
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// A C string (`*`) slot: nil, a reference to an earlier C-string slot of the object table,
/// or a new slot whose text is a shared string.
public enum CStringForm: Hashable, Sendable {
    /// `0x85`: NULL.
    case null
    /// A reference to object-table slot `index`.
    case reference(index: Int, width: IntegerWidth)
    /// `0x84`: a new object-table slot `index`, then the text as a shared string.
    case literal(index: Int, text: SharedString)
}

/// An object (`@`) slot: nil, a reference, or a new object taking object-table slot `index`
/// (its class chain, contents and end-of-object marker follow as their own tokens).
public enum ObjectForm: Hashable, Sendable {
    /// `0x85`: nil.
    case null
    /// A reference to object-table slot `index`.
    case reference(index: Int, width: IntegerWidth)
    /// `0x84`: a new object in slot `index`.
    case new(index: Int)
}

/// One link of a class chain: nil (end of chain), a reference to a class already in the
/// object table (end of chain), or a new class that takes slot `index` (its superclass follows).
public enum ClassForm: Hashable, Sendable {
    /// `0x85`: no (further) superclass.
    case null
    /// A reference to the class in object-table slot `index`.
    case reference(index: Int, width: IntegerWidth)
    /// `0x84`: a new class with its name and version, in slot `index`.
    case new(index: Int, name: SharedString, version: WireInteger)
}

/// How a `f` or `d` value was written.
public enum RealForm: Hashable, Sendable {
    /// `0x83` and the raw IEEE bytes.
    case ieee
    /// An integral value written as an integer of this width.
    case integral(IntegerWidth)
}

/// What one token stands for. Each case carries the decoded value *and* every wire decision,
/// so that ``TokenWriter`` can write the same bytes again from the token alone.
public enum TokenKind: Hashable, Sendable {
    /// The header.
    case header(StreamHeader)
    /// A group's type string; the group's values follow.
    case typeString(SharedString)
    /// An integer of type `s S i I l L q Q` (value sign-extended; reinterpret by the type).
    case integer(WireInteger)
    /// A `f` value.
    case float(Float, RealForm)
    /// A `d` value.
    case double(Double, RealForm)
    /// A `c`, `C` or `B` value: one raw byte.
    case byte(UInt8)
    /// Raw bytes: a `[Nc]`/`[NC]` array, or a union's bytes.
    case rawBytes(ArraySlice<UInt8>)
    /// A `+` value: an unshared string; `nil` is `0x85`.
    case unsharedString(ArraySlice<UInt8>?, length: IntegerWidth)
    /// A `%` or `:` value: a shared string; `nil` is `0x85`.
    case sharedString(SharedString?)
    /// A `*` value.
    case cString(CStringForm)
    /// A `@` value, or (streamer 3) an object written without a type string.
    case object(ObjectForm)
    /// One link of a class chain (after a new object, or a `#` value).
    case classLink(ClassForm)
    /// Streamer version 3 only: the extra integer after a new object's class chain.
    case instanceSize(WireInteger)
    /// `0x86`: the end of a new object's contents.
    case endOfObject
    /// The start of an array of non-byte elements (no bytes of its own).
    case arrayStart(count: Int)
    /// The end of an array (no bytes of its own).
    case arrayEnd
    /// The start of a struct (no bytes of its own).
    case structStart
    /// The end of a struct (no bytes of its own).
    case structEnd
    /// A `!` field: nothing on the wire.
    case ignored
    /// Streamer version 3 only: a group with no type string follows — an object written by
    /// `NXWriteObject` (no bytes of its own; the ``object(_:)`` token follows).
    case untypedGroup
}

/// One item of an archive with the bytes it came from.
public struct Token: Hashable, Sendable {
    /// What it stands for.
    public var kind: TokenKind
    /// The byte offset of its first byte.
    public var start: Int
    /// The byte offset just past its last byte (equal to `start` for marker tokens).
    public var end: Int
    /// Nesting depth: 0 at top level, +1 inside each object, array and struct.
    public var depth: Int

    /// Creates a token.
    public init(_ kind: TokenKind, start: Int = 0, end: Int = 0, depth: Int = 0) {
        self.kind = kind
        self.start = start
        self.end = end
        self.depth = depth
    }

    /// The byte range the token was read from.
    public var range: Range<Int> { start..<end }
}
