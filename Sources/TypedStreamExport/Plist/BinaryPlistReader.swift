/// Reads `bplist00` binary property lists into ``PlistValue``s, UIDs included — the reading half
/// of ``BinaryPlistWriter``, for importing `NSKeyedArchiver` archives.
///
/// Untrusted input: every offset, count and reference is checked against the bytes before use;
/// collections nested deeper than ``maximumDepth`` or referring to themselves are rejected.
/// Errors carry the byte offset of the object that failed.
///
/// ```swift
/// let value = try BinaryPlistReader.read(bytes)
/// ```
public enum BinaryPlistReader {
    /// Deepest nesting of arrays and dictionaries accepted.
    public static let maximumDepth = 512

    /// The value of a binary property list. Throws ``KeyedArchiveError`` `notAKeyedArchive`
    /// (with the offset) when the bytes are not a well-formed `bplist00`.
    public static func read(_ bytes: [UInt8]) throws(KeyedArchiveError) -> PlistValue {
        var reader = try Reader(bytes)
        return try reader.value(at: reader.topObject, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let refSize: Int
        let objectCount: Int
        let topObject: Int
        let offsetTable: Int
        var inProgress: Set<Int> = []
        /// Values produced so far: shared collections cannot blow up into more than this.
        var produced = 0
        static let maximumValues = 1 << 24

        init(_ bytes: [UInt8]) throws(KeyedArchiveError) {
            self.bytes = bytes
            guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
                throw KeyedArchiveError(.notAKeyedArchive, at: 0, "not a binary property list (no 'bplist0' header and trailer)")
            }
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            refSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
                throw KeyedArchiveError(.notAKeyedArchive, at: trailer + 6, "offset size \(offsetSize) or reference size \(refSize) is not 1…8")
            }
            func field(_ at: Int) throws(KeyedArchiveError) -> Int {
                let v = Self.unsigned(bytes, at: at, size: 8)
                guard v <= UInt64(Int.max / 16) else { throw KeyedArchiveError(.notAKeyedArchive, at: at, "trailer field \(v) is too large") }
                return Int(v)
            }
            objectCount = try field(trailer + 8)
            topObject = try field(trailer + 16)
            offsetTable = try field(trailer + 24)
            guard offsetTable >= 8, offsetTable <= trailer, objectCount <= (trailer - offsetTable) / offsetSize else {
                throw KeyedArchiveError(.notAKeyedArchive, at: trailer + 8, "offset table (\(objectCount) entries at \(offsetTable)) does not fit before the trailer")
            }
            guard topObject < objectCount else {
                throw KeyedArchiveError(.notAKeyedArchive, at: trailer + 16, "top object \(topObject) is not among the \(objectCount) objects")
            }
        }

        static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(bytes[offset + i]) }
            return v
        }

        func offset(of object: Int) throws(KeyedArchiveError) -> Int {
            guard object >= 0, object < objectCount else {
                throw KeyedArchiveError(.notAKeyedArchive, at: offsetTable, "reference to object \(object) of \(objectCount)")
            }
            let at = offsetTable + object * offsetSize
            let value = Self.unsigned(bytes, at: at, size: offsetSize)
            guard value >= 8, value < UInt64(offsetTable) else {
                throw KeyedArchiveError(.notAKeyedArchive, at: at, "object \(object) offset \(value) is outside the object area")
            }
            return Int(value)
        }

        func need(_ count: Int, at offset: Int) throws(KeyedArchiveError) {
            guard count >= 0, offset <= offsetTable, count <= offsetTable - offset else {
                throw KeyedArchiveError(.notAKeyedArchive, at: offset, "\(count) bytes do not fit before the offset table")
            }
        }

        /// The length of a collection or string marker at `offset` and where its contents start.
        func length(_ marker: UInt8, at offset: Int) throws(KeyedArchiveError) -> (count: Int, start: Int) {
            let low = Int(marker & 0x0F)
            guard low == 0x0F else { return (low, offset + 1) }
            try need(2, at: offset + 1)
            let head = bytes[offset + 1]
            guard head & 0xF0 == 0x10, head & 0x0F <= 3 else {
                throw KeyedArchiveError(.notAKeyedArchive, at: offset + 1, "length is not an integer object")
            }
            let size = 1 << Int(head & 0x0F)
            try need(size, at: offset + 2)
            let v = Self.unsigned(bytes, at: offset + 2, size: size)
            guard v <= UInt64(offsetTable) else { throw KeyedArchiveError(.notAKeyedArchive, at: offset + 1, "length \(v) is larger than the file") }
            return (Int(v), offset + 2 + size)
        }

        mutating func value(at object: Int, depth: Int) throws(KeyedArchiveError) -> PlistValue {
            let offset = try offset(of: object)
            produced += 1
            guard produced <= Self.maximumValues else {
                throw KeyedArchiveError(.notAKeyedArchive, at: offset, "more than \(Self.maximumValues) values (shared collections)")
            }
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw KeyedArchiveError(.notAKeyedArchive, at: offset, "unsupported marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                guard size <= 16 else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "integer of \(size) bytes") }
                try need(size, at: offset + 1)
                // 16-byte integers: keep the low 64 bits (values beyond Int64 are out of range here).
                let low = Self.unsigned(bytes, at: offset + 1 + max(0, size - 8), size: min(size, 8))
                return .integer(size >= 8 ? Int64(bitPattern: low) : Int64(low))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                guard size == 4 || size == 8 else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "real of \(size) bytes") }
                try need(size, at: offset + 1)
                let bits = Self.unsigned(bytes, at: offset + 1, size: size)
                return .real(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
            case 0x3:
                guard marker == 0x33 else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "unsupported date marker") }
                try need(8, at: offset + 1)
                return .date(Double(bitPattern: Self.unsigned(bytes, at: offset + 1, size: 8)))
            case 0x4:
                let (count, start) = try length(marker, at: offset)
                try need(count, at: start)
                return .data(Array(bytes[start..<start + count]))
            case 0x5:
                let (count, start) = try length(marker, at: offset)
                try need(count, at: start)
                return .string(String(decoding: bytes[start..<start + count], as: UTF8.self))
            case 0x6:
                let (count, start) = try length(marker, at: offset)
                guard count <= offsetTable / 2 else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "string too long") }
                try need(2 * count, at: start)
                var units: [UInt16] = []
                units.reserveCapacity(count)
                for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                guard size <= 4 else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "UID of \(size) bytes") }
                try need(size, at: offset + 1)
                return .uid(UInt32(Self.unsigned(bytes, at: offset + 1, size: size)))
            case 0xA, 0xD:
                guard depth < BinaryPlistReader.maximumDepth else {
                    throw KeyedArchiveError(.notAKeyedArchive, at: offset, "collections nested deeper than \(BinaryPlistReader.maximumDepth)")
                }
                guard inProgress.insert(object).inserted else {
                    throw KeyedArchiveError(.notAKeyedArchive, at: offset, "a collection contains itself")
                }
                defer { inProgress.remove(object) }
                let (count, start) = try length(marker, at: offset)
                let isDictionary = marker >> 4 == 0xD
                guard count <= offsetTable / refSize else { throw KeyedArchiveError(.notAKeyedArchive, at: offset, "collection too large") }
                try need((isDictionary ? 2 : 1) * count * refSize, at: start)
                func ref(_ i: Int) -> Int { Int(Self.unsigned(bytes, at: start + i * refSize, size: refSize)) }
                if !isDictionary {
                    var items: [PlistValue] = []
                    items.reserveCapacity(count)
                    for i in 0..<count { items.append(try value(at: ref(i), depth: depth + 1)) }
                    return .array(items)
                }
                var entries: [PlistEntry] = []
                entries.reserveCapacity(count)
                for i in 0..<count {
                    guard case .string(let key) = try value(at: ref(i), depth: depth + 1) else {
                        throw KeyedArchiveError(.notAKeyedArchive, at: offset, "dictionary key \(i) is not a string")
                    }
                    entries.append(PlistEntry(key, try value(at: ref(count + i), depth: depth + 1)))
                }
                return .dictionary(entries)
            default:
                throw KeyedArchiveError(.notAKeyedArchive, at: offset, "unsupported marker 0x\(String(marker, radix: 16))")
            }
        }
    }
}
