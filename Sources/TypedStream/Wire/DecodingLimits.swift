/// Bounds that protect a reader from hostile input. Every count and length read from a file is
/// checked against the bytes that remain and against these limits before anything is allocated.
public struct DecodingLimits: Hashable, Sendable {
    /// Deepest nesting of objects, arrays and structs together. Default 256.
    public var maximumNesting: Int = 256
    /// Deepest nesting inside one type string. Default 64. A deeper type string is refused with
    /// `badTypeString` (the parser cannot tell it from an unclosed one).
    public var maximumTypeNesting: Int = 64
    /// Most entries in the object table (objects, classes, C strings). Default 16 777 216.
    public var maximumObjects: Int = 1 << 24
    /// Most entries in the shared-string table. Default 16 777 216.
    public var maximumSharedStrings: Int = 1 << 24
    /// Most elements of one array whose elements take no bytes on the wire; also the most
    /// values that take no bytes and hold no other value (`!` fields, structs with no fields,
    /// unions of size 0, arrays of no elements) in the whole input. Default 65 536. Without the
    /// second bound a few bytes (`[60000[60000!]]`, or a type string of many `!` used by many
    /// groups) could yield billions of tokens.
    public var maximumEmptyElementArray: Int = 1 << 16
    /// Longest class name accepted, in bytes. Default 256 (Apple's and NeXT's class names are
    /// far shorter). Tools name an object's class once per object, so a hostile archive of
    /// many objects of one enormous class name would cost its length once per object.
    public var maximumClassNameLength: Int = 256
    /// Longest class chain (a class and all its superclasses). Default 256 (Apple's and NeXT's
    /// deepest are about 15). An object's class chain is worked out per class, and a hostile
    /// archive whose every object brings a new class one deeper than the last would make that
    /// cost grow with the square of the file; the ``Archiver`` refuses such chains too.
    public var maximumClassChainLength: Int = 256
    /// Largest input accepted, in bytes. Default 2 GiB. A larger input is refused before
    /// anything is read, with `limitExceeded` at offset 0.
    public var maximumInputSize: Int = 1 << 31

    /// The defaults described above.
    public static let `default` = DecodingLimits()

    /// Creates limits with the defaults.
    public init() {}
}
