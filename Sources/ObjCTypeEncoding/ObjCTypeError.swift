/// An `@encode` string that does not parse: a code, the character position and a reason.
///
/// `==` compares codes only, so tests can match the kind of failure.
public struct ObjCTypeError: CodedError {
    /// The kinds of malformed type string.
    public enum Code: String, Hashable, Sendable {
        /// The string ended inside a type (`{`, `[12`, `{a=i`).
        case unexpectedEnd
        /// A byte that cannot start or continue a type here.
        case unexpectedCharacter
        /// An array count that is missing, too large, or a bitfield width out of range.
        case badCount
        /// Brackets nested deeper than ``ObjCTypeParser/Limits/maximumDepth``.
        case tooDeep
        /// The string holds no type where one is required.
        case empty
        /// A single-type parse found more after the type.
        case trailingCharacters
    }

    /// What went wrong.
    public var code: Code
    /// The zero-based character (byte) position in the type string.
    public var position: Int
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at position: Int, _ reason: String) {
        self.code = code
        self.position = position
        self.reason = reason
    }

    /// "position 3: expected '}' …".
    public var description: String { "type string position \(position): \(reason)" }

}
