import ObjCTypeEncoding

import TypedStream

/// An error from keyed-archive export or import: a code, the byte offset in the typedstream
/// when the failure comes from decoding one, and a human reason.
///
/// `==` compares codes only.
public struct KeyedArchiveError: CodedError {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The typedstream could not be decoded (the coder's reason and offset are kept).
        case decoding
        /// An object that is not ``KeyedArchiveRepresentable`` (a typed object without a keyed
        /// layout handed to ``KeyedArchiveEncoder`` itself, which ``KeyedArchiveExporter`` exports
        /// from a generic copy), or objects that cannot be archived for that copy.
        case unsupportedObject
        /// Objects nested deeper than ``KeyedArchiveExporter/Options/maximumDepth``.
        case tooDeep
        /// More objects than a keyed archive's 32-bit UIDs can number.
        case tooManyObjects
        /// The input is not an `NSKeyedArchiver` property list (import).
        case notAKeyedArchive
        /// A UID that points outside `$objects`, or at the wrong kind of entry (import).
        case badReference
        /// An object entry whose keys do not have the shape its class writes (import).
        case badObject
        /// The archive would hold more text and data than ``KeyedArchiveExporter/Options/maximumTextBytes``
        /// allows (a value written again at every place it is reached).
        case tooLarge
        /// A value that the XML form cannot hold (a string with a control character XML 1.0
        /// forbids, a date outside the years 1 to 9999); the binary form holds it.
        case notRepresentableInXML
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the typedstream, when the error comes from decoding one.
    public var offset: Int?
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int? = nil, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// Wraps a coder error (code ``Code/decoding``, keeping its offset and reason).
    public init(_ coder: CoderError) {
        self.init(.decoding, at: coder.offset, "\(coder.code.rawValue): \(coder.reason)")
    }

    /// "offset 0x2f (47): reason", or the reason alone.
    public var description: String { Self.located(reason, at: offset) }

}
