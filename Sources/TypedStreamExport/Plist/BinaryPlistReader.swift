/// Reads `bplist00` binary property lists into ``PlistValue``s, UIDs included — the reading half
/// of ``BinaryPlistWriter``, for importing `NSKeyedArchiver` archives.
///
/// Untrusted input: every offset, count and reference is checked against the bytes before use;
/// collections nested deeper than ``PlistLimits/maximumDepth`` or containing themselves are
/// rejected; each object is read once (shared references share its value) and the size the
/// value would have written out in full is bounded by ``PlistLimits/expandedBytes(forInputOf:)``.
/// Nesting is followed with an explicit stack, not recursion. Errors carry the byte offset of the
/// object that failed and its object number.
///
/// ```swift
/// let value = try BinaryPlistReader.read(bytes)
/// ```
public enum BinaryPlistReader {
    /// Deepest nesting of arrays and dictionaries accepted by default.
    public static let maximumDepth = PlistLimits.default.maximumDepth

    /// The value of a binary property list. Throws ``KeyedArchiveError`` `notAKeyedArchive`
    /// (with the offset) when the bytes are not a well-formed `bplist00` within `limits`.
    public static func read(_ bytes: [UInt8], limits: PlistLimits = .default) throws(KeyedArchiveError) -> PlistValue {
        guard bytes.count <= limits.maximumInputSize else {
            throw KeyedArchiveError(.notAKeyedArchive, at: 0, "binary property list: \(bytes.count) bytes is more than the \(limits.maximumInputSize) accepted")
        }
        var reader = try BinaryPlistObjects(bytes, limits: limits)
        return try reader.value(of: reader.topObject)
    }
}

/// The object table of a binary property list and the values read from it so far.
struct BinaryPlistObjects {
    let bytes: [UInt8]
    let limits: PlistLimits
    let budget: Int
    let offsetSize: Int
    let refSize: Int
    let objectCount: Int
    let topObject: Int
    let offsetTable: Int
    /// The value of each object read so far, and its expanded size.
    private var values: [PlistValue?]
    private var sizes: [Int]
    /// Collections being read (on the stack): meeting one again is a cycle.
    private var open: [Bool]

    init(_ bytes: [UInt8], limits: PlistLimits) throws(KeyedArchiveError) {
        self.bytes = bytes
        self.limits = limits
        budget = limits.expandedBytes(forInputOf: bytes.count)
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw Self.error(at: 0, "no 'bplist0' header and trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw Self.error(at: trailer + 6, "offset size \(offsetSize) or reference size \(refSize) is not 1…8")
        }
        func field(_ at: Int) throws(KeyedArchiveError) -> Int {
            let v = Self.unsigned(bytes, at: at, size: 8)
            guard v <= UInt64(Int.max / 16) else { throw Self.error(at: at, "trailer field \(v) is too large") }
            return Int(v)
        }
        objectCount = try field(trailer + 8)
        topObject = try field(trailer + 16)
        offsetTable = try field(trailer + 24)
        guard offsetTable >= 8, offsetTable <= trailer, objectCount <= (trailer - offsetTable) / offsetSize else {
            throw Self.error(at: trailer + 8, "offset table (\(objectCount) entries at \(offsetTable)) does not fit before the trailer")
        }
        guard topObject < objectCount else {
            throw Self.error(at: trailer + 16, "top object \(topObject) is not among the \(objectCount) objects")
        }
        values = Array(repeating: nil, count: objectCount)
        sizes = Array(repeating: 0, count: objectCount)
        open = Array(repeating: false, count: objectCount)
    }

    static func error(at offset: Int, _ reason: String) -> KeyedArchiveError {
        KeyedArchiveError(.notAKeyedArchive, at: offset, "binary property list: " + reason)
    }

    static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[offset + i]) }
        return v
    }

    func offset(of object: Int, from at: Int) throws(KeyedArchiveError) -> Int {
        guard object >= 0, object < objectCount else {
            throw Self.error(at: at, "reference to object \(object), but there are \(objectCount) objects")
        }
        let entry = offsetTable + object * offsetSize
        let value = Self.unsigned(bytes, at: entry, size: offsetSize)
        guard value >= 8, value < UInt64(offsetTable) else {
            throw Self.error(at: entry, "object \(object) offset \(value) is outside the object area")
        }
        return Int(value)
    }

    func need(_ count: Int, at offset: Int) throws(KeyedArchiveError) {
        guard count >= 0, offset <= offsetTable, count <= offsetTable - offset else {
            throw Self.error(at: offset, "\(count) bytes do not fit before the offset table")
        }
    }

    /// The length of a collection or string marker at `offset` and where its contents start.
    func length(_ marker: UInt8, at offset: Int) throws(KeyedArchiveError) -> (count: Int, start: Int) {
        let low = Int(marker & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        try need(2, at: offset + 1)
        let head = bytes[offset + 1]
        guard head & 0xF0 == 0x10, head & 0x0F <= 3 else {
            throw Self.error(at: offset + 1, "length is not an integer object")
        }
        let size = 1 << Int(head & 0x0F)
        try need(size, at: offset + 2)
        let v = Self.unsigned(bytes, at: offset + 2, size: size)
        guard v <= UInt64(offsetTable) else { throw Self.error(at: offset + 1, "length \(v) is larger than the file") }
        return (Int(v), offset + 2 + size)
    }

    /// A collection being read: its references, and the values read so far.
    private struct Frame {
        var object: Int
        var offset: Int
        var isDictionary: Bool
        var count: Int
        var start: Int
        var next = 0
        var items: [PlistValue] = []
        var keys: [String] = []
        var size: Int
    }

    /// The value of `object`, reading what it refers to first (explicit stack).
    mutating func value(of object: Int) throws(KeyedArchiveError) -> PlistValue {
        var stack: [Frame] = []
        var pending = object
        var from = offsetTable
        while true {
            // Start `pending`: a value read before, a leaf, or a collection to push.
            var result: (PlistValue, Int)?
            guard pending >= 0, pending < objectCount else {
                throw Self.error(at: from, "reference to object \(pending), but there are \(objectCount) objects")
            }
            if let done = values[pending] {
                result = (done, sizes[pending])
            } else {
                let at = try offset(of: pending, from: from)
                let marker = bytes[at]
                if marker >> 4 == 0xA || marker >> 4 == 0xD {
                    guard !open[pending] else {
                        throw Self.error(at: at, "object \(pending) (a collection) contains itself")
                    }
                    guard stack.count < limits.maximumDepth else {
                        throw Self.error(at: at, "collections nested deeper than \(limits.maximumDepth) (object \(pending))")
                    }
                    let (count, start) = try length(marker, at: at)
                    let isDictionary = marker >> 4 == 0xD
                    guard count <= offsetTable / refSize else { throw Self.error(at: at, "collection of \(count) is larger than the file") }
                    try need((isDictionary ? 2 : 1) * count * refSize, at: start)
                    open[pending] = true
                    var frame = Frame(object: pending, offset: at, isDictionary: isDictionary, count: count, start: start, size: limits.valueCost)
                    frame.items.reserveCapacity(count)
                    if isDictionary { frame.keys.reserveCapacity(count) }
                    stack.append(frame)
                } else {
                    let leaf = try self.leaf(marker, at: at)
                    let size = PlistLimits.add(limits.valueCost, leaf.payload)
                    values[pending] = leaf.value
                    sizes[pending] = size
                    result = (leaf.value, size)
                }
            }
            // Hand finished values to their collections; finish collections that are complete.
            while true {
                if let (value, size) = result {
                    guard !stack.isEmpty else { return value }
                    let top = stack.count - 1
                    let total = PlistLimits.add(stack[top].size, size)
                    guard total <= budget else {
                        throw Self.error(at: stack[top].offset, "object \(stack[top].object) expands to more than \(budget) bytes through shared references (at most \(limits.expandedBytesPerInputByte) per input byte plus \(limits.expandedBaseBytes))")
                    }
                    stack[top].size = total
                    let index = stack[top].next - 1
                    if stack[top].isDictionary, index < stack[top].count {
                        guard case .string(let key) = value else {
                            throw Self.error(at: stack[top].offset, "key \(index) of dictionary object \(stack[top].object) is not a string")
                        }
                        stack[top].keys.append(key)
                    } else {
                        stack[top].items.append(value)
                    }
                    result = nil
                }
                let top = stack.count - 1
                let frame = stack[top]
                let total = frame.isDictionary ? 2 * frame.count : frame.count
                if frame.next < total {
                    let at = frame.start + frame.next * refSize
                    pending = Int(Self.unsigned(bytes, at: at, size: refSize))
                    from = at
                    stack[top].next += 1
                    break
                }
                let finished = stack.removeLast()
                let value: PlistValue = finished.isDictionary
                    ? .dictionary(zip(finished.keys, finished.items).map { PlistEntry($0.0, $0.1) })
                    : .array(finished.items)
                open[finished.object] = false
                values[finished.object] = value
                sizes[finished.object] = finished.size
                result = (value, finished.size)
            }
        }
    }

    /// A value that holds no references, and the bytes of its text or data.
    private func leaf(_ marker: UInt8, at offset: Int) throws(KeyedArchiveError) -> (value: PlistValue, payload: Int) {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return (.bool(false), 0)
            case 0x09: return (.bool(true), 0)
            default: throw Self.error(at: offset, "unsupported marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw Self.error(at: offset, "integer of \(size) bytes") }
            try need(size, at: offset + 1)
            // 16-byte integers: keep the low 64 bits (values beyond Int64 are out of range here).
            let low = Self.unsigned(bytes, at: offset + 1 + max(0, size - 8), size: min(size, 8))
            return (.integer(size >= 8 ? Int64(bitPattern: low) : Int64(low)), 0)
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8 else { throw Self.error(at: offset, "real of \(size) bytes") }
            try need(size, at: offset + 1)
            let bits = Self.unsigned(bytes, at: offset + 1, size: size)
            return (.real(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)), 0)
        case 0x3:
            guard marker == 0x33 else { throw Self.error(at: offset, "unsupported date marker") }
            try need(8, at: offset + 1)
            return (.date(Double(bitPattern: Self.unsigned(bytes, at: offset + 1, size: 8))), 0)
        case 0x4:
            let (count, start) = try length(marker, at: offset)
            try need(count, at: start)
            return (.data(Array(bytes[start..<start + count])), count)
        case 0x5:
            let (count, start) = try length(marker, at: offset)
            try need(count, at: start)
            return (.string(String(decoding: bytes[start..<start + count], as: UTF8.self)), count)
        case 0x6:
            let (count, start) = try length(marker, at: offset)
            guard count <= offsetTable / 2 else { throw Self.error(at: offset, "string of \(count) UTF-16 units is larger than the file") }
            try need(2 * count, at: start)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
            return (.string(String(decoding: units, as: UTF16.self)), 2 * count)
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 4 else { throw Self.error(at: offset, "UID of \(size) bytes") }
            try need(size, at: offset + 1)
            return (.uid(UInt32(Self.unsigned(bytes, at: offset + 1, size: size))), 0)
        default:
            throw Self.error(at: offset, "unsupported marker 0x\(String(marker, radix: 16))")
        }
    }
}
