import ObjCTypeEncoding

/// An error from the wire layer (reading or writing tokens): a code, the byte offset and a
/// human reason, as in "offset 0x1a3: expected a type string, found end of data".
///
/// `==` compares codes only.
public struct WireError: CodedError {
    /// The kinds of wire failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The data ended in the middle of an item.
        case truncated
        /// The input is empty.
        case empty
        /// The header is not a typedstream header.
        case badHeader
        /// The streamer version is neither 3 nor 4.
        case unsupportedVersion
        /// The input is a GNUstep archive (`GNUstep archive` header), a different format.
        case foreignGNUstep
        /// The input is a keyed archive or other binary property list (`bplist00`).
        case foreignKeyedArchive
        /// A head byte that is not allowed here (a tag in the wrong place, a reserved tag).
        case unexpectedHeadByte
        /// A reference to a table entry that does not exist yet.
        case badReference
        /// A reference to an entry of the wrong kind (a C string where a class is needed).
        case referenceKindMismatch
        /// A length or count that is negative or larger than the data that remains.
        case badLength
        /// A type string that does not parse, or names a type the format cannot carry.
        case badTypeString
        /// A limit from ``DecodingLimits`` was exceeded.
        case limitExceeded
        /// A real (`f`, `d`) written as an integer that the real type cannot hold exactly, such
        /// as `f` 16 777 217. No writer produces one, and it could not be written back.
        case inexactReal
        /// A class chain whose superclass link leads back to a class of the same chain
        /// (refused by the archive graph, which would otherwise hold a cycle of classes).
        case classChainLoop
        /// A token sequence that cannot be written (writer side).
        case invalidToken
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the input (or output, for writer errors) where it went wrong.
    public var offset: Int
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// "offset 0x1a3: reason".
    public var description: String { Self.located(reason, at: offset) }

}
