import TypedStream

/// Turns tokens into one-line meanings for `typedstream tokens`: `new object #3`,
/// `class NSString v1 (#4)`, `type string "@" (shared #0, new)`, `int 42 (int16)`,
/// `end of object #3 (NSArray)`.
///
/// It follows the stream as it is read, remembering which class each new object has and which
/// objects are open, so references and ends of objects can be named.
struct TokenDescriber {
    /// The class name of each object-table slot that holds an object, once its class is known.
    private var objectClass: [Int: String] = [:]
    /// The object whose class chain is being read (its first link names its class).
    private var awaitingClass: Int?
    /// The objects opened and not yet ended, innermost last.
    private var openObjects: [Int] = []

    /// The meaning of `token`; `reader` is the reader that produced it (for its tables).
    mutating func describe(_ token: Token, reader: TokenReader) -> String {
        switch token.kind {
        case .header(let header):
            return "header: streamer version \(header.streamerVersion), \"\(String(decoding: header.byteOrder.signature, as: UTF8.self))\" "
                + "(\(header.byteOrder == .big ? "big" : "little")-endian), system version \(header.systemVersion.value)"
                + widthNote(header.systemVersion.width)
        case .typeString(let text):
            return "type string " + shared(text)
        case .integer(let value):
            return "int \(value.value) (\(value.width.name))"
        case .float(let value, let form):
            return "float \(value)" + realNote(form)
        case .double(let value, let form):
            return "double \(value)" + realNote(form)
        case .byte(let byte):
            let character = (0x20..<0x7F).contains(byte) ? " '\(Character(UnicodeScalar(byte)))'" : ""
            return "byte 0x\(TextFormatting.paddedHex(Int(byte), width: 2)) (\(Int8(bitPattern: byte)))\(character)"
        case .rawBytes(let payload):
            return "\(payload.count) raw byte\(payload.count == 1 ? "" : "s") " + TextFormatting.quoted(payload, limit: 32)
        case .unsharedString(let payload, let width):
            guard let payload else { return "nil counted bytes (+)" }
            return "string \(TextFormatting.quoted(payload)) (\(payload.count) byte\(payload.count == 1 ? "" : "s"), length \(width.name))"
        case .sharedString(let text):
            guard let text else { return "nil shared string" }
            return sharedValue(text)
        case .cString(let form):
            switch form {
            case .null: return "NULL C string"
            case .literal(let index, let text): return "new C string #\(index) " + shared(text)
            case .reference(let index, let width):
                return "reference to C string #\(index) \(slotText(index, reader))" + widthNote(width)
            }
        case .object(let form):
            switch form {
            case .null: return "nil object"
            case .new(let index):
                awaitingClass = index
                openObjects.append(index)
                return "new object #\(index)"
            case .reference(let index, let width):
                if reader.kind(ofSlot: index) == .class {
                    return "reference to class #\(index) \(slotName(index, reader))" + widthNote(width)
                }
                let name = objectClass[index].map { " (\($0))" } ?? ""
                return "reference to object #\(index)\(name)" + widthNote(width)
            }
        case .classLink(let form):
            return describeClassLink(form, reader: reader)
        case .instanceSize(let value):
            return "instance size \(value.value) (streamer 3, \(value.width.name))"
        case .endOfObject:
            guard let index = openObjects.popLast() else { return "end of object" }
            let name = objectClass[index].map { " (\($0))" } ?? ""
            return "end of object #\(index)\(name)"
        case .arrayStart(let count):
            return "array of \(count)"
        case .arrayEnd:
            return "end of array"
        case .structStart:
            return "struct"
        case .structEnd:
            return "end of struct"
        case .ignored:
            return "ignored field (!), no bytes"
        case .untypedGroup:
            return "group without a type string (streamer 3 object)"
        }
    }

    private mutating func describeClassLink(_ form: ClassForm, reader: TokenReader) -> String {
        let object = awaitingClass
        awaitingClass = nil
        switch form {
        case .null:
            return "no superclass (end of class chain)"
        case .new(let index, let name, let version):
            if let object { objectClass[object] = name.string }
            let nameNote: String
            switch name.form {
            case .literal(let slot, _): nameNote = "name: shared #\(slot), new"
            case .reference(let slot, _): nameNote = "name: shared #\(slot)"
            }
            return "class \(name.string) v\(version.value) (#\(index); \(nameNote))"
        case .reference(let index, let width):
            let name = slotName(index, reader)
            if let object { objectClass[object] = name }
            return "reference to class #\(index) \(name)" + widthNote(width)
        }
    }

    /// `"@" (shared #0, new)` or `"i" (reference to shared #2)`.
    private func shared(_ text: SharedString) -> String {
        switch text.form {
        case .literal(let index, _): return "\(TextFormatting.quoted(text.bytes)) (shared #\(index), new)"
        case .reference(let index, let width): return "\(TextFormatting.quoted(text.bytes)) (reference to shared #\(index)\(widthSuffix(width)))"
        }
    }

    /// A `%` or `:` value.
    private func sharedValue(_ text: SharedString) -> String {
        switch text.form {
        case .literal(let index, _): return "shared string \(TextFormatting.quoted(text.bytes)) (shared #\(index), new)"
        case .reference(let index, let width): return "reference to shared string #\(index) \(TextFormatting.quoted(text.bytes))" + widthNote(width)
        }
    }

    /// The quoted text of a class or C-string slot.
    private func slotText(_ index: Int, _ reader: TokenReader) -> String {
        guard let text = reader.text(ofSlot: index) else { return "" }
        return TextFormatting.quoted(text)
    }

    /// The bare name of a class slot.
    private func slotName(_ index: Int, _ reader: TokenReader) -> String {
        guard let text = reader.text(ofSlot: index) else { return "?" }
        return String(decoding: text, as: UTF8.self)
    }

    private func realNote(_ form: RealForm) -> String {
        switch form {
        case .ieee: " (IEEE)"
        case .integral(let width): " (written as an integer, \(width.name))"
        }
    }

    /// " (int16)" for multi-byte references and integers; "" when inline.
    private func widthNote(_ width: IntegerWidth) -> String { width == .inline ? "" : " (\(width.name))" }

    private func widthSuffix(_ width: IntegerWidth) -> String { width == .inline ? "" : ", \(width.name)" }
}
