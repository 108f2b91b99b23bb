/// A property-list value as a dictionary key that tells apart every two values a property list
/// holds differently: strings by their exact UTF-8 bytes (Swift's `==` on strings is Unicode
/// canonical equivalence, which would merge `"é"` and `"e\u{301}"` into one stored string), reals
/// and dates by bit pattern (`0.0` and `-0.0` stay apart; a NaN matches a NaN of the same bits).
/// What the keyed encoder and the binary writer store once per value is keyed by it.
struct ExactPlistKey: Hashable {
    /// The value.
    let value: PlistValue

    /// A key for `value`.
    init(_ value: PlistValue) { self.value = value }

    static func == (a: ExactPlistKey, b: ExactPlistKey) -> Bool {
        // Scalars, what is stored once nearly always, without the stack.
        switch (a.value, b.value) {
        case (.string(let s), .string(let t)): return sameUTF8(s, t)
        case (.integer(let m), .integer(let n)): return m == n
        case (.uid(let u), .uid(let v)): return u == v
        default: return sameContainers(a.value, b.value)
        }
    }

    /// Compares two values of any kind, with an explicit stack: containers nest as deep as
    /// their values do.
    private static func sameContainers(_ a: PlistValue, _ b: PlistValue) -> Bool {
        var pending: [(PlistValue, PlistValue)] = [(a, b)]
        while let (x, y) = pending.popLast() {
            switch (x, y) {
            case (.string(let s), .string(let t)):
                guard sameUTF8(s, t) else { return false }
            case (.integer(let m), .integer(let n)):
                guard m == n else { return false }
            case (.real(let d), .real(let e)), (.date(let d), .date(let e)):
                guard d.bitPattern == e.bitPattern else { return false }
            case (.bool(let p), .bool(let q)):
                guard p == q else { return false }
            case (.data(let u), .data(let v)):
                guard u == v else { return false }
            case (.uid(let u), .uid(let v)):
                guard u == v else { return false }
            case (.array(let u), .array(let v)):
                guard u.count == v.count else { return false }
                pending.append(contentsOf: zip(u, v))
            case (.dictionary(let u), .dictionary(let v)):
                guard u.count == v.count else { return false }
                for (p, q) in zip(u, v) {
                    guard sameUTF8(p.key, q.key) else { return false }
                    pending.append((p.value, q.value))
                }
            default:
                return false
            }
        }
        return true
    }

    func hash(into hasher: inout Hasher) {
        // Scalars, what is stored once nearly always, without the stack.
        if !Self.combineScalar(value, into: &hasher) { Self.combine(value, into: &hasher) }
    }

    /// Hashes a scalar and returns true, or returns false (hashing nothing) for a container.
    @inline(__always)
    private static func combineScalar(_ value: PlistValue, into hasher: inout Hasher) -> Bool {
        switch value {
        case .string(let text):
            hasher.combine(0 as UInt8)
            combineUTF8(text, into: &hasher)
        case .integer(let n):
            hasher.combine(1 as UInt8)
            hasher.combine(n)
        case .real(let d):
            hasher.combine(2 as UInt8)
            hasher.combine(d.bitPattern)
        case .date(let d):
            hasher.combine(3 as UInt8)
            hasher.combine(d.bitPattern)
        case .bool(let b):
            hasher.combine(4 as UInt8)
            hasher.combine(b)
        case .data(let bytes):
            hasher.combine(5 as UInt8)
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        case .uid(let u):
            hasher.combine(6 as UInt8)
            hasher.combine(u)
        case .array, .dictionary:
            return false
        }
        return true
    }

    /// Hashes a value of any kind, containers with an explicit stack (see
    /// ``sameContainers(_:_:)``).
    private static func combine(_ value: PlistValue, into hasher: inout Hasher) {
        var pending: [PlistValue] = [value]
        while let next = pending.popLast() {
            switch next {
            case .array(let elements):
                hasher.combine(7 as UInt8)
                hasher.combine(elements.count)
                pending.append(contentsOf: elements)
            case .dictionary(let entries):
                hasher.combine(8 as UInt8)
                hasher.combine(entries.count)
                for entry in entries {
                    combineUTF8(entry.key, into: &hasher)
                    pending.append(entry.value)
                }
            default:
                _ = combineScalar(next, into: &hasher)
            }
        }
    }

    private static func combineUTF8(_ text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { utf8 in
            hasher.combine(utf8.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
        }
    }

    private static func sameUTF8(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmpEqual(x, y)) } }
    }

    private static func memcmpEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<x.count where x[i] != y[i] { return false }
        return true
    }
}
