import ObjCTypeEncoding

/// An error from the ordered coder (``Unarchiver`` / ``Archiver``): a code, the byte offset in
/// the archive where it happened (when known) and a human reason, as in
/// "offset 0x2f: expected type 'i', found '@'".
///
/// `==` compares codes only.
public struct CoderError: CodedError {
    /// The kinds of coder failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The archive's bytes are malformed (the wire error is in the reason).
        case malformed
        /// The next group's type string is not the type asked for (decoding out of order).
        case typeMismatch
        /// Asked for a value, but the object (or archive) has no more groups.
        case noMoreValues
        /// A class codec left groups of its object undecoded.
        case unconsumedValues
        /// A value does not fit the Swift type asked for (e.g. 300 into `UInt8`).
        case valueOutOfRange
        /// An object of a different class than the caller expected.
        case unexpectedClass
        /// A class version this codec does not understand.
        case unsupportedVersion
        /// A value the archiver cannot write (wrong shape for its type string, nil where not allowed).
        case invalidValue
        /// Something in the object's contents is not what its class writes.
        case badContents
        /// More values remain at the top level after the root object.
        case trailingValues
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the archive, when known.
    public var offset: Int?
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int? = nil, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// Wraps a wire error.
    public init(_ wire: WireError) {
        self.init(.malformed, at: wire.offset, wire.reason)
    }

    /// "offset 0x2f (47): reason".
    public var description: String { Self.located(reason, at: offset) }

}
