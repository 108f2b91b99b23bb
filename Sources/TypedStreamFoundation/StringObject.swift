import TypedStream

/// `NSString` / `NSMutableString` (version 1): one `"+"` group with the UTF-8 bytes.
///
/// The bytes are kept exactly as archived, so text that is not valid UTF-8 (seen in about 0.1 %
/// of iMessage bodies) survives a round trip; ``string`` decodes it with replacement characters
/// and ``isValidUTF8`` says whether that was needed.
public final class StringObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSString` v1 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.immutableChain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// The archived bytes (UTF-8 for Apple archives; NeXTSTEP encoding for NeXT-era files).
    @exclusivity(unchecked) public var bytes: ArraySlice<UInt8> = []

    /// `NSString` v1 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSString", version: 1), .nsObject]
    /// `NSMutableString` v1 : `NSString` v1 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableString", version: 1)] + immutableChain

    /// Creates an empty `NSString`.
    public init() {}

    /// Creates an `NSString` (or `NSMutableString`) holding `string`.
    public init(_ string: String, mutable: Bool = false) {
        bytes = ArraySlice(string.utf8)
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// The text (invalid UTF-8 replaced by U+FFFD).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Whether the archived class is `NSMutableString`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableString" }

    /// The length in UTF-16 code units, as `-[NSString length]` counts.
    public var utf16Count: Int { Self.utf16Count(of: bytes) }

    /// The length in UTF-16 code units of the text of archived `bytes` (invalid UTF-8 counted
    /// as its replacement characters), as ``utf16Count`` gives it.
    public static func utf16Count(of bytes: ArraySlice<UInt8>) -> Int {
        UTF16Length.ofText(bytes)
    }

    /// Reads the `"+"` group.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "NSString", in: 1...1)
        bytes = try decoder.decodeByteSlice() ?? []
    }

    /// Writes the `"+"` group.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encodeByteSlice(bytes)
    }

    /// The text.
    public var description: String { string }
}

extension ObjectDecoder {
    /// Decodes the next `"@"` group as an `NSString` and returns its text (`nil` for nil).
    /// Throws `unexpectedClass` when the object is not a string.
    public func decodeString() throws(CoderError) -> String? {
        try decodeObject(of: StringObject.self)?.string
    }
}

extension ObjectEncoder {
    /// Encodes `string` as a new `NSString` object (`nil` writes nil).
    public func encodeString(_ string: String?, mutable: Bool = false) throws(CoderError) {
        try encodeObject(string.map { StringObject($0, mutable: mutable) })
    }
}
