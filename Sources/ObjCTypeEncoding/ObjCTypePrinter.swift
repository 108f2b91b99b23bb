extension ObjCType {
    /// The canonical `@encode` spelling: braces for structs (never `<…>`), names kept,
    /// a multi-member array element printed as the anonymous struct it is.
    public var encoding: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the canonical spelling to a byte buffer.
    public func append(to out: inout [UInt8]) {
        append(to: &out, limit: Int.max)
    }

    /// The canonical encoding, cut after about `limit` bytes with "…" when longer: the cost is
    /// bounded by `limit`, not by the type (a struct can have a megabyte-long name).
    public func encoding(limit: Int) -> String {
        var out: [UInt8] = []
        append(to: &out, limit: limit)
        guard out.count > limit else { return String(decoding: out, as: UTF8.self) }
        return String(decoding: out.prefix(limit), as: UTF8.self) + "…"
    }

    /// Appends the encoding, stopping once `out` holds more than `limit` bytes.
    private func append(to out: inout [UInt8], limit: Int) {
        guard out.count <= limit else { return }
        if let letter {
            out.append(letter)
            if case .object(let name?) = self {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: name.utf8)
                out.append(UInt8(ascii: "\""))
            }
            return
        }
        switch self {
        case .pointer(let pointee):
            out.append(UInt8(ascii: "^"))
            pointee.append(to: &out, limit: limit)
        case .array(let count, let element):
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: String(count).utf8)
            element.append(to: &out, limit: limit)
            out.append(UInt8(ascii: "]"))
        case .structure(let name, let fields):
            Self.appendAggregate(open: "{", close: "}", name: name, fields: fields, to: &out, limit: limit)
        case .union(let name, let fields):
            Self.appendAggregate(open: "(", close: ")", name: name, fields: fields, to: &out, limit: limit)
        case .bitfield(let width):
            out.append(UInt8(ascii: "b"))
            out.append(contentsOf: String(width).utf8)
        case .qualified(let qualifiers, let inner):
            out.append(contentsOf: qualifiers.letters)
            inner.append(to: &out, limit: limit)
        default:
            break  // every simple case has a letter
        }
    }

    private static func appendAggregate(open: Unicode.Scalar, close: Unicode.Scalar, name: String?, fields: [ObjCField], to out: inout [UInt8], limit: Int) {
        out.append(UInt8(ascii: open))
        if let name {
            out.append(contentsOf: name.utf8.prefix(max(0, limit - out.count + 1)))
            out.append(UInt8(ascii: "="))
        }
        for field in fields {
            guard out.count <= limit else { return }
            if let fieldName = field.name {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: fieldName.utf8.prefix(max(0, limit - out.count + 1)))
                out.append(UInt8(ascii: "\""))
            }
            field.type.append(to: &out, limit: limit)
        }
        out.append(UInt8(ascii: close))
    }
}

extension ObjCType: CustomStringConvertible {
    /// The canonical encoding.
    public var description: String { encoding }
}
