/// A structural check for the old NeXT binary property list (the format of `NSSerializer` and
/// of `-[NSArchiver encodePropertyList:]`), used by `detect` to recognise such a file
/// conservatively: every value, length, padding and table must check out and the data must end
/// exactly where the root value ends.
///
/// Layout (all numbers 4-byte little-endian): a type code — 2 array, 4 data, 5 NeXTSTEP-encoded
/// string, 6 UTF-16 string with BOM, 7 dictionary, 8 nil. Data and strings: length, bytes, zero
/// padding to a multiple of 4. Arrays and dictionaries: count, (dictionary: the keys as string
/// values), a table of the byte length of each value, then the values.
enum NeXTBinaryPropertyList {
    /// What the root value is.
    struct Shape: Hashable {
        /// "array", "dictionary", "data", "string" …
        var kind: String
        /// The number of elements or entries, or the byte length of data and strings.
        var count: Int
    }

    /// Why the bytes are not such a property list.
    struct Problem: Error, Hashable {
        /// Where the check failed.
        var offset: Int
        /// Why.
        var reason: String
    }

    /// Deepest nesting accepted.
    static let maximumDepth = 32

    /// The shape of the root value if `bytes` is exactly one well-formed value whose root is an
    /// array, dictionary, data or string. Throws ``Problem`` otherwise.
    static func check(_ bytes: [UInt8]) throws(Problem) -> Shape {
        var offset = 0
        let shape = try value(bytes, at: &offset, depth: 0)
        guard shape.kind != "nil" else { throw Problem(offset: 0, reason: "a lone nil is too little to recognise") }
        guard offset == bytes.count else {
            throw Problem(offset: offset, reason: "\(bytes.count - offset) bytes follow the root value")
        }
        return shape
    }

    private static func word(_ bytes: [UInt8], at offset: inout Int) throws(Problem) -> Int {
        guard bytes.count - offset >= 4 else { throw Problem(offset: offset, reason: "expected 4 bytes, found \(bytes.count - offset)") }
        let value = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        offset += 4
        return value
    }

    private static func value(_ bytes: [UInt8], at offset: inout Int, depth: Int) throws(Problem) -> Shape {
        guard depth < maximumDepth else { throw Problem(offset: offset, reason: "nested deeper than \(maximumDepth)") }
        let start = offset
        let type = try word(bytes, at: &offset)
        switch type {
        case 4, 5, 6:
            let lengthOffset = offset
            let length = try word(bytes, at: &offset)
            let padding = (4 - length % 4) % 4
            guard length <= bytes.count - offset, padding <= bytes.count - offset - length else {
                throw Problem(offset: lengthOffset, reason: "length \(length) runs past the end")
            }
            if type == 6 {
                let bomOK = length >= 2 && ((bytes[offset] == 0xFF && bytes[offset + 1] == 0xFE) || (bytes[offset] == 0xFE && bytes[offset + 1] == 0xFF))
                guard bomOK, length % 2 == 0 else { throw Problem(offset: offset, reason: "UTF-16 string without a byte order mark") }
            }
            offset += length
            for position in offset..<offset + padding where bytes[position] != 0 {
                throw Problem(offset: position, reason: "padding byte is not zero")
            }
            offset += padding
            return Shape(kind: type == 4 ? "data" : type == 5 ? "NeXTSTEP string" : "UTF-16 string", count: length)
        case 2, 7:
            let countOffset = offset
            let count = try word(bytes, at: &offset)
            // Every value takes at least 8 bytes (type + length-table entry), keys 8 more.
            guard count <= (bytes.count - offset) / (type == 7 ? 16 : 8) else {
                throw Problem(offset: countOffset, reason: "count \(count) cannot fit in the bytes that remain")
            }
            if type == 7 {
                for _ in 0..<count {
                    let keyOffset = offset
                    let key = try value(bytes, at: &offset, depth: depth + 1)
                    guard key.kind.hasSuffix("string") else { throw Problem(offset: keyOffset, reason: "dictionary key is \(key.kind), not a string") }
                }
            }
            var lengths: [Int] = []
            lengths.reserveCapacity(count)
            for _ in 0..<count { lengths.append(try word(bytes, at: &offset)) }
            for length in lengths {
                let valueStart = offset
                _ = try value(bytes, at: &offset, depth: depth + 1)
                guard offset - valueStart == length else {
                    throw Problem(offset: valueStart, reason: "value takes \(offset - valueStart) bytes, the length table says \(length)")
                }
            }
            return Shape(kind: type == 2 ? "array" : "dictionary", count: count)
        case 8:
            return Shape(kind: "nil", count: 0)
        default:
            throw Problem(offset: start, reason: "type code \(type) is not 2, 4, 5, 6, 7 or 8")
        }
    }
}
