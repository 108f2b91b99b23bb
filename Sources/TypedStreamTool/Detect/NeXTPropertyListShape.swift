import TypedStreamFoundation

/// What `detect` says about an old NeXT binary property list: the kind of its root value and
/// its size. The bytes are read by the one reader of the format, ``NeXTBinaryPlist`` (the
/// module that needs it for NSFont); `detect` then asks for more than that reader does, to
/// recognise such a file conservatively from bytes with no signature: the root is not nil,
/// every padding byte is zero, every UTF-16 string has a byte-order mark and an even length,
/// and every dictionary key is a string — as every known writer leaves them.
struct NeXTPropertyListShape: Hashable {
    /// "array", "dictionary", "data", "NeXTSTEP string" or "UTF-16 string".
    var kind: String
    /// The number of elements or entries, or the byte length of data and strings.
    var count: Int

    /// The deepest nesting of arrays and dictionaries `detect` accepts.
    static let maximumDepth = 32

    /// A shape with these values.
    init(kind: String, count: Int) {
        self.kind = kind
        self.count = count
    }

    /// The shape of `bytes` if they are exactly one such property list, else `nil`.
    init?(_ bytes: [UInt8]) {
        guard let root = try? NeXTBinaryPlist.decode(bytes, maximumDepth: Self.maximumDepth), !root.isNull,
              Self.isAsWritten(root) else { return nil }
        kind = root.typeCode.name
        switch root {
        case .array(let elements): count = elements.count
        case .dictionary(let entries): count = entries.count
        case .data(let bytes, _): count = bytes.count
        case .string(let string, _): count = string.bytes.count
        case .null: count = 0
        }
    }

    /// Whether every value under `root` is as the known writers write it (see the type's
    /// summary); walks the tree with an explicit stack.
    private static func isAsWritten(_ root: NeXTPlistValue) -> Bool {
        var pending = [root]
        while let value = pending.popLast() {
            switch value {
            case .data(_, let padding):
                guard padding == nil else { return false }
            case .string(let string, let padding):
                guard padding == nil, string.encoding == .nextstep || (string.hasByteOrderMark && string.bytes.count % 2 == 0) else { return false }
            case .array(let elements):
                pending += elements
            case .dictionary(let entries):
                for entry in entries {
                    guard entry.key.plistString != nil else { return false }
                    pending.append(entry.key)
                    pending.append(entry.value)
                }
            case .null:
                break
            }
        }
        return true
    }
}
