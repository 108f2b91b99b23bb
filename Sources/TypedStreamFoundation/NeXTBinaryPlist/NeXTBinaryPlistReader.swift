/// Reads one value at a time from an old NeXT binary property list (see ``NeXTBinaryPlist``).
///
/// Every length and count is checked against the bytes that remain before anything is
/// allocated, and recursion stops at `maximumDepth` containers.
struct NeXTBinaryPlistReader {
    /// The whole input.
    let bytes: [UInt8]
    /// The deepest container nesting allowed.
    let maximumDepth: Int
    /// The offset of the next unread byte.
    private(set) var offset = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Bytes not yet read.
    private var remaining: Int { bytes.count - offset }

    /// The escape some `deserializeAlignedBytesLength` readers follow to an out-of-line payload.
    private static let alignedBytesEscape: UInt32 = 0x8000_0000

    /// Reads a 4-byte little-endian integer.
    private mutating func readWord(_ what: String) throws(NeXTPlistError) -> UInt32 {
        guard remaining >= 4 else {
            throw NeXTPlistError(.truncated, at: offset, "expected \(what) (4 bytes), found \(remaining) byte(s)")
        }
        let word = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        offset += 4
        return word
    }

    /// Reads a value whose type code starts at ``offset``; `depth` is the number of containers
    /// around it.
    mutating func readValue(depth: Int) throws(NeXTPlistError) -> NeXTPlistValue {
        let start = offset
        let raw = try readWord("a type code")
        guard let code = NeXTPlistTypeCode(rawValue: raw) else {
            throw NeXTPlistError(.unknownTypeCode, at: start,
                                 "type code \(raw) is none of 2 (array), 4 (data), 5 (NeXTSTEP string), 6 (UTF-16 string), 7 (dictionary), 8 (nil)")
        }
        switch code {
        case .null:
            return .null
        case .data:
            let (payload, padding) = try readBytes(of: code)
            return .data(payload, padding: padding)
        case .nextstepString, .unicodeString:
            let (payload, padding) = try readBytes(of: code)
            let encoding: NeXTPlistString.Encoding = code == .nextstepString ? .nextstep : .utf16
            return .string(NeXTPlistString(encoding: encoding, bytes: payload), padding: padding)
        case .array, .dictionary:
            guard depth < maximumDepth else {
                throw NeXTPlistError(.nestingTooDeep, at: start, "\(code.name) nested deeper than \(maximumDepth) containers")
            }
            return try readContainer(of: code, depth: depth)
        }
    }

    /// Reads a length, the bytes and their padding; the padding is returned only when not all zero.
    private mutating func readBytes(of code: NeXTPlistTypeCode) throws(NeXTPlistError) -> ([UInt8], [UInt8]?) {
        let lengthOffset = offset
        let length = try readWord("the \(code.name) length")
        if length == Self.alignedBytesEscape {
            throw NeXTPlistError(.unsupported, at: lengthOffset, "\(code.name) length 0x80000000 (the aligned-bytes escape) is not supported")
        }
        guard UInt64(length) <= UInt64(remaining) else {
            throw NeXTPlistError(.badLength, at: lengthOffset, "\(code.name) length \(length) is larger than the \(remaining) byte(s) that remain")
        }
        let count = Int(length)
        let payload = Array(bytes[offset ..< offset + count])
        offset += count
        let paddingCount = (4 - count % 4) % 4
        guard remaining >= paddingCount else {
            throw NeXTPlistError(.truncated, at: offset, "expected \(paddingCount) padding byte(s) after the \(code.name), found \(remaining)")
        }
        let padding = bytes[offset ..< offset + paddingCount]
        offset += paddingCount
        return (payload, padding.allSatisfy { $0 == 0 } ? nil : Array(padding))
    }

    /// Reads an array or dictionary after its type code.
    private mutating func readContainer(of code: NeXTPlistTypeCode, depth: Int) throws(NeXTPlistError) -> NeXTPlistValue {
        let countOffset = offset
        let count = try readWord("the \(code.name) count")
        // Each entry needs at least a 4-byte length-table slot and a 4-byte value, and a
        // dictionary entry a 4-byte key as well.
        let smallestEntry = code == .dictionary ? 12 : 8
        guard UInt64(count) <= UInt64(remaining / smallestEntry) else {
            throw NeXTPlistError(.badLength, at: countOffset,
                                 "\(code.name) count \(count) needs at least \(UInt64(count) * UInt64(smallestEntry)) bytes, only \(remaining) remain")
        }
        let n = Int(count)
        var keys: [NeXTPlistValue] = []
        if code == .dictionary {
            keys.reserveCapacity(n)
            for _ in 0 ..< n { keys.append(try readValue(depth: depth + 1)) }
        }
        let tableOffset = offset
        guard remaining / 4 >= n else {
            throw NeXTPlistError(.truncated, at: offset, "expected a table of \(n) value length(s), found \(remaining) byte(s)")
        }
        var lengths: [UInt32] = []
        lengths.reserveCapacity(n)
        for _ in 0 ..< n { lengths.append(try readWord("a value length")) }
        var values: [NeXTPlistValue] = []
        values.reserveCapacity(n)
        for (index, expected) in lengths.enumerated() {
            let start = offset
            guard UInt64(expected) <= UInt64(remaining) else {
                throw NeXTPlistError(.badLength, at: tableOffset + 4 * index,
                                     "value \(index) of the \(code.name) is said to take \(expected) bytes, only \(remaining) remain")
            }
            values.append(try readValue(depth: depth + 1))
            guard offset - start == Int(expected) else {
                throw NeXTPlistError(.lengthMismatch, at: tableOffset + 4 * index,
                                     "value \(index) of the \(code.name) is said to take \(expected) bytes but takes \(offset - start)")
            }
        }
        if code == .array { return .array(values) }
        return .dictionary(zip(keys, values).map { NeXTPlistEntry(key: $0, value: $1) })
    }
}
