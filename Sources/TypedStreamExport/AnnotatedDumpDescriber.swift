import ObjCTypeEncoding
import TypedStream

/// Puts each token into the format's words, resolving references to what they point at.
///
/// It keeps its own view of the object table (which slot is which class, object or C string)
/// and follows the type strings with ``AnnotatedDumpTypeCursor`` so values are named by their
/// declared type. Tokens must be fed in stream order, every one of them, whether or not its
/// line is shown, so that the tables stay right.
///
/// Each annotation is written as bytes into ``phrase``, a buffer reused from token to token:
/// no `String` is made for a token unless it holds a real number, a type encoding or text
/// that needs escaping.
struct AnnotatedDumpDescriber {
    /// Who the class links being read belong to.
    private enum Chain {
        case none
        case object(index: Int, links: Int)
        case classValue(links: Int)
    }

    /// The archive's bytes (token payloads are ranges of them).
    let bytes: [UInt8]
    /// The longest quoted text shown in an annotation, in characters.
    let textLimit: Int
    /// The annotation of the token described last.
    private(set) var phrase: AnnotatedDumpPhrase

    private var cursor = AnnotatedDumpTypeCursor()
    private var slots: AnnotatedDumpSlots
    private var chain = Chain.none
    private var openObjects: [Int] = []
    private var streamerVersion: UInt8 = 4

    init(bytes: [UInt8], textLimit: Int, useColor: Bool) {
        self.bytes = bytes
        self.textLimit = max(textLimit, 1)
        slots = AnnotatedDumpSlots(bytes: bytes)
        phrase = AnnotatedDumpPhrase(useColor: useColor)
    }

    /// Describes `token` into ``phrase`` and updates the tables. `header` is the reader's
    /// header (for the header token). `classPreview` is the first class link that follows a new
    /// object (looked ahead by the caller), so the object's line can name its class.
    mutating func describe(_ token: CompactToken, header: StreamHeader?, classPreview: CompactToken? = nil) {
        phrase.reset()
        switch token.code {
        case .header:
            let version = header?.streamerVersion ?? 4
            streamerVersion = version
            phrase.add("header: streamer v")
            phrase.addDecimal(Int(version))
            phrase.add((header?.byteOrder ?? .little) == .little ? ", little-endian (streamtyped), system version " : ", big-endian (typedstream), system version ")
            phrase.addDecimal(token.value)

        case .typeString:
            cursor.openGroup(sharedString: token.textIndex, text: bytes[token.payload])
            phrase.add("type string ")
            quote(bytes[token.payload])
            phrase.add(" (")
            sharedStringOrigin(token)
            phrase.add(")")

        case .integer:
            describeInteger(token.value, width: token.width, type: cursor.takeNextType())

        case .float:
            _ = cursor.takeNextType()
            let value = token.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: token.value)) : Float(token.value)
            phrase.add("float ")
            phrase.add(AnnotatedDumpText.real(value))
            realForm(token)

        case .double:
            _ = cursor.takeNextType()
            let value = token.form == .ieee ? Double(bitPattern: UInt64(bitPattern: token.value)) : Double(token.value)
            phrase.add("double ")
            phrase.add(AnnotatedDumpText.real(value))
            realForm(token)

        case .byte:
            describeByte(UInt8(truncatingIfNeeded: token.value), type: cursor.takeNextType())

        case .rawBytes:
            let type = cursor.takeNextType()
            let count = token.payload.count
            if case .union? = type {
                phrase.add("union ")
                phrase.add(type?.encoding(limit: textLimit) ?? "")
                phrase.add(": ")
                phrase.addDecimal(count)
                phrase.add(count == 1 ? " raw byte" : " raw bytes")
            } else {
                phrase.addDecimal(count)
                phrase.add(count == 1 ? " raw byte" : " raw bytes")
                if let type {
                    phrase.add(" (")
                    phrase.add(type.encoding(limit: textLimit))
                    phrase.add(")")
                }
            }

        case .unsharedString:
            _ = cursor.takeNextType()
            guard token.form != .null else { return phrase.add("nil (counted bytes)") }
            quote(bytes[token.payload])
            phrase.add(" (counted bytes, ")
            phrase.addDecimal(token.payload.count)
            if token.width != .inline {
                phrase.add(", ")
                phrase.add(token.width)
                phrase.add(" length")
            }
            phrase.add(")")

        case .sharedString:
            let type = cursor.takeNextType()
            let noun: StaticString = type == .selector ? "selector" : type == .atom ? "atom" : "shared string"
            guard token.form != .null else {
                phrase.add("nil (")
                phrase.add(noun)
                return phrase.add(")")
            }
            phrase.add(noun)
            phrase.add(" ")
            quote(bytes[token.payload])
            phrase.add(" (")
            sharedStringOrigin(token)
            phrase.add(")")

        case .cString:
            _ = cursor.takeNextType()
            describeCString(token)

        case .object:
            let untyped = cursor.takeNextType() == nil
            describeObject(token, untyped: untyped, classPreview: classPreview)

        case .classLink:
            describeClassLink(token)

        case .instanceSize:
            phrase.add("instance size ")
            phrase.addDecimal(token.value)
            phrase.add(" (streamer 3)")

        case .endOfObject:
            cursor.closeObject()
            guard let index = openObjects.popLast() else { return phrase.add("end of object") }
            phrase.add("end of object #")
            phrase.addDecimal(index)
            if let name = className(ofObject: index) {
                phrase.add(" ")
                phrase.addName(name)
            }

        case .arrayStart:
            let type = cursor.takeNextType()
            let count = Int(token.value)
            cursor.openArray(of: type, count: count)
            if let type {
                phrase.add("array ")
                phrase.add(type.encoding(limit: textLimit))
                phrase.add(": ")
            } else {
                phrase.add("array of ")
            }
            phrase.addDecimal(count)
            phrase.add(count == 1 ? " element" : " elements")

        case .arrayEnd:
            cursor.closeAggregate()
            phrase.add("end of array")

        case .structStart:
            let type = cursor.takeNextType()
            cursor.openStruct(of: type)
            phrase.add("struct")
            if let type {
                phrase.add(" ")
                phrase.add(type.encoding(limit: textLimit))
            }

        case .structEnd:
            cursor.closeAggregate()
            phrase.add("end of struct")

        case .ignored:
            _ = cursor.takeNextType()
            phrase.add("ignored field (!), nothing on the wire")

        case .untypedGroup:
            phrase.add("group without a type string (streamer 3: an object follows)")
        }
    }

    // MARK: - Values

    private mutating func describeInteger(_ raw: Int64, width: IntegerWidth, type: ObjCType?) {
        let name: StaticString
        let bits: Int
        let unsigned: Bool
        switch type {
        case .short?: (name, bits, unsigned) = ("short ", 16, false)
        case .unsignedShort?: (name, bits, unsigned) = ("unsigned short ", 16, true)
        case .int?: (name, bits, unsigned) = ("int ", 32, false)
        case .unsignedInt?: (name, bits, unsigned) = ("unsigned int ", 32, true)
        case .long?: (name, bits, unsigned) = ("long ", 32, false)
        case .unsignedLong?: (name, bits, unsigned) = ("unsigned long ", 32, true)
        case .longLong?: (name, bits, unsigned) = ("long long ", 64, false)
        case .unsignedLongLong?: (name, bits, unsigned) = ("unsigned long long ", 64, true)
        default:
            phrase.add("integer ")
            phrase.addDecimal(raw)
            phrase.add(" (")
            phrase.add(width)
            phrase.add(")")
            return
        }
        phrase.add(name)
        let writtenNegative = unsigned && raw < 0
        if writtenNegative {
            let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
            phrase.addDecimal(UInt64(bitPattern: raw) & mask)
        } else {
            phrase.addDecimal(raw)
        }
        phrase.add(" (")
        phrase.add(width)
        if writtenNegative {
            phrase.add(", written as ")
            phrase.addDecimal(raw)
        }
        if bits < 64 {
            let fits = unsigned ? raw >= -(1 << Int64(bits)) && raw < (1 << Int64(bits))
                                : raw >= -(1 << Int64(bits - 1)) && raw < (1 << Int64(bits - 1))
            if !fits {
                phrase.add(", does not fit ")
                phrase.addDecimal(bits)
                phrase.add(" bits")
            }
        }
        phrase.add(")")
    }

    private mutating func describeByte(_ byte: UInt8, type: ObjCType?) {
        switch type {
        case .char?:
            phrase.add("char ")
            phrase.addDecimal(Int(Int8(bitPattern: byte)))
        case .unsignedChar?:
            phrase.add("unsigned char ")
            phrase.addDecimal(Int(byte))
        case .bool?:
            switch byte {
            case 0: phrase.add("bool false")
            case 1: phrase.add("bool true")
            default:
                phrase.add("bool ")
                phrase.addDecimal(Int(byte))
                phrase.add(" (neither 0 nor 1)")
            }
            return
        default:
            phrase.add("byte 0x")
            phrase.addHex(Int(byte), digits: 2)
        }
        if byte >= 0x20 && byte <= 0x7E {
            phrase.add(" '")
            phrase.add(byte: byte)
            phrase.add("'")
        }
    }

    private mutating func realForm(_ token: CompactToken) {
        if token.form == .ieee { return phrase.add(" (IEEE)") }
        phrase.add(" (written as integer")
        if token.width != .inline {
            phrase.add(", ")
            phrase.add(token.width)
        }
        phrase.add(")")
    }

    // MARK: - Strings, objects and classes

    private mutating func quote(_ text: ArraySlice<UInt8>) {
        phrase.addQuoted(text, limit: textLimit)
    }

    /// `new shared string #3`, `shared string #0 by reference`, `…, int16`: how the text fields
    /// of `token` were written.
    private mutating func sharedStringOrigin(_ token: CompactToken) {
        if !token.textIsReference {
            phrase.add("new shared string #")
            phrase.addDecimal(token.textIndex)
            return
        }
        phrase.add("shared string #")
        phrase.addDecimal(token.textIndex)
        phrase.add(" by reference")
        if token.textWidth != .inline {
            phrase.add(", ")
            phrase.add(token.textWidth)
        }
    }

    private mutating func describeCString(_ token: CompactToken) {
        switch token.form {
        case .null:
            phrase.add("NULL (C string)")
        case .reference:
            phrase.add("reference to C string #")
            phrase.addDecimal(token.slot)
            if let text = slots.cString(token.slot) {
                phrase.add(" (")
                quote(bytes[text])
                if token.width != .inline {
                    phrase.add(", ")
                    phrase.add(token.width)
                }
                phrase.add(")")
            } else if token.width != .inline {
                phrase.add(" (")
                phrase.add(token.width)
                phrase.add(")")
            }
        default:
            slots.setCString(token.slot, text: token.payload)
            phrase.add("C string ")
            quote(bytes[token.payload])
            phrase.add(" (new, object #")
            phrase.addDecimal(token.slot)
            phrase.add("; text: ")
            sharedStringOrigin(token)
            phrase.add(")")
        }
    }

    private mutating func describeObject(_ token: CompactToken, untyped: Bool, classPreview: CompactToken?) {
        let untypedNote = untyped && streamerVersion == 3
        switch token.form {
        case .null:
            phrase.add("nil")
        case .reference:
            let index = token.slot
            switch slots.kind(index) {
            case .class:
                phrase.add("reference to #")
                phrase.addDecimal(index)
                phrase.add(" (class ")
                phrase.addName(slots.className(index) ?? [])
                widthClose(token.width)
            case .object where className(ofObject: index) != nil:
                phrase.add("reference to object #")
                phrase.addDecimal(index)
                phrase.add(" (")
                phrase.addName(className(ofObject: index) ?? [])
                widthClose(token.width)
            default:
                phrase.add("reference to object #")
                phrase.addDecimal(index)
                if token.width != .inline {
                    phrase.add(" (")
                    phrase.add(token.width)
                    phrase.add(")")
                }
            }
        default:
            let index = token.slot
            cursor.openObject()
            openObjects.append(index)
            chain = .object(index: index, links: 0)
            var classSlot = -1
            if let link = classPreview, link.code == .classLink {
                switch link.form {
                case .new: classSlot = link.slot
                case .reference where slots.kind(link.slot) == .class: classSlot = link.slot
                default: break
                }
            }
            slots.setObject(index, classSlot: classSlot)
            phrase.add("new object #")
            phrase.addDecimal(index)
            if let link = classPreview, classSlot >= 0 {
                phrase.add(" of class ")
                // A new class's name and version come with its link; a known one's from the table.
                if link.form == .new {
                    phrase.addName(bytes[link.payload])
                    phrase.add(" v")
                    phrase.addDecimal(link.value)
                } else {
                    phrase.addName(slots.className(classSlot) ?? [])
                    phrase.add(" v")
                    phrase.addDecimal(slots.classVersion(classSlot))
                }
            }
        }
        if untypedNote { phrase.add(" (no type string, streamer 3)") }
    }

    /// `)` after an inline reference, `, int16)` after a wider one.
    private mutating func widthClose(_ width: IntegerWidth) {
        if width != .inline {
            phrase.add(", ")
            phrase.add(width)
        }
        phrase.add(")")
    }

    private mutating func describeClassLink(_ token: CompactToken) {
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
        switch token.form {
        case .null:
            chain = .none
            phrase.add(position == 0 ? "class: nil" : "superclass: none")
        case .reference:
            chain = .none
            phrase.add(position == 0 ? "class → #" : "superclass → #")
            phrase.addDecimal(token.slot)
            phrase.add(" ")
            if slots.kind(token.slot) == .class {
                phrase.addName(slots.className(token.slot) ?? [])
                phrase.add(" ")
            }
            phrase.add("(reference")
            widthClose(token.width)
        default:
            slots.setClass(token.slot, name: token.payload, version: token.value)
            phrase.add(position == 0 ? "class " : "superclass ")
            phrase.addName(bytes[token.payload])
            phrase.add(" v")
            phrase.addDecimal(token.value)
            phrase.add(" (new, object #")
            phrase.addDecimal(token.slot)
            phrase.add("; name: ")
            sharedStringOrigin(token)
            phrase.add(")")
        }
    }

    /// The class name of the object in slot `index`, if known.
    private func className(ofObject index: Int) -> ArraySlice<UInt8>? {
        guard slots.kind(index) == .object else { return nil }
        return slots.className(slots.classSlot(ofObject: index))
    }

    /// The number of object-table slots seen so far.
    var slotCount: Int { slots.count }

    /// What slot `index` of the object table holds, in words ("a class (NSObject)"), or `nil`
    /// when the slot has not been seen.
    func slotSummary(_ index: Int) -> String? {
        guard index >= 0 else { return nil }
        switch slots.kind(index) {
        case .object:
            return className(ofObject: index).map { "an object of class \(String(decoding: $0, as: UTF8.self))" } ?? "an object"
        case .class:
            return "a class (\(String(decoding: slots.className(index) ?? [], as: UTF8.self)))"
        case .cString:
            var quoted = AnnotatedDumpPhrase(useColor: false)
            quoted.appendQuoted(slots.cString(index).map { bytes[$0] } ?? [], limit: textLimit)
            return "a C string (\(String(decoding: quoted.bytes, as: UTF8.self)))"
        case nil:
            return nil
        }
    }
}

/// The describer's view of the object table, kept small: a kind and a class number per slot,
/// with the few classes and C strings on the side as byte ranges of the archive (a dictionary
/// of enums per slot would cost tens of bytes per object).
private struct AnnotatedDumpSlots {
    /// What a slot holds.
    enum Kind: UInt8 {
        case object = 1, `class`, cString
    }

    /// The archive's bytes, for names.
    let bytes: [UInt8]
    /// Per slot: 0 not seen, else a ``Kind``.
    private var kinds: [UInt8] = []
    /// Per slot holding an object: the slot of its class (−1 when unknown).
    private var objectClasses: [Int32] = []
    /// Per class slot: where its name lies and its version.
    private var classes: [Int: (name: Range<Int>, version: Int64)] = [:]
    /// Per C-string slot: where its text lies.
    private var cStrings: [Int: Range<Int>] = [:]
    /// The number of slots seen.
    private(set) var count = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func mark(_ index: Int, _ kind: Kind) {
        guard index >= 0 else { return }
        if index >= kinds.count {
            let grown = Swift.max(index + 1, kinds.count * 2)
            kinds.append(contentsOf: repeatElement(0, count: grown - kinds.count))
            objectClasses.append(contentsOf: repeatElement(-1, count: grown - objectClasses.count))
        }
        if kinds[index] == 0 { count += 1 }
        kinds[index] = kind.rawValue
    }

    /// What slot `index` holds, `nil` when not seen.
    @inline(__always)
    func kind(_ index: Int) -> Kind? {
        guard index >= 0, index < kinds.count else { return nil }
        return Kind(rawValue: kinds[index])
    }

    /// Records an object whose class is in `classSlot` (−1 when unknown).
    mutating func setObject(_ index: Int, classSlot: Int) {
        mark(index, .object)
        if index >= 0 { objectClasses[index] = Int32(truncatingIfNeeded: classSlot) }
    }

    /// Records a class named by the bytes at `name`.
    mutating func setClass(_ index: Int, name: Range<Int>, version: Int64) {
        mark(index, .class)
        classes[index] = (name, version)
    }

    /// Records a C string whose text lies at `text`.
    mutating func setCString(_ index: Int, text: Range<Int>) {
        mark(index, .cString)
        cStrings[index] = text
    }

    /// The class slot of the object in slot `index` (−1 when unknown).
    func classSlot(ofObject index: Int) -> Int {
        index >= 0 && index < objectClasses.count ? Int(objectClasses[index]) : -1
    }

    /// The name of the class recorded in slot `index`, if one was.
    func className(_ index: Int) -> ArraySlice<UInt8>? {
        guard index >= 0, let entry = classes[index] else { return nil }
        return bytes[entry.name]
    }

    /// The version of the class recorded in slot `index` (0 when none was).
    func classVersion(_ index: Int) -> Int64 {
        classes[index]?.version ?? 0
    }

    /// Where the text of the C string recorded in slot `index` lies, if one was.
    func cString(_ index: Int) -> Range<Int>? {
        cStrings[index]
    }
}
