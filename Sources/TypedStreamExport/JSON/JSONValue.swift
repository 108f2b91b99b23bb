/// A parsed JSON document, kept close to its text: numbers keep their exact spelling and
/// object members keep their order (duplicates included), so a reader can check them strictly.
///
/// ```swift
/// let value = try JSONValue.parse(Array(#"{"a": [1, 2.5, "x"]}"#.utf8))
/// print(value["a"]?[1] ?? .null)   // number("2.5")
/// ```
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its exact JSON text (`-0.0`, `1e+30`, `18446744073709551615` …).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its members in document order.
    case object([JSONMember])

    /// A number value for an integer.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// A number value for a finite double, or a string (`"NaN"`, `"Infinity"`, `"-Infinity"`)
    /// for a value JSON cannot hold as a number.
    public static func double(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    /// The member named `key` of an object (the first, if repeated), else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A short name for the kind of value ("an object", "a number" …), for messages.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
