/// The old NeXT binary property list: the format of `NSSerializer`, and of the data object that
/// `-[NSArchiver encodePropertyList:]` writes into a typedstream (NSFont keeps its name so).
///
/// Every integer is 4 bytes, little-endian, whatever the byte order of the machine or of the
/// archive around it. A value is a type code (``NeXTPlistTypeCode``) and then:
///
/// ```text
/// 4 data, 5 NeXTSTEP string, 6 UTF-16 string:  length n, n bytes, zero padding to a multiple of 4
/// 2 array:       count n, n value lengths, the n values
/// 7 dictionary:  count n, the n keys, n value lengths, the n values
/// 8 nil:         nothing
/// ```
///
/// A value length is the number of bytes the value takes, padding included; keys have none.
///
/// ```swift
/// let value = try NeXTBinaryPlist.decode(payload)      // throws NeXTPlistError
/// value.stringValue                                     // "Helvetica"
/// NeXTBinaryPlist.encode(value) == payload              // true for every real sample
/// ```
public enum NeXTBinaryPlist {
    /// The deepest nesting of arrays and dictionaries the decoder accepts by default.
    public static let defaultMaximumDepth = 128

    /// Decodes a property list that fills `bytes` exactly.
    ///
    /// Throws ``NeXTPlistError`` on a truncated or malformed list, on containers nested deeper
    /// than `maximumDepth`, and (``NeXTPlistError/Code/trailingBytes``) when bytes are left over.
    public static func decode(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth
    ) throws(NeXTPlistError) -> NeXTPlistValue {
        var reader = NeXTBinaryPlistReader(bytes: Array(bytes), maximumDepth: maximumDepth)
        let value = try reader.readValue(depth: 0)
        guard reader.offset == reader.bytes.count else {
            let extra = reader.bytes.count - reader.offset
            throw NeXTPlistError(.trailingBytes, at: reader.offset, "\(extra) byte(s) follow the end of the property list")
        }
        return value
    }

    /// Decodes one property list from the start of `bytes` and returns it with the number of
    /// bytes it took; whatever follows is left alone (`NSDeserializer`'s cursor style).
    ///
    /// Throws ``NeXTPlistError`` on a truncated or malformed list or too deep nesting.
    public static func decodePrefix(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth
    ) throws(NeXTPlistError) -> (value: NeXTPlistValue, length: Int) {
        var reader = NeXTBinaryPlistReader(bytes: Array(bytes), maximumDepth: maximumDepth)
        let value = try reader.readValue(depth: 0)
        return (value, reader.offset)
    }

    /// Encodes a value. Decoding real data and encoding it again gives the same bytes.
    public static func encode(_ value: NeXTPlistValue) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(value, into: &bytes)
        return bytes
    }

    /// Appends the encoding of `value` to `bytes`.
    public static func encode(_ value: NeXTPlistValue, into bytes: inout [UInt8]) {
        var writer = NeXTBinaryPlistWriter(bytes: bytes)
        bytes = []
        writer.write(value)
        bytes = writer.bytes
    }
}

/// The type code that starts every value (a 4-byte little-endian integer). Codes 0, 1 and 3
/// are not used by any known writer.
public enum NeXTPlistTypeCode: UInt32, Hashable, Sendable, CaseIterable {
    /// 2: an array (`NSArray`).
    case array = 2
    /// 4: data (`NSData`).
    case data = 4
    /// 5: a string in the NeXTSTEP 8-bit character set (written by NeXTSTEP and OPENSTEP).
    case nextstepString = 5
    /// 6: a UTF-16 string with a byte-order mark (written by Mac OS X and later).
    case unicodeString = 6
    /// 7: a dictionary (`NSDictionary`).
    case dictionary = 7
    /// 8: nil.
    case null = 8

    /// A short name for messages: "array", "data", "NeXTSTEP string", …
    public var name: String {
        switch self {
        case .array: "array"
        case .data: "data"
        case .nextstepString: "NeXTSTEP string"
        case .unicodeString: "UTF-16 string"
        case .dictionary: "dictionary"
        case .null: "nil"
        }
    }
}
