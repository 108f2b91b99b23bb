import ObjCTypeEncoding
import TypedStream

/// Puts each token into the format's words, resolving references to what they point at.
///
/// It keeps its own view of the object table (which slot is which class, object or C string)
/// and follows the type strings with ``AnnotatedDumpTypeCursor`` so values are named by their
/// declared type. Tokens must be fed in stream order, every one of them, whether or not its
/// line is shown, so that the tables stay right.
struct AnnotatedDumpDescriber {
    /// What an object-table slot holds, as far as the dump needs to know.
    fileprivate enum Slot {
        case object(className: String?)
        case `class`(name: String, version: Int64)
        case cString(text: ArraySlice<UInt8>)
    }

    /// Who the class links being read belong to.
    private enum Chain {
        case none
        case object(index: Int, links: Int)
        case classValue(links: Int)
    }

    /// The longest quoted text shown in an annotation, in characters.
    let textLimit: Int

    private var cursor = AnnotatedDumpTypeCursor()
    private var slots = SlotTable()
    private var chain = Chain.none
    private var openObjects: [Int] = []
    private var streamerVersion: UInt8 = 4

    init(textLimit: Int) {
        self.textLimit = max(textLimit, 1)
    }

    /// Describes `token` and updates the tables. `classPreview` is the first class link that
    /// follows a new object (looked ahead by the caller), so the object's line can name its class.
    mutating func describe(_ token: Token, classPreview: ClassForm? = nil) -> AnnotatedDumpPhrase {
        switch token.kind {
        case .header(let header):
            streamerVersion = header.streamerVersion
            let order = header.byteOrder == .little ? "little-endian (streamtyped)" : "big-endian (typedstream)"
            return AnnotatedDumpPhrase("header: streamer v\(header.streamerVersion), \(order), system version \(header.systemVersion.value)")

        case .typeString(let text):
            cursor.openGroup(sharedString: text.index, text: text.bytes)
            var phrase = AnnotatedDumpPhrase("type string ")
            phrase.add(quote(text.bytes), .string)
            phrase.add(" (" + sharedStringOrigin(text) + ")")
            return phrase

        case .integer(let integer):
            return describeInteger(integer, type: cursor.takeNextType())

        case .float(let value, let form):
            _ = cursor.takeNextType()
            return AnnotatedDumpPhrase("float \(AnnotatedDumpText.real(value)) (\(realForm(form)))")

        case .double(let value, let form):
            _ = cursor.takeNextType()
            return AnnotatedDumpPhrase("double \(AnnotatedDumpText.real(value)) (\(realForm(form)))")

        case .byte(let byte):
            return describeByte(byte, type: cursor.takeNextType())

        case .rawBytes(let payload):
            let type = cursor.takeNextType()
            let count = payload.count
            let noun = count == 1 ? "byte" : "bytes"
            if case .union? = type {
                return AnnotatedDumpPhrase("union \(type?.encoding(limit: textLimit) ?? ""): \(count) raw \(noun)")
            }
            if let type { return AnnotatedDumpPhrase("\(count) raw \(noun) (\(type.encoding(limit: textLimit)))") }
            return AnnotatedDumpPhrase("\(count) raw \(noun)")

        case .unsharedString(let payload, let width):
            _ = cursor.takeNextType()
            guard let payload else { return AnnotatedDumpPhrase("nil (counted bytes)") }
            var phrase = AnnotatedDumpPhrase(quote(payload), .string)
            let widthNote = width == .inline ? "" : ", \(width.name) length"
            phrase.add(" (counted bytes, \(payload.count)\(widthNote))")
            return phrase

        case .sharedString(let text):
            let type = cursor.takeNextType()
            let noun = type == .selector ? "selector" : type == .atom ? "atom" : "shared string"
            guard let text else { return AnnotatedDumpPhrase("nil (\(noun))") }
            var phrase = AnnotatedDumpPhrase(noun + " ")
            phrase.add(quote(text.bytes), .string)
            phrase.add(" (" + sharedStringOrigin(text) + ")")
            return phrase

        case .cString(let form):
            _ = cursor.takeNextType()
            return describeCString(form)

        case .object(let form):
            let untyped = cursor.takeNextType() == nil
            return describeObject(form, untyped: untyped, classPreview: classPreview)

        case .classLink(let link):
            return describeClassLink(link)

        case .instanceSize(let size):
            return AnnotatedDumpPhrase("instance size \(size.value) (streamer 3)")

        case .endOfObject:
            cursor.closeObject()
            guard let index = openObjects.popLast() else { return AnnotatedDumpPhrase("end of object") }
            var phrase = AnnotatedDumpPhrase("end of object #\(index)")
            if let name = className(ofObject: index) {
                phrase.add(" ")
                phrase.add(name, .name)
            }
            return phrase

        case .arrayStart(let count):
            let type = cursor.takeNextType()
            cursor.openArray(of: type, count: count)
            let noun = count == 1 ? "element" : "elements"
            if let type { return AnnotatedDumpPhrase("array \(type.encoding(limit: textLimit)): \(count) \(noun)") }
            return AnnotatedDumpPhrase("array of \(count) \(noun)")

        case .arrayEnd:
            cursor.closeAggregate()
            return AnnotatedDumpPhrase("end of array")

        case .structStart:
            let type = cursor.takeNextType()
            cursor.openStruct(of: type)
            if let type { return AnnotatedDumpPhrase("struct \(type.encoding(limit: textLimit))") }
            return AnnotatedDumpPhrase("struct")

        case .structEnd:
            cursor.closeAggregate()
            return AnnotatedDumpPhrase("end of struct")

        case .ignored:
            _ = cursor.takeNextType()
            return AnnotatedDumpPhrase("ignored field (!), nothing on the wire")

        case .untypedGroup:
            return AnnotatedDumpPhrase("group without a type string (streamer 3: an object follows)")
        }
    }

    // MARK: - Values

    private func describeInteger(_ integer: WireInteger, type: ObjCType?) -> AnnotatedDumpPhrase {
        let width = integer.width.name
        let raw = integer.value
        let name: String
        let bits: Int
        let unsigned: Bool
        switch type {
        case .short?: (name, bits, unsigned) = ("short", 16, false)
        case .unsignedShort?: (name, bits, unsigned) = ("unsigned short", 16, true)
        case .int?: (name, bits, unsigned) = ("int", 32, false)
        case .unsignedInt?: (name, bits, unsigned) = ("unsigned int", 32, true)
        case .long?: (name, bits, unsigned) = ("long", 32, false)
        case .unsignedLong?: (name, bits, unsigned) = ("unsigned long", 32, true)
        case .longLong?: (name, bits, unsigned) = ("long long", 64, false)
        case .unsignedLongLong?: (name, bits, unsigned) = ("unsigned long long", 64, true)
        default: return AnnotatedDumpPhrase("integer \(raw) (\(width))")
        }
        var text = "\(name) "
        var notes = [width]
        if unsigned, raw < 0 {
            let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
            text += String(UInt64(bitPattern: raw) & mask)
            notes.append("written as \(raw)")
        } else {
            text += String(raw)
        }
        if bits < 64 {
            let fits = unsigned ? raw >= -(1 << Int64(bits)) && raw < (1 << Int64(bits))
                                : raw >= -(1 << Int64(bits - 1)) && raw < (1 << Int64(bits - 1))
            if !fits { notes.append("does not fit \(bits) bits") }
        }
        return AnnotatedDumpPhrase(text + " (" + notes.joined(separator: ", ") + ")")
    }

    private func describeByte(_ byte: UInt8, type: ObjCType?) -> AnnotatedDumpPhrase {
        let printable = (0x20...0x7E).contains(byte) ? " '\(Character(Unicode.Scalar(byte)))'" : ""
        switch type {
        case .char?:
            return AnnotatedDumpPhrase("char \(Int8(bitPattern: byte))\(printable)")
        case .unsignedChar?:
            return AnnotatedDumpPhrase("unsigned char \(byte)\(printable)")
        case .bool?:
            switch byte {
            case 0: return AnnotatedDumpPhrase("bool false")
            case 1: return AnnotatedDumpPhrase("bool true")
            default: return AnnotatedDumpPhrase("bool \(byte) (neither 0 nor 1)")
            }
        default:
            return AnnotatedDumpPhrase("byte 0x\(AnnotatedDumpText.hexByte(byte))\(printable)")
        }
    }

    private func realForm(_ form: RealForm) -> String {
        switch form {
        case .ieee: return "IEEE"
        case .integral(.inline): return "written as integer"
        case .integral(let width): return "written as integer, \(width.name)"
        }
    }

    // MARK: - Strings, objects and classes

    private func quote(_ bytes: ArraySlice<UInt8>) -> String {
        AnnotatedDumpText.quoted(bytes, limit: textLimit)
    }

    private func sharedStringOrigin(_ text: SharedString) -> String {
        switch text.form {
        case .literal(let index, _): return "new shared string #\(index)"
        case .reference(let index, .inline): return "shared string #\(index) by reference"
        case .reference(let index, let width): return "shared string #\(index) by reference, \(width.name)"
        }
    }

    private mutating func describeCString(_ form: CStringForm) -> AnnotatedDumpPhrase {
        switch form {
        case .null:
            return AnnotatedDumpPhrase("NULL (C string)")
        case .literal(let index, let text):
            slots[index] = .cString(text: text.bytes)
            var phrase = AnnotatedDumpPhrase("C string ")
            phrase.add(quote(text.bytes), .string)
            phrase.add(" (new, object #\(index); text: \(sharedStringOrigin(text)))")
            return phrase
        case .reference(let index, let width):
            var phrase = AnnotatedDumpPhrase("reference to C string #\(index)")
            if case .cString(let text)? = slots[index] {
                phrase.add(" (")
                phrase.add(quote(text), .string)
                phrase.add(width == .inline ? ")" : ", \(width.name))")
            } else if width != .inline {
                phrase.add(" (\(width.name))")
            }
            return phrase
        }
    }

    private mutating func describeObject(_ form: ObjectForm, untyped: Bool, classPreview: ClassForm?) -> AnnotatedDumpPhrase {
        let untypedNote = untyped && streamerVersion == 3 ? " (no type string, streamer 3)" : ""
        switch form {
        case .null:
            return AnnotatedDumpPhrase("nil" + untypedNote)
        case .new(let index):
            cursor.openObject()
            openObjects.append(index)
            chain = .object(index: index, links: 0)
            var className: String?
            var version: Int64?
            var classSlot = -1
            switch classPreview {
            case .new(let classIndex, let name, let classVersion)?:
                className = name.string
                version = classVersion.value
                classSlot = classIndex
            case .reference(let classIndex, _)?:
                if case .class(let name, let classVersion)? = slots[classIndex] {
                    className = name
                    version = classVersion
                    classSlot = classIndex
                }
            case .null?, nil:
                break
            }
            slots.setObject(index, classSlot: classSlot)
            var phrase = AnnotatedDumpPhrase("new object #\(index)")
            if let className {
                phrase.add(" of class ")
                phrase.add(className, .name)
                if let version { phrase.add(" v\(version)") }
            }
            phrase.add(untypedNote)
            return phrase
        case .reference(let index, let width):
            // The width of a multi-byte reference goes last inside the parentheses.
            let close = width == .inline ? ")" : ", \(width.name))"
            var phrase: AnnotatedDumpPhrase
            switch slots[index] {
            case .class(let name, _)?:
                phrase = AnnotatedDumpPhrase("reference to #\(index) (class ")
                phrase.add(name, .name)
                phrase.add(close)
            case .object(let className?)?:
                phrase = AnnotatedDumpPhrase("reference to object #\(index) (")
                phrase.add(className, .name)
                phrase.add(close)
            default:
                phrase = AnnotatedDumpPhrase("reference to object #\(index)")
                if width != .inline { phrase.add(" (\(width.name))") }
            }
            phrase.add(untypedNote)
            return phrase
        }
    }

    private mutating func describeClassLink(_ link: ClassForm) -> AnnotatedDumpPhrase {
        let position: Int
        switch chain {
        case .object(let index, let links):
            position = links
            chain = .object(index: index, links: links + 1)
        case .classValue(let links):
            position = links
            chain = .classValue(links: links + 1)
        case .none:
            _ = cursor.takeNextType()
            position = 0
            chain = .classValue(links: 1)
        }
        let role = position == 0 ? "class" : "superclass"
        switch link {
        case .null:
            chain = .none
            return AnnotatedDumpPhrase(position == 0 ? "class: nil" : "superclass: none")
        case .new(let index, let name, let version):
            slots[index] = .class(name: name.string, version: version.value)
            var phrase = AnnotatedDumpPhrase(role + " ")
            phrase.add(name.string, .name)
            phrase.add(" v\(version.value) (new, object #\(index); name: \(sharedStringOrigin(name)))")
            return phrase
        case .reference(let index, let width):
            chain = .none
            var phrase = AnnotatedDumpPhrase("\(role) → #\(index) ")
            if case .class(let name, _)? = slots[index] {
                phrase.add(name, .name)
                phrase.add(" ")
            }
            phrase.add(width == .inline ? "(reference)" : "(reference, \(width.name))")
            return phrase
        }
    }

    /// The class name of the object in slot `index`, if known.
    func className(ofObject index: Int) -> String? {
        if case .object(let name?)? = slots[index] { return name }
        return nil
    }

    /// The number of object-table slots seen so far.
    var slotCount: Int { slots.count }

    /// What slot `index` of the object table holds, in words ("a class (NSObject)"), or `nil`
    /// when the slot has not been seen.
    func slotSummary(_ index: Int) -> String? {
        switch slots[index] {
        case .object(let name)?: return name.map { "an object of class \($0)" } ?? "an object"
        case .class(let name, _)?: return "a class (\(name))"
        case .cString(let text)?: return "a C string (\(quote(text)))"
        case nil: return nil
        }
    }
}

/// The describer's view of the object table, kept small: a byte and a class number per slot,
/// with the few classes and C strings on the side (a dictionary of enums per slot would cost
/// tens of bytes per object).
private struct SlotTable {
    /// Per slot: 0 not seen, 1 object, 2 class, 3 C string.
    private var kinds: [UInt8] = []
    /// Per slot holding an object: the slot of its class (−1 when unknown).
    private var objectClasses: [Int32] = []
    private var classes: [Int: (name: String, version: Int64)] = [:]
    private var cStrings: [Int: ArraySlice<UInt8>] = [:]
    /// The number of slots seen.
    private(set) var count = 0

    private mutating func mark(_ index: Int, _ kind: UInt8) {
        guard index >= 0 else { return }
        if index >= kinds.count {
            let grown = Swift.max(index + 1, kinds.count * 2)
            kinds.append(contentsOf: repeatElement(0, count: grown - kinds.count))
            objectClasses.append(contentsOf: repeatElement(-1, count: grown - objectClasses.count))
        }
        if kinds[index] == 0 { count += 1 }
        kinds[index] = kind
    }

    /// Records an object whose class is in `classSlot` (−1 when unknown).
    mutating func setObject(_ index: Int, classSlot: Int) {
        mark(index, 1)
        if index >= 0 { objectClasses[index] = Int32(truncatingIfNeeded: classSlot) }
    }

    subscript(index: Int) -> AnnotatedDumpDescriber.Slot? {
        get {
            guard index >= 0, index < kinds.count else { return nil }
            switch kinds[index] {
            case 1:
                let classSlot = Int(objectClasses[index])
                return .object(className: classSlot >= 0 ? classes[classSlot]?.name : nil)
            case 2:
                return classes[index].map { .class(name: $0.name, version: $0.version) }
            case 3:
                return cStrings[index].map { .cString(text: $0) }
            default:
                return nil
            }
        }
        set {
            switch newValue {
            case .class(let name, let version)?:
                mark(index, 2)
                classes[index] = (name, version)
            case .cString(let text)?:
                mark(index, 3)
                cStrings[index] = text
            case .object?:
                // Objects are recorded with their class slot (``setObject(_:classSlot:)``).
                break
            case nil:
                break
            }
        }
    }
}
