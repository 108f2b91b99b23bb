/// Property-list values packed into bytes: what a keyed export keeps of each `$objects` entry
/// until the binary plist is written, instead of a ``PlistValue`` tree (a tree costs a few
/// hundred bytes of allocations per object; its code, a few dozen).
///
/// A value is a tag byte and its payload, in pre-order, as ``BinaryPlistWriter`` flattens it:
///
/// | tag | value | payload |
/// |-----|-------|---------|
/// | 0 | string | a payload of its UTF-8 bytes (below) |
/// | 1 | integer | varint of its zigzag form (0, −1, 1, −2 … → 0, 1, 2, 3 …): one byte for the small numbers most keys hold |
/// | 2 | real | 8 bytes (bit pattern), little-endian |
/// | 3, 4 | false, true | — |
/// | 5 | data | a payload of its bytes |
/// | 6 | date | 8 bytes (bit pattern), little-endian |
/// | 7 | array | varint count, then the elements |
/// | 8 | dictionary | varint count, then every key (a string: tag 0 or 10), then every value |
/// | 9 | UID | varint |
/// | 10 | string | varint number in the ``PlistCode/Keys`` table (dictionary keys) |
/// | 11 | array | varint count: the entries of an external list (the `$objects` table) |
///
/// A payload is the varint of twice its length, then its bytes; or the varint of twice its length
/// plus one, then the varint of where the same bytes already are in the code (a *copy*: a long
/// string that many objects hold inline, such as a shared type string, is kept once however
/// often it recurs — ``appendStringCopy(of:count:to:)``).
///
/// Nothing here recurses: values nest as deep as a type string does.
enum PlistCode {
    static let string: UInt8 = 0
    static let integer: UInt8 = 1
    static let real: UInt8 = 2
    static let `false`: UInt8 = 3
    static let `true`: UInt8 = 4
    static let data: UInt8 = 5
    static let date: UInt8 = 6
    static let array: UInt8 = 7
    static let dictionary: UInt8 = 8
    static let uid: UInt8 = 9
    static let key: UInt8 = 10
    static let externalArray: UInt8 = 11

    /// Whether a value with tag `tag` is a scalar (not an array, dictionary or external array).
    static func isScalar(_ tag: UInt8) -> Bool {
        tag != array && tag != dictionary && tag != externalArray
    }

    /// Dictionary keys, stored once: the keys of keyed archives are a few dozen names repeated
    /// by every object.
    struct Keys {
        private(set) var names: [String] = []
        private var numbers: [String: Int] = [:]
        /// The last keys looked up: objects of one class repeat the same few keys, found by
        /// comparing them instead of hashing.
        private var recent: [(name: String, number: Int)] = []

        /// The number of `name`, added when new.
        mutating func number(of name: String) -> Int {
            // Lengths first: a string comparison that fails costs far more than one that
            // is cut short by a differing UTF-8 length (a key equal under `==` but of another
            // length is still found below, in `numbers`).
            let length = name.utf8.count
            if let hit = recent.first(where: { $0.name.utf8.count == length && $0.name == name }) { return hit.number }
            let number: Int
            if let known = numbers[name] {
                number = known
            } else {
                number = names.count
                names.append(name)
                numbers[name] = number
            }
            if recent.count == 16 { recent.removeFirst() }
            recent.append((name, number))
            return number
        }
    }

    // MARK: - Writing

    static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        var v = UInt64(value)
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Appends an integer: its tag and the varint of its zigzag form.
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        out.append(integer)
        var v = UInt64(bitPattern: value << 1) ^ UInt64(bitPattern: value >> 63)
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func append64(_ value: UInt64, to out: inout [UInt8]) {
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// Appends a string given as its UTF-8 bytes; returns where the bytes start in `out`.
    @discardableResult
    static func appendString(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Int {
        out.append(string)
        appendPayloadLength(utf8.count, to: &out)
        out.append(contentsOf: utf8)
        return out.count - utf8.count
    }

    /// Appends a string whose `count` UTF-8 bytes are already at `start` of `out` (a copy).
    static func appendStringCopy(of start: Int, count: Int, to out: inout [UInt8]) {
        out.append(string)
        appendVarint(count << 1 | 1, to: &out)
        appendVarint(start, to: &out)
    }

    /// Appends the length of a payload whose bytes follow.
    private static func appendPayloadLength(_ count: Int, to out: inout [UInt8]) {
        appendVarint(count << 1, to: &out)
    }

    /// Appends a dictionary key: by number when `keys` is given, else as a string.
    static func appendKey(_ name: String, keys: inout Keys?, to out: inout [UInt8]) {
        if keys != nil {
            out.append(key)
            appendVarint(keys!.number(of: name), to: &out)
        } else {
            appendString(name, to: &out)
        }
    }

    /// Appends the code of `value`; dictionary keys go into `keys` when it is given.
    static func append(_ value: PlistValue, keys: inout Keys?, to out: inout [UInt8]) {
        // A scalar, what nearly every plain value is, without the stack.
        switch value {
        case .string(let text):
            appendString(text, to: &out)
            return
        case .integer(let v):
            appendInteger(v, to: &out)
            return
        case .uid(let u):
            out.append(uid)
            appendVarint(Int(u), to: &out)
            return
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            // An array of scalars (an object's `NS.objects` UIDs) in order, without the stack.
            out.append(array)
            appendVarint(elements.count, to: &out)
            for element in elements { appendScalar(element, to: &out) }
            return
        default:
            break
        }
        var pending: [PlistValue] = [value]
        while let next = pending.popLast() {
            switch next {
            case .array(let elements):
                out.append(array)
                appendVarint(elements.count, to: &out)
                pending.append(contentsOf: elements.reversed())
            case .dictionary(let entries):
                out.append(dictionary)
                appendVarint(entries.count, to: &out)
                for entry in entries { appendKey(entry.key, keys: &keys, to: &out) }
                pending.append(contentsOf: entries.reversed().map(\.value))
            case .string, .integer, .real, .bool, .data, .date, .uid:
                appendScalar(next, to: &out)
            }
        }
    }

    /// Appends the code of `value`, a scalar (``PlistValue/isScalar``); a collection appends nothing.
    @inline(__always)
    private static func appendScalar(_ value: PlistValue, to out: inout [UInt8]) {
        switch value {
        case .string(let text): appendString(text, to: &out)
        case .integer(let v): appendInteger(v, to: &out)
        case .real(let d): out.append(real); append64(d.bitPattern, to: &out)
        case .bool(let b): out.append(b ? `true` : `false`)
        case .data(let bytes):
            out.append(data)
            appendPayloadLength(bytes.count, to: &out)
            out.append(contentsOf: bytes)
        case .date(let d): out.append(date); append64(d.bitPattern, to: &out)
        case .uid(let u): out.append(uid); appendVarint(Int(u), to: &out)
        case .array, .dictionary: break
        }
    }

    // MARK: - Reading

    /// Reads codes written by this enum (they are never untrusted: a bad code is a bug).
    struct Reader {
        let bytes: [UInt8]
        var position: Int

        init(_ bytes: [UInt8], at position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// One byte.
        mutating func byte() -> UInt8 {
            defer { position += 1 }
            return bytes[position]
        }

        /// A count or length (a varint).
        mutating func varint() -> Int { Int(rawVarint()) }

        /// An integer's payload (the varint of its zigzag form).
        mutating func integer() -> Int64 {
            let result = rawVarint()
            return Int64(bitPattern: result >> 1) ^ -Int64(bitPattern: result & 1)
        }

        /// A varint: seven bits a byte, low bits first, the high bit set on all but the last.
        private mutating func rawVarint() -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = bytes[position]
                position += 1
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
            }
        }

        /// Eight bytes, little-endian.
        mutating func word() -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += 8
            return v
        }

        /// Where the bytes of a string or data payload (after its tag) are: after its length, or
        /// where a copy points.
        mutating func payload() -> Range<Int> {
            let length = varint()
            let count = length >> 1
            if length & 1 == 1 {
                let start = varint()
                return start..<start + count
            }
            defer { position += count }
            return position..<position + count
        }

        /// Whether the payload after the tag here is a copy (``PlistCode/appendStringCopy(of:count:to:)``).
        func payloadIsCopy() -> Bool {
            var peek = self
            return peek.varint() & 1 == 1
        }

        /// Moves past the scalar starting here (its tag and payload).
        mutating func skipScalar() {
            switch byte() {
            case PlistCode.string, PlistCode.data: _ = payload()
            case PlistCode.integer: _ = integer()
            case PlistCode.real, PlistCode.date: position += 8
            case PlistCode.key, PlistCode.uid: _ = varint()
            case PlistCode.false, PlistCode.true: break
            case let tag: preconditionFailure("not a scalar plist code \(tag)")
            }
        }

        /// The scalar with tag `tag` (not a collection), its payload read.
        mutating func scalar(_ tag: UInt8, keys: [String]) -> PlistValue {
            switch tag {
            case PlistCode.string: return .string(String(decoding: bytes[payload()], as: UTF8.self))
            case PlistCode.key: return .string(keys[varint()])
            case PlistCode.integer: return .integer(integer())
            case PlistCode.real: return .real(Double(bitPattern: word()))
            case PlistCode.false: return .bool(false)
            case PlistCode.true: return .bool(true)
            case PlistCode.data: return .data(Array(bytes[payload()]))
            case PlistCode.date: return .date(Double(bitPattern: word()))
            case PlistCode.uid: return .uid(UInt32(truncatingIfNeeded: varint()))
            default: preconditionFailure("not a scalar plist code \(tag)")
            }
        }

        /// The whole value starting here, as a ``PlistValue`` (no external arrays).
        mutating func value(keys: [String]) -> PlistValue {
            // Collections being filled, innermost last.
            var open: [(isArray: Bool, count: Int, keys: [String], values: [PlistValue])] = []
            while true {
                let tag = byte()
                var done: PlistValue
                switch tag {
                case PlistCode.array:
                    let count = varint()
                    if count > 0 {
                        open.append((true, count, [], []))
                        continue
                    }
                    done = .array([])
                case PlistCode.dictionary:
                    let count = varint()
                    if count > 0 {
                        var names: [String] = []
                        for _ in 0..<count {
                            guard case .string(let name) = scalar(byte(), keys: keys) else { preconditionFailure("plist code key") }
                            names.append(name)
                        }
                        open.append((false, count, names, []))
                        continue
                    }
                    done = .dictionary([])
                default:
                    done = scalar(tag, keys: keys)
                }
                // Hand the finished value to its collection, closing those it completes.
                while true {
                    guard !open.isEmpty else { return done }
                    open[open.count - 1].values.append(done)
                    let top = open[open.count - 1]
                    guard top.values.count == top.count else { break }
                    open.removeLast()
                    done = top.isArray ? .array(top.values) : .dictionary(zip(top.keys, top.values).map { PlistEntry($0, $1) })
                }
            }
        }
    }
}
