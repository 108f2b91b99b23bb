import ObjCTypeEncoding
import TypedStream

extension ArchiveJSONDecoder {
    /// One value of type `type`, read from `source`: objects, arrays and structures are walked
    /// as they come (they may hold whole object graphs), everything else is read whole.
    mutating func decodeValue(_ source: inout some JSONPullSource, as type: ObjCType) throws(ArchiveJSONError) -> ArchivedValue {
        let type = type.unqualified
        switch type {
        case .object:
            return try decodeObjectSlot(&source)
        case .array(let count, let element) where element.unqualified != .char && element.unqualified != .unsignedChar:
            return try decodeArray(&source, type: type, count: count, element: element)
        case .structure(_, let fields):
            return try decodeStructure(&source, type: type, fields: fields)
        default:
            return try decodeValue(source.value(), as: type)
        }
    }

    /// One value of type `type`, read whole. The dispatcher stays small (each kind has its own function)
    /// because it is on the recursive path of nested objects, arrays and structs.
    mutating func decodeValue(_ value: JSONValue, as type: ObjCType) throws(ArchiveJSONError) -> ArchivedValue {
        let type = type.unqualified
        switch type {
        case .short, .unsignedShort:
            return try decodeIntegerValue(value, type: type, context: .short)
        case .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong:
            return try decodeIntegerValue(value, type: type, context: .integer)
        case .float, .double:
            return try decodeRealValue(value, isFloat: type == .float)
        case .char, .unsignedChar, .bool:
            return try decodeByte(value, type: type)
        case .array(let count, let element) where element.unqualified == .char || element.unqualified == .unsignedChar:
            return try decodeByteArray(value, type: type, count: count)
        case .union:
            return try decodeUnion(value, type: type)
        case .bytes:
            return try decodeUnsharedString(value)
        case .atom, .selector:
            return try decodeSharedStringValue(value)
        case .cString:
            return try decodeCString(value)
        case .object:
            return try decodeObjectSlot(value)
        case .classObject:
            return try decodeClassValue(value)
        case .array(let count, let element):
            var source = JSONTreeSource(value)
            return try decodeArray(&source, type: type, count: count, element: element)
        case .structure(_, let fields):
            var source = JSONTreeSource(value)
            return try decodeStructure(&source, type: type, fields: fields)
        case .ignored:
            try countValue(of: type)
            guard value == .null else { throw fail(.typeMismatch, "type '!' has no value on the wire; expected null, found \(value.kindDescription)") }
            return .ignored
        case .pointer, .bitfield, .void, .unknown, .qualified:
            throw fail(.badTypeString, "type \(TextExcerpt.quoted(type.encoding)) cannot be archived in a typedstream")
        }
    }

    func decodeIntegerValue(_ value: JSONValue, type: ObjCType, context: IntegerPlace) throws(ArchiveJSONError) -> ArchivedValue {
        let (v, width) = try decodeInteger(value, type: type, context: context)
        return .integer(v, width: width)
    }

    func decodeRealValue(_ value: JSONValue, isFloat: Bool) throws(ArchiveJSONError) -> ArchivedValue {
        let (bits, form) = try decodeReal(value, isFloat: isFloat)
        if isFloat { return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)), form: form) }
        return .double(Double(bitPattern: bits), form: form)
    }

    func decodeByte(_ value: JSONValue, type: ObjCType) throws(ArchiveJSONError) -> ArchivedValue {
        guard case .number = value else {
            throw fail(.typeMismatch, "expected a byte 0…255 for type \(TextExcerpt.quoted(type.encoding)), found \(value.kindDescription)")
        }
        let n = try int64(value, "a byte")
        let lowest: Int64 = type == .char ? -128 : 0
        guard n >= lowest, n <= 255 else { throw fail(.badValue, "\(n) does not fit a byte (type \(TextExcerpt.quoted(type.encoding)))") }
        return .byte(UInt8(truncatingIfNeeded: n))
    }

    mutating func decodeByteArray(_ value: JSONValue, type: ObjCType, count: Int) throws(ArchiveJSONError) -> ArchivedValue {
        try countValue(of: type)
        let data = try bytes(value, "the bytes of \(TextExcerpt.quoted(type.encoding))")
        guard data.count == count else { throw fail(.typeMismatch, "\(TextExcerpt.quoted(type.encoding)) needs \(count) bytes, found \(data.count)") }
        return .bytes(ArraySlice(data))
    }

    mutating func decodeUnion(_ value: JSONValue, type: ObjCType) throws(ArchiveJSONError) -> ArchivedValue {
        guard let size = type.layout(.ilp32)?.size else {
            throw fail(.badTypeString, "union \(TextExcerpt.quoted(type.encoding)) has no computable size")
        }
        try countValue(of: type)
        let data = try bytes(value, "the bytes of union \(TextExcerpt.quoted(type.encoding))")
        guard data.count == size else { throw fail(.typeMismatch, "union \(TextExcerpt.quoted(type.encoding)) needs \(size) bytes, found \(data.count)") }
        return .bytes(ArraySlice(data))
    }

    mutating func decodeClassValue(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        if value == .null { return .classObject(nil, referenceWidth: nil) }
        guard case .array = value else {
            throw fail(.typeMismatch, "expected null or a class chain (an array) for type '#', found \(value.kindDescription)")
        }
        guard let (first, width) = try decodeChain(value) else {
            throw fail(.badValue, "a class chain needs at least one link (use null for Nil)")
        }
        return .classObject(first, referenceWidth: width)
    }

    mutating func decodeArray(_ source: inout some JSONPullSource, type: ObjCType, count: Int, element: ObjCType) throws(ArchiveJSONError) -> ArchivedValue {
        guard try source.peekKind() == .array else {
            throw fail(.typeMismatch, "expected an array of \(count) for type \(TextExcerpt.quoted(type.encoding)), found \(try source.value().kindDescription)")
        }
        try countValue(of: type)
        try source.beginArray()
        try nest()
        var values: [ArchivedValue] = []
        values.reserveCapacity(count)
        while try source.nextElement() {
            guard values.count < count else {
                let found = try countRest(&source, after: values.count)
                throw fail(.typeMismatch, "\(TextExcerpt.quoted(type.encoding)) needs \(count) elements, found \(found)")
            }
            path.push(values.count)
            values.append(try decodeValue(&source, as: element))
            path.pop()
        }
        guard values.count == count else { throw fail(.typeMismatch, "\(TextExcerpt.quoted(type.encoding)) needs \(count) elements, found \(values.count)") }
        depth -= 1
        return .array(values)
    }

    mutating func decodeStructure(_ source: inout some JSONPullSource, type: ObjCType, fields: [ObjCField]) throws(ArchiveJSONError) -> ArchivedValue {
        guard try source.peekKind() == .array else {
            throw fail(.typeMismatch, "expected an array of the \(fields.count) members of \(TextExcerpt.quoted(type.encoding)), found \(try source.value().kindDescription)")
        }
        try countValue(of: type)
        try source.beginArray()
        try nest()
        var values: [ArchivedValue] = []
        values.reserveCapacity(fields.count)
        while try source.nextElement() {
            guard values.count < fields.count else {
                let found = try countRest(&source, after: values.count)
                throw fail(.typeMismatch, "\(TextExcerpt.quoted(type.encoding)) has \(fields.count) members, found \(found)")
            }
            path.push(values.count)
            values.append(try decodeValue(&source, as: fields[values.count].type))
            path.pop()
        }
        guard values.count == fields.count else { throw fail(.typeMismatch, "\(TextExcerpt.quoted(type.encoding)) has \(fields.count) members, found \(values.count)") }
        depth -= 1
        return .structure(values)
    }

    /// An integer: a number (its natural value; unsigned types may be given past the signed
    /// range), `{"value": n, "width"?: w}` or `{"raw": n, "width"?: w}` (the stored, sign-extended
    /// value). Returns the stored value and its width (explicit, or NSArchiver's).
    func decodeInteger(_ value: JSONValue, type: ObjCType, context: IntegerPlace) throws(ArchiveJSONError) -> (Int64, IntegerWidth) {
        var number = value
        var widthValue: JSONValue? = nil
        var raw = false
        if case .object = value {
            let fields = try members(of: value, "an integer", allowed: Members.integer)
            switch (fields[0], fields[1]) {
            case (let v?, nil): number = v
            case (nil, let v?):
                number = v
                raw = true
            default: throw fail(.wrongShape, "an integer object needs exactly one of 'value' and 'raw'")
            }
            widthValue = fields[2]
        }
        // Made only for a message: an integer is the commonest value.
        func what() -> String { "an integer for type \(TextExcerpt.quoted(type.encoding))" }
        let (negative, magnitude) = try wideInteger(number, what())
        var stored: Int64
        if negative {
            stored = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        } else if !raw, let bits = type.unsignedBits {
            if bits == 64 {
                stored = Int64(bitPattern: magnitude)
            } else if magnitude >= UInt64(1) << (bits - 1), magnitude < UInt64(1) << bits {
                stored = Int64(magnitude) - Int64(1) << bits
            } else {
                guard let v = Int64(exactly: magnitude) else { throw fail(.badValue, "\(magnitude) does not fit \(what())") }
                stored = v
            }
        } else {
            guard let v = Int64(exactly: magnitude) else { throw fail(.badValue, "\(magnitude) does not fit \(what())") }
            stored = v
        }
        if context == .short {
            guard stored >= -32768, stored <= 65535 else { throw fail(.badValue, "\(stored) does not fit a short") }
            stored = Int64(Int16(truncatingIfNeeded: stored))
        }
        var width = context.archiverChoice(for: stored)
        if let widthValue {
            width = try self.width(widthValue, context, holding: stored, what())
        }
        return (stored, width)
    }

    /// A real: a number, `{"value": x, "form"?: f}` or `{"f32bits"|"f64bits": "0x…", "form"?: f}`.
    /// Returns the bit pattern and the form (explicit, or NSArchiver's).
    func decodeReal(_ value: JSONValue, isFloat: Bool) throws(ArchiveJSONError) -> (UInt64, RealForm) {
        let letter = isFloat ? "f" : "d"
        let bitsKey = isFloat ? "f32bits" : "f64bits"
        var number: JSONValue? = value
        var bitsValue: JSONValue? = nil
        var formValue: JSONValue? = nil
        if case .object = value {
            let fields = try members(of: value, "a real", allowed: isFloat ? Members.float : Members.double)
            guard (fields[0] == nil) != (fields[1] == nil) else {
                throw fail(.wrongShape, "a real needs exactly one of 'value' and '\(bitsKey)'")
            }
            number = fields[0]
            bitsValue = fields[1]
            formValue = fields[2]
        }
        var bits: UInt64
        if let number {
            guard case .number(let text) = number else {
                throw fail(.typeMismatch, "expected a number for type '\(letter)', found \(number.kindDescription)")
            }
            if isFloat {
                guard let x = Float(text), x.isFinite else { throw fail(.badValue, "\(TextExcerpt.number(text)) is out of range for a float; give its bits as \(bitsKey)") }
                bits = UInt64(x.bitPattern)
            } else {
                guard let x = Double(text), x.isFinite else { throw fail(.badValue, "\(TextExcerpt.number(text)) is out of range for a double; give its bits as \(bitsKey)") }
                bits = x.bitPattern
            }
        } else {
            let text = try string(bitsValue ?? .null, "a bit pattern")
            guard let pattern = ByteText.bitPattern(text, digits: isFloat ? 8 : 16) else {
                throw fail(.badValue, "\(bitsKey) must be 0x and \(isFloat ? 8 : 16) hex digits, found \(TextExcerpt.quoted(text))")
            }
            bits = pattern
        }
        let integral: Int64?
        let fallback: RealForm
        if isFloat {
            let x = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
            integral = x.isFinite ? Int64(exactly: x) : nil
            fallback = ArchiveWriter.archiverForm(x)
        } else {
            let x = Double(bitPattern: bits)
            integral = x.isFinite ? Int64(exactly: x) : nil
            fallback = ArchiveWriter.archiverForm(x, systemVersion: header.systemVersion.value)
        }
        guard let formValue else { return (bits, fallback) }
        let name = try string(formValue, "a real form")
        if name == "ieee" { return (bits, .ieee) }
        guard let width = IntegerWidth(name: name) else {
            throw fail(.badValue, "unknown real form \(TextExcerpt.quoted(name)) (expected ieee, inline, int16, int32 or int64)")
        }
        guard let integral else { throw fail(.badValue, "the value is not an integer, so its form cannot be \(name) (use ieee)") }
        guard width.canHold(integral) else { throw fail(.badValue, "\(integral) does not fit the width \(name)") }
        return (bits, .integral(width))
    }

    /// `+`: null, a string, `{"hex": …}`, or either with `"width"`.
    func decodeUnsharedString(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        switch value {
        case .null:
            return .unsharedString(nil, lengthWidth: nil)
        case .string(let text):
            let payload = Array(text.utf8)
            return .unsharedString(ArraySlice(payload), lengthWidth: IntegerPlace.counted.archiverChoice(for: Int64(payload.count)))
        case .object:
            let fields = try members(of: value, "counted bytes", allowed: Members.countedBytes)
            let payload = try boxedBytes(fields, "counted bytes")
            var width = IntegerPlace.counted.archiverChoice(for: Int64(payload.count))
            if let w = fields[2] { width = try self.width(w, .counted, holding: Int64(payload.count), "a length") }
            return .unsharedString(ArraySlice(payload), lengthWidth: width)
        default:
            throw fail(.typeMismatch, "expected null, a string or {\"hex\": …} for type '+', found \(value.kindDescription)")
        }
    }

    /// `%` and `:`: null, a string, `{"hex": …}`, or either with `"wire"`.
    mutating func decodeSharedStringValue(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        switch value {
        case .null:
            return .sharedString(nil, decision: nil)
        case .string(let text):
            let payload = ArraySlice(Array(text.utf8))
            return .sharedString(payload, decision: try sharedString(payload, decision: nil, key: "wire"))
        case .object:
            let fields = try members(of: value, "a shared string", allowed: Members.sharedString)
            let payload = ArraySlice(try boxedBytes(fields, "a shared string"))
            return .sharedString(payload, decision: try sharedString(payload, decision: fields[2], key: "wire"))
        default:
            throw fail(.typeMismatch, "expected null, a string or {\"hex\": …} for a shared string, found \(value.kindDescription)")
        }
    }
}
