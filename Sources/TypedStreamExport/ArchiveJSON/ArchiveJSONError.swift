import ObjCTypeEncoding

/// An error from JSON import or export: a code, where it happened (a JSON path such as
/// `groups[0].values[0].groups[3]`, or a byte offset in the JSON text for syntax errors) and a
/// human reason.
///
/// `==` compares codes only.
public struct ArchiveJSONError: CodedError {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The text is not JSON (bad token, unterminated string, invalid UTF-8, trailing data).
        case syntax
        /// Nesting deeper than the limit (JSON brackets or archive objects, arrays and structs).
        case limitExceeded
        /// A JSON value of the wrong kind (an array where an object is needed …).
        case wrongShape
        /// An object member this schema does not define.
        case unknownField
        /// A required object member is absent.
        case missingField
        /// An object member appears twice.
        case duplicateField
        /// The document is not a lossless typedstream JSON (missing or unknown `format`).
        case unsupportedFormat
        /// An id defined twice.
        case duplicateID
        /// A reference to an id that has not been defined before it.
        case undefinedReference
        /// A reference to an entry of the wrong kind (a C string where an object is needed …).
        case referenceKindMismatch
        /// A value that does not match its group's type string.
        case typeMismatch
        /// A value out of range, bad hex, an impossible wire decision.
        case badValue
        /// A type string that does not parse, or a type that cannot be archived.
        case badTypeString
        /// Export only: the archive cannot be written (a value of the wrong kind for its type …).
        case unwritable
    }

    /// What went wrong.
    public var code: Code
    /// Where in the document, as a JSON path (`groups[0].values[1]`); empty for the top level
    /// or for syntax errors.
    public var path: String
    /// The byte offset in the JSON text, for syntax and nesting errors.
    public var offset: Int?
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, path: String = "", offset: Int? = nil, _ reason: String) {
        self.code = code
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// "groups[0].values[1]: reason", or "offset 12: reason" for syntax errors.
    public var description: String {
        if let offset { return "JSON offset \(offset): \(reason)" }
        return (path.isEmpty ? "top level" : path) + ": " + reason
    }

}
