/// Bounds that protect a reader from hostile input. Every count and length read from a file is
/// checked against the bytes that remain and against these limits before anything is allocated.
public struct DecodingLimits: Hashable, Sendable {
    /// Deepest nesting of objects, arrays and structs together. Default 256.
    public var maximumNesting: Int = 256
    /// Deepest nesting inside one type string. Default 64.
    public var maximumTypeNesting: Int = 64
    /// Most entries in the object table (objects, classes, C strings). Default 16 777 216.
    public var maximumObjects: Int = 1 << 24
    /// Most entries in the shared-string table. Default 16 777 216.
    public var maximumSharedStrings: Int = 1 << 24
    /// Most elements of one array whose elements take no bytes on the wire. Default 65 536.
    public var maximumEmptyElementArray: Int = 1 << 16
    /// Largest input accepted, in bytes. Default 2 GiB.
    public var maximumInputSize: Int = 1 << 31

    /// The defaults described above.
    public static let `default` = DecodingLimits()

    /// Creates limits with the defaults.
    public init() {}
}
