import ObjCTypeEncoding

/// An error from reading an old NeXT binary property list: a code, the byte offset and a human
/// reason, as in "offset 0x8 (8): string length 40 is larger than the 12 bytes that remain".
///
/// Offsets count from the first byte of the property list (not of the archive that holds it).
/// `==` compares codes only, so tests can match a kind of failure without spelling the reason.
public struct NeXTPlistError: CodedError {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The data ended in the middle of a value.
        case truncated
        /// A type code that is not one of 2, 4, 5, 6, 7 or 8.
        case unknownTypeCode
        /// A length or count larger than the bytes that remain.
        case badLength
        /// An entry of a container's value-length table differs from the length of the value.
        case lengthMismatch
        /// Containers nested deeper than the limit given to the decoder.
        case nestingTooDeep
        /// Bytes left over after the root value.
        case trailingBytes
        /// A form the format may allow but that no sample shows and this reader does not take
        /// (the `0x80000000` "aligned bytes" length escape).
        case unsupported
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset, from the start of the property list, where it went wrong.
    public var offset: Int
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// "offset 0x1a (26): reason".
    public var description: String { Self.located(reason, at: offset) }

}
