/// One value of an old NeXT binary property list: the tree that ``NeXTBinaryPlist`` reads and
/// writes.
///
/// The format knows only arrays, data, strings, dictionaries and nil. Everything needed to
/// write the same bytes again is kept: a string's encoding and byte-order mark (inside
/// ``NeXTPlistString``), dictionary order and duplicate keys, and padding bytes that are not
/// zero. Containers are `indirect`, so values nest freely.
///
/// ```swift
/// let font: NeXTPlistValue = "Helvetica"                // UTF-16 string, little-endian
/// let dict: NeXTPlistValue = ["NSFontName": font]       // ordered entries
/// dict["NSFontName"]?.stringValue                        // "Helvetica"
/// ```
public indirect enum NeXTPlistValue: Hashable, Sendable {
    /// Type code 2: an array.
    case array([NeXTPlistValue])
    /// Type code 4: raw bytes. `padding` is nil when the 0…3 bytes after them are zero (as
    /// every known writer leaves them); otherwise it holds those bytes exactly as read.
    case data([UInt8], padding: [UInt8]? = nil)
    /// Type codes 5 (NeXTSTEP 8-bit) and 6 (UTF-16): a string. `padding` as for ``data(_:padding:)``.
    case string(NeXTPlistString, padding: [UInt8]? = nil)
    /// Type code 7: a dictionary, as its entries in file order (duplicate keys are kept).
    case dictionary([NeXTPlistEntry])
    /// Type code 8: nil.
    case null

    /// Creates a UTF-16 string value with a byte-order mark (see ``NeXTPlistString/init(_:byteOrder:)``).
    public init(_ text: String, byteOrder: NeXTPlistString.ByteOrder = .littleEndian) {
        self = .string(NeXTPlistString(text, byteOrder: byteOrder))
    }

    /// The type code this value is written with.
    public var typeCode: NeXTPlistTypeCode {
        switch self {
        case .array: .array
        case .data: .data
        case .string(let string, _): string.encoding == .nextstep ? .nextstepString : .unicodeString
        case .dictionary: .dictionary
        case .null: .null
        }
    }

    /// The text of a string value, or nil for other values.
    public var stringValue: String? {
        if case .string(let string, _) = self { return string.string }
        return nil
    }

    /// The string of a string value with its encoding and bytes, or nil for other values.
    public var plistString: NeXTPlistString? {
        if case .string(let string, _) = self { return string }
        return nil
    }

    /// The bytes of a data value, or nil for other values.
    public var dataValue: [UInt8]? {
        if case .data(let bytes, _) = self { return bytes }
        return nil
    }

    /// The elements of an array, or nil for other values.
    public var arrayValue: [NeXTPlistValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries of a dictionary in file order, or nil for other values.
    public var dictionaryEntries: [NeXTPlistEntry]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// Whether this is the nil value (type code 8).
    public var isNull: Bool { self == .null }

    /// The value of the first dictionary entry whose key is a string with this text; nil if
    /// there is none or this is not a dictionary.
    public subscript(key: String) -> NeXTPlistValue? {
        dictionaryEntries?.first { $0.key.stringValue == key }?.value
    }
}

/// One dictionary entry: a key (a string in every known file, but any value is kept) and its value.
public struct NeXTPlistEntry: Hashable, Sendable {
    /// The key.
    public var key: NeXTPlistValue
    /// The value.
    public var value: NeXTPlistValue

    /// Creates an entry.
    public init(key: NeXTPlistValue, value: NeXTPlistValue) {
        self.key = key
        self.value = value
    }
}

extension NeXTPlistValue: ExpressibleByStringLiteral {
    /// A UTF-16 string value, little-endian with a byte-order mark.
    public init(stringLiteral value: String) { self.init(value) }
}

extension NeXTPlistValue: ExpressibleByArrayLiteral {
    /// An array value.
    public init(arrayLiteral elements: NeXTPlistValue...) { self = .array(elements) }
}

extension NeXTPlistValue: ExpressibleByDictionaryLiteral {
    /// A dictionary value with the entries in the order written (duplicates kept).
    public init(dictionaryLiteral elements: (NeXTPlistValue, NeXTPlistValue)...) {
        self = .dictionary(elements.map { NeXTPlistEntry(key: $0.0, value: $0.1) })
    }
}
