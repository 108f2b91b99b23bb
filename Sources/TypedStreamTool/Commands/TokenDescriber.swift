import TypedStream
import TypedStreamExport

/// Writes the lines of `typedstream tokens`: offset, raw bytes, and a meaning such as
/// `new object #3`, `class NSString v1 (#4)`, `type string "@" (shared #0, new)`,
/// `int 42 (int16)`, `end of object #3 (NSArray)`.
///
/// It follows the stream as it is read, remembering which class each new object has and which
/// objects are open, so references and ends of objects can be named. Everything is written as
/// bytes straight into the output (no `String` per line).
struct TokenDescriber {
    /// Per object-table slot: the class slot of the object there, once known (−1: none).
    private var objectClass: [Int32] = []
    /// The object whose class chain is being read (its first link names its class).
    private var awaitingClass: Int?
    /// The objects opened and not yet ended, innermost last.
    private var openObjects: [Int] = []
    /// Raw bytes shown per token (0: all).
    let byteLimit: Int
    /// The width of the hex column in characters (0: no padding).
    let hexWidth: Int

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
        hexWidth = byteLimit == 0 ? 0 : byteLimit * 3
    }

    /// Writes the line of `token`; `reader` is the reader that produced it (for its tables).
    /// `0000000f  84 01 40                  type string "@" (shared #0, new)`.
    mutating func writeLine(_ token: CompactToken, reader: TokenReader, to out: inout OutputWriter) {
        let bytes = reader.bytes
        let range = max(0, token.start)..<min(bytes.count, max(token.start, token.end))
        let truncate = byteLimit > 0 && range.count > byteLimit
        let shown = truncate ? byteLimit - 1 : range.count
        // Offset, the bytes in hex (as many as fit at once), the mark of a cut, the padding.
        let inOnePass = min(shown, (OutputWriter.defaultCapacity - 64) / 3)
        bytes.withUnsafeBufferPointer { source in
            out.withSpace(16 + 2 + 3 * inOnePass) { pointer in
                var i = Self.writeOffset(token.start, to: pointer)
                pointer[i] = 0x20
                pointer[i + 1] = 0x20
                i += 2
                for position in range.lowerBound..<range.lowerBound + inOnePass {
                    let byte = source[position]
                    pointer[i] = Self.hexDigit(byte >> 4)
                    pointer[i + 1] = Self.hexDigit(byte & 0x0F)
                    pointer[i + 2] = 0x20
                    i += 3
                }
                // No space after the last byte.
                if inOnePass > 0 { i -= 1 }
                return i
            }
        }
        var shownWidth = shown > 0 ? 3 * shown - 1 : 0
        // Tokens of more than 21 824 bytes, shown whole (`--bytes 0`): the rest in pieces.
        var position = range.lowerBound + inOnePass
        while position < range.lowerBound + shown {
            let byte = bytes[position]
            out.append(0x20)
            out.append(Self.hexDigit(byte >> 4))
            out.append(Self.hexDigit(byte & 0x0F))
            position += 1
        }
        if truncate {
            out.append(shown > 0 ? " …" : "…")
            shownWidth += shown > 0 ? 2 : 1
        }
        if shownWidth < hexWidth { out.appendSpaces(hexWidth - shownWidth) }
        out.appendSpaces(1 + 2 * max(0, token.depth))
        describe(token, reader: reader, to: &out)
        out.append(0x0A)
    }

    /// Appends the name of an integer width (`inline`, `int16`, `int32`, `int64`).
    @inline(__always)
    private static func appendWidth(_ width: IntegerWidth, _ out: inout OutputWriter) {
        switch width {
        case .inline: out.append("inline")
        case .int16: out.append("int16")
        case .int32: out.append("int32")
        case .int64: out.append("int64")
        }
    }

    /// The lowercase hex digit of `nibble` (0…15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
    }

    /// Writes `offset` (at least 0) as eight or more hex digits at `pointer`; returns how many.
    @inline(__always)
    private static func writeOffset(_ offset: Int, to pointer: UnsafeMutablePointer<UInt8>) -> Int {
        let value = UInt64(max(offset, 0))
        var digits = 8
        while digits < 16 && value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        var rest = value
        var i = digits
        while i > 0 {
            i -= 1
            pointer[i] = hexDigit(UInt8(truncatingIfNeeded: rest & 0xF))
            rest >>= 4
        }
        return digits
    }

    /// Writes the meaning of `token`.
    private mutating func describe(_ token: CompactToken, reader: TokenReader, to out: inout OutputWriter) {
        let bytes = reader.bytes
        switch token.code {
        case .header:
            let order = reader.header?.byteOrder ?? .little
            out.append("header: streamer version ")
            out.appendDecimal(Int(reader.header?.streamerVersion ?? UInt8(truncatingIfNeeded: token.slot)))
            out.append(", \"")
            out.appendLossy(ArraySlice(order.signature))
            out.append(order == .big ? "\" (big-endian), system version " : "\" (little-endian), system version ")
            out.appendDecimal(token.value)
            widthNote(token.width, &out)
        case .typeString:
            out.append("type string ")
            shared(token, bytes, &out)
        case .integer:
            out.append("int ")
            out.appendDecimal(token.value)
            out.append(" (")
            Self.appendWidth(token.width, &out)
            out.append(")")
        case .float:
            out.append("float ")
            out.append(token.form == .ieee ? "\(Float(bitPattern: UInt32(truncatingIfNeeded: token.value)))" : "\(Float(token.value))")
            realNote(token, &out)
        case .double:
            out.append("double ")
            out.append(token.form == .ieee ? "\(Double(bitPattern: UInt64(bitPattern: token.value)))" : "\(Double(token.value))")
            realNote(token, &out)
        case .byte:
            let byte = UInt8(truncatingIfNeeded: token.value)
            out.append("byte 0x")
            out.appendHex(UInt64(byte), digits: 2)
            out.append(" (")
            out.appendDecimal(Int(Int8(bitPattern: byte)))
            out.append(")")
            if (0x20..<0x7F).contains(byte) {
                out.append(" '")
                out.append(byte)
                out.append("'")
            }
        case .rawBytes:
            let count = token.payload.count
            out.appendDecimal(count)
            out.append(count == 1 ? " raw byte " : " raw bytes ")
            out.appendQuoted(bytes[token.payload], limit: 32)
        case .unsharedString:
            guard token.form != .null else { return out.append("nil counted bytes (+)") }
            let count = token.payload.count
            out.append("string ")
            out.appendQuoted(bytes[token.payload])
            out.append(" (")
            out.appendDecimal(count)
            out.append(count == 1 ? " byte, length " : " bytes, length ")
            Self.appendWidth(token.width, &out)
            out.append(")")
        case .sharedString:
            guard token.form != .null else { return out.append("nil shared string") }
            if token.textIsReference {
                out.append("reference to shared string #")
                out.appendDecimal(token.textIndex)
                out.append(" ")
                out.appendQuoted(bytes[token.payload])
                widthNote(token.textWidth, &out)
            } else {
                out.append("shared string ")
                out.appendQuoted(bytes[token.payload])
                out.append(" (shared #")
                out.appendDecimal(token.textIndex)
                out.append(", new)")
            }
        case .cString:
            switch token.form {
            case .null:
                out.append("NULL C string")
            case .reference:
                out.append("reference to C string #")
                out.appendDecimal(token.slot)
                out.append(" ")
                if let text = reader.text(ofSlot: token.slot) { out.appendQuoted(text) }
                widthNote(token.width, &out)
            default:
                out.append("new C string #")
                out.appendDecimal(token.slot)
                out.append(" ")
                shared(token, bytes, &out)
            }
        case .object:
            switch token.form {
            case .null:
                out.append("nil object")
            case .reference:
                if reader.kind(ofSlot: token.slot) == .class {
                    out.append("reference to class #")
                    out.appendDecimal(token.slot)
                    out.append(" ")
                    slotName(token.slot, reader, &out)
                } else {
                    out.append("reference to object #")
                    out.appendDecimal(token.slot)
                    className(ofObject: token.slot, reader, &out)
                }
                widthNote(token.width, &out)
            default:
                awaitingClass = token.slot
                openObjects.append(token.slot)
                out.append("new object #")
                out.appendDecimal(token.slot)
            }
        case .classLink:
            describeClassLink(token, reader: reader, to: &out)
        case .instanceSize:
            out.append("instance size ")
            out.appendDecimal(token.value)
            out.append(" (streamer 3, ")
            Self.appendWidth(token.width, &out)
            out.append(")")
        case .endOfObject:
            guard let index = openObjects.popLast() else { return out.append("end of object") }
            out.append("end of object #")
            out.appendDecimal(index)
            className(ofObject: index, reader, &out)
        case .arrayStart:
            out.append("array of ")
            out.appendDecimal(token.value)
        case .arrayEnd:
            out.append("end of array")
        case .structStart:
            out.append("struct")
        case .structEnd:
            out.append("end of struct")
        case .ignored:
            out.append("ignored field (!), no bytes")
        case .untypedGroup:
            out.append("group without a type string (streamer 3 object)")
        }
    }

    private mutating func describeClassLink(_ token: CompactToken, reader: TokenReader, to out: inout OutputWriter) {
        let object = awaitingClass
        awaitingClass = nil
        switch token.form {
        case .null:
            out.append("no superclass (end of class chain)")
        case .reference:
            if let object { setClass(token.slot, ofObject: object) }
            out.append("reference to class #")
            out.appendDecimal(token.slot)
            out.append(" ")
            slotName(token.slot, reader, &out)
            widthNote(token.width, &out)
        default:
            if let object { setClass(token.slot, ofObject: object) }
            out.append("class ")
            out.appendLossy(reader.bytes[token.payload])
            out.append(" v")
            out.appendDecimal(token.value)
            out.append(" (#")
            out.appendDecimal(token.slot)
            out.append("; name: shared #")
            out.appendDecimal(token.textIndex)
            out.append(token.textIsReference ? ")" : ", new)")
        }
    }

    private mutating func setClass(_ classSlot: Int, ofObject object: Int) {
        if object >= objectClass.count {
            objectClass.append(contentsOf: repeatElement(-1, count: max(object + 1 - objectClass.count, objectClass.count)))
        }
        objectClass[object] = Int32(truncatingIfNeeded: classSlot)
    }

    /// ` (NSArray)` when the class of the object in `slot` is known.
    private func className(ofObject slot: Int, _ reader: TokenReader, _ out: inout OutputWriter) {
        guard slot < objectClass.count, objectClass[slot] >= 0 else { return }
        out.append(" (")
        slotName(Int(objectClass[slot]), reader, &out)
        out.append(")")
    }

    /// `"@" (shared #0, new)` or `"i" (reference to shared #2)`.
    private func shared(_ token: CompactToken, _ bytes: [UInt8], _ out: inout OutputWriter) {
        out.appendQuoted(bytes[token.payload])
        if token.textIsReference {
            out.append(" (reference to shared #")
            out.appendDecimal(token.textIndex)
            if token.textWidth != .inline {
                out.append(", ")
                Self.appendWidth(token.textWidth, &out)
            }
            out.append(")")
        } else {
            out.append(" (shared #")
            out.appendDecimal(token.textIndex)
            out.append(", new)")
        }
    }

    /// The bare name of a class slot (`?` when unknown).
    private func slotName(_ index: Int, _ reader: TokenReader, _ out: inout OutputWriter) {
        guard let text = reader.text(ofSlot: index) else { return out.append("?") }
        out.appendLossy(text)
    }

    private func realNote(_ token: CompactToken, _ out: inout OutputWriter) {
        if token.form == .ieee {
            out.append(" (IEEE)")
        } else {
            out.append(" (written as an integer, ")
            Self.appendWidth(token.width, &out)
            out.append(")")
        }
    }

    /// " (int16)" for multi-byte references and integers; nothing when inline.
    private func widthNote(_ width: IntegerWidth, _ out: inout OutputWriter) {
        guard width != .inline else { return }
        out.append(" (")
        Self.appendWidth(width, &out)
        out.append(")")
    }
}
