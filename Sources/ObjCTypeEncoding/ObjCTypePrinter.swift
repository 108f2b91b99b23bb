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
            pointee.append(to: &out)
        case .array(let count, let element):
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: String(count).utf8)
            element.append(to: &out)
            out.append(UInt8(ascii: "]"))
        case .structure(let name, let fields):
            Self.appendAggregate(open: "{", close: "}", name: name, fields: fields, to: &out)
        case .union(let name, let fields):
            Self.appendAggregate(open: "(", close: ")", name: name, fields: fields, to: &out)
        case .bitfield(let width):
            out.append(UInt8(ascii: "b"))
            out.append(contentsOf: String(width).utf8)
        case .qualified(let qualifiers, let inner):
            out.append(contentsOf: qualifiers.letters)
            inner.append(to: &out)
        default:
            break  // every simple case has a letter
        }
    }

    private static func appendAggregate(open: Unicode.Scalar, close: Unicode.Scalar, name: String?, fields: [ObjCField], to out: inout [UInt8]) {
        out.append(UInt8(ascii: open))
        if let name {
            out.append(contentsOf: name.utf8)
            out.append(UInt8(ascii: "="))
        }
        for field in fields {
            if let fieldName = field.name {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: fieldName.utf8)
                out.append(UInt8(ascii: "\""))
            }
            field.type.append(to: &out)
        }
        out.append(UInt8(ascii: close))
    }
}

extension ObjCType: CustomStringConvertible {
    /// The canonical encoding.
    public var description: String { encoding }
}
