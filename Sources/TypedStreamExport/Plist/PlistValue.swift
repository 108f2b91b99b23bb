/// A property-list value as keyed archives use them, including the `UID` type that only
/// binary plists (and `NSKeyedArchiver`) have. Dictionaries keep their key order.
public enum PlistValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// A signed integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// A boolean.
    case bool(Bool)
    /// Raw bytes.
    case data([UInt8])
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// An array.
    case array([PlistValue])
    /// A dictionary with string keys, in order.
    case dictionary([PlistEntry])
    /// A keyed-archive object reference (`CF$UID`).
    case uid(UInt32)
}

/// One entry of a ``PlistValue/dictionary(_:)``.
public struct PlistEntry: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: PlistValue

    /// Creates an entry.
    public init(_ key: String, _ value: PlistValue) {
        self.key = key
        self.value = value
    }
}

extension PlistValue {
    /// The value for `key` in a dictionary (first match), else `nil`.
    public subscript(key: String) -> PlistValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

extension PlistValue {
    /// Whether the value is a scalar (anything but an array or a dictionary).
    var isScalar: Bool {
        switch self {
        case .array, .dictionary: false
        default: true
        }
    }
}
