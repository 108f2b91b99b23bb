/// Writes ``PlistValue``s as `bplist00` binary property lists — the container format of
/// `NSKeyedArchiver` archives. Equal strings, numbers and UIDs are stored once, as
/// CoreFoundation does.
public enum BinaryPlistWriter {
    /// The bytes of `value` as a binary property list.
    public static func write(_ value: PlistValue) -> [UInt8] {
        var flattener = Flattener()
        let top = flattener.add(value)
        let objects = flattener.objects
        let refSize = byteCount(for: UInt64(objects.count))
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            encode(object, refSize: refSize, into: &out)
        }
        let offsetTableStart = out.count
        let offsetSize = byteCount(for: UInt64(offsetTableStart))
        for offset in offsets { appendSized(UInt64(offset), size: offsetSize, into: &out) }
        out += [0, 0, 0, 0, 0, 0]  // unused, sort version
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        appendSized(UInt64(objects.count), size: 8, into: &out)
        appendSized(UInt64(top), size: 8, into: &out)
        appendSized(UInt64(offsetTableStart), size: 8, into: &out)
        return out
    }

    /// An object of the flat table: a scalar, or a collection of references.
    private enum FlatObject {
        case scalar(PlistValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Flattener {
        var objects: [FlatObject] = []
        var scalarIndex: [PlistValue: Int] = [:]
        /// The object of each UID value written so far, by UID (`-1`: none yet). A keyed
        /// archive refers to every object by UID, so UIDs are most of the scalars; found by
        /// number here instead of by hashing.
        var uidIndex: [Int] = []
        /// The last dictionary keys written and their objects: objects of one class repeat
        /// the same few keys, found by comparing them instead of hashing.
        var recentKeys: [(key: String, index: Int)] = []

        mutating func add(_ value: PlistValue) -> Int {
            switch value {
            case .array(let elements):
                let index = objects.count
                objects.append(.array([]))
                let refs = elements.map { add($0) }
                objects[index] = .array(refs)
                return index
            case .dictionary(let entries):
                let index = objects.count
                objects.append(.dictionary(keys: [], values: []))
                let keys = entries.map { addKey($0.key) }
                let values = entries.map { add($0.value) }
                objects[index] = .dictionary(keys: keys, values: values)
                return index
            case .uid(let uid):
                let slot = Int(uid)
                if slot < uidIndex.count, uidIndex[slot] >= 0 { return uidIndex[slot] }
                let index = objects.count
                objects.append(.scalar(value))
                if slot >= uidIndex.count { uidIndex.append(contentsOf: repeatElement(-1, count: slot + 1 - uidIndex.count)) }
                uidIndex[slot] = index
                return index
            default:
                return addScalar(value)
            }
        }

        /// The object of a dictionary key.
        mutating func addKey(_ key: String) -> Int {
            if let known = recentKeys.first(where: { $0.key == key }) { return known.index }
            let index = addScalar(.string(key))
            if recentKeys.count == 16 { recentKeys.removeFirst() }
            recentKeys.append((key, index))
            return index
        }

        /// The object of a scalar, shared with every equal scalar.
        mutating func addScalar(_ value: PlistValue) -> Int {
            if let existing = scalarIndex[value] { return existing }
            let index = objects.count
            objects.append(.scalar(value))
            scalarIndex[value] = index
            return index
        }
    }

    private static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendSized(_ value: UInt64, size: Int, into out: inout [UInt8]) {
        for i in stride(from: size - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))))
        }
    }

    private static func appendMarker(_ high: UInt8, count: Int, into out: inout [UInt8]) {
        if count < 15 {
            out.append(high << 4 | UInt8(count))
        } else {
            out.append(high << 4 | 0x0F)
            appendInteger(Int64(count), into: &out)
        }
    }

    private static func appendInteger(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 && value <= 0xFF {
            out.append(0x10); out.append(UInt8(value))
        } else if value >= 0 && value <= 0xFFFF {
            out.append(0x11); appendSized(UInt64(value), size: 2, into: &out)
        } else if value >= 0 && value <= 0xFFFF_FFFF {
            out.append(0x12); appendSized(UInt64(value), size: 4, into: &out)
        } else {
            out.append(0x13); appendSized(UInt64(bitPattern: value), size: 8, into: &out)
        }
    }

    private static func encode(_ object: FlatObject, refSize: Int, into out: inout [UInt8]) {
        switch object {
        case .array(let refs):
            appendMarker(0xA, count: refs.count, into: &out)
            for r in refs { appendSized(UInt64(r), size: refSize, into: &out) }
        case .dictionary(let keys, let values):
            appendMarker(0xD, count: keys.count, into: &out)
            for r in keys { appendSized(UInt64(r), size: refSize, into: &out) }
            for r in values { appendSized(UInt64(r), size: refSize, into: &out) }
        case .scalar(let value):
            switch value {
            case .bool(let b): out.append(b ? 0x09 : 0x08)
            case .integer(let v): appendInteger(v, into: &out)
            case .real(let d): out.append(0x23); appendSized(d.bitPattern, size: 8, into: &out)
            case .date(let d): out.append(0x33); appendSized(d.bitPattern, size: 8, into: &out)
            case .data(let bytes):
                appendMarker(0x4, count: bytes.count, into: &out)
                out += bytes
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) {
                    appendMarker(0x5, count: s.utf8.count, into: &out)
                    out += s.utf8
                } else {
                    let units = Array(s.utf16)
                    appendMarker(0x6, count: units.count, into: &out)
                    for u in units { out.append(UInt8(u >> 8)); out.append(UInt8(u & 0xFF)) }
                }
            case .uid(let u):
                let size = byteCount(for: UInt64(u))
                out.append(0x80 | UInt8(size - 1))
                appendSized(UInt64(u), size: size, into: &out)
            case .array, .dictionary:
                break  // flattened above
            }
        }
    }
}
