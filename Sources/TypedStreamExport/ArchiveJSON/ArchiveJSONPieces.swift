import ObjCTypeEncoding
import TypedStream

/// The members of lossless JSON that both of its writers spell the same way — the graph
/// encoder (``ArchiveJSON/encode(_:options:)``) and the token encoder (``ArchiveJSON/write(_:options:to:)``):
/// byte strings, wire decisions, references, integers and reals with their forms.
extension JSONTextWriter {
    /// A `+` value's bytes: plain, or boxed with `"width"` where its length was written with
    /// another width than NSArchiver would choose.
    mutating func unsharedBytes(_ payload: ArraySlice<UInt8>, lengthWidth recorded: IntegerWidth?) {
        let length = Int64(payload.count)
        let width = IntegerPlace.counted.width(recorded: recorded, for: length)
        if width == IntegerPlace.counted.archiverChoice(for: length) {
            bytesField(payload)
        } else {
            beginBoxedBytes(payload)
            key("width")
            string(width.name)
            endObject()
        }
    }

    /// Bytes as a JSON string when they are UTF-8, else as `{"hex": …}`.
    mutating func bytesField(_ bytes: ArraySlice<UInt8>) {
        if !stringIfUTF8(bytes) {
            beginObject(.inline)
            key("hex")
            hexString(bytes)
            endObject()
        }
    }

    /// Opens `{"text": …` or `{"hex": …` (the caller adds decision members and closes it).
    mutating func beginBoxedBytes(_ bytes: ArraySlice<UInt8>) {
        beginObject(.inline)
        if ByteText.isValidUTF8(bytes) {
            key("text")
            string(utf8: bytes)
        } else {
            key("hex")
            hexString(bytes)
        }
    }

    /// `{"hex": "…"}`.
    mutating func hexObject(_ payload: ArraySlice<UInt8>) {
        beginObject(.inline)
        key("hex")
        hexString(payload)
        endObject()
    }

    /// A shared-string decision: `{"literal": "int16"}` or `{"reference": 3}`.
    mutating func decision(_ decision: SharedStringDecision) {
        beginObject(.inline)
        switch decision {
        case .literal(let width):
            key("literal")
            string(width.name)
        case .reference(let index, let width):
            key("reference")
            integer(Int64(index))
            if width != IntegerWidth.archiverChoice(forReferenceTo: index) {
                key("width")
                string(width.name)
            }
        }
        endObject()
    }

    /// `{"ref": slot}`, with the label's width when it is not the default.
    mutating func reference(_ slot: Int, _ recorded: IntegerWidth?) {
        let width = IntegerPlace.referenceWidth(recorded: recorded, slot: slot)
        guard width != IntegerWidth.archiverChoice(forReferenceTo: slot) else {
            return integerObject("ref", Int64(slot))
        }
        beginObject(.inline)
        key("ref")
        integer(Int64(slot))
        key("width")
        string(width.name)
        endObject()
    }

    /// An integer as its natural value (unsigned types reinterpreted at their width), boxed with
    /// its width when that differs from the default, or as `{"raw": …}` when the natural value
    /// would not read back as the same stored value.
    mutating func archiveInteger(_ value: Int64, type: ObjCType, width: IntegerWidth?, defaultWidth: IntegerWidth) {
        archiveInteger(value, unsignedBits: type.unsignedBits, width: width, defaultWidth: defaultWidth)
    }

    /// ``archiveInteger(_:type:width:defaultWidth:)`` for a type given by its unsigned bits
    /// (16, 32 or 64; `nil` for a signed type).
    mutating func archiveInteger(_ value: Int64, unsignedBits: Int?, width: IntegerWidth?, defaultWidth: IntegerWidth) {
        var raw = false
        var natural: UInt64? = nil
        if let bits = unsignedBits {
            if bits == 64 {
                if value < 0 { natural = UInt64(bitPattern: value) }
            } else {
                let half = Int64(1) << (bits - 1)
                if value < 0, value >= -half { natural = UInt64(value + 2 * half) }
                raw = value >= half && value < 2 * half
            }
        }
        let boxed = raw || (width != nil && width != defaultWidth)
        if boxed {
            beginObject(.inline)
            key(raw ? "raw" : "value")
        }
        if let natural { unsigned(natural) } else { integer(value) }
        if boxed {
            if let width, width != defaultWidth {
                key("width")
                string(width.name)
            }
            endObject()
        }
    }

    /// A real: its exact number, or its bit pattern when JSON has no number for it, with its
    /// form when that is not the default.
    mutating func archiveReal(_ text: String?, bits: @autoclosure () -> String, form: RealForm, fallback: RealForm, isFloat: Bool) {
        let showForm = form != fallback
        if let text, !showForm {
            number(text)
            return
        }
        beginObject(.inline)
        if let text {
            key("value")
            number(text)
        } else {
            key(isFloat ? "f32bits" : "f64bits")
            string(bits())
        }
        if showForm {
            key("form")
            switch form {
            case .ieee: string("ieee")
            case .integral(let width): string(width.name)
            }
        }
        endObject()
    }

    /// A `f` value with its recorded form.
    mutating func archiveFloat(_ x: Float, form: RealForm?) {
        let fallback = ArchiveWriter.archiverForm(x)
        let effective = ArchiveWriter.followedForm(form, integral: x.isFinite ? Int64(exactly: x) : nil, fallback: fallback)
        archiveReal(x.isFinite ? x.description : nil, bits: ByteText.bitPatternText(UInt64(x.bitPattern), digits: 8), form: effective, fallback: fallback, isFloat: true)
    }

    /// A `d` value with its recorded form, in an archive of `systemVersion`.
    mutating func archiveDouble(_ x: Double, form: RealForm?, systemVersion: Int64) {
        let fallback = ArchiveWriter.archiverForm(x, systemVersion: systemVersion)
        let effective = ArchiveWriter.followedForm(form, integral: x.isFinite ? Int64(exactly: x) : nil, fallback: fallback)
        archiveReal(x.isFinite ? x.description : nil, bits: ByteText.bitPatternText(x.bitPattern, digits: 16), form: effective, fallback: fallback, isFloat: false)
    }

    /// The document's opening: `format`, `formatVersion`, `header`, and the opening of `groups`.
    mutating func beginDocument(_ header: StreamHeader) {
        beginObject()
        key("format")
        string(ArchiveJSON.formatName)
        key("formatVersion")
        integer(Int64(ArchiveJSON.formatVersion))
        key("header")
        beginObject(.inline)
        key("streamerVersion")
        integer(Int64(header.streamerVersion))
        key("byteOrder")
        string(header.byteOrder.rawValue)
        key("systemVersion")
        integer(header.systemVersion.value)
        let system = header.systemVersion
        if system.width != IntegerPlace.counted.archiverChoice(for: system.value), IntegerPlace.counted.allows(system.width), system.width.canHold(system.value) {
            key("systemVersionWidth")
            string(system.width.name)
        }
        endObject()
        key("groups")
        beginArray()
    }

    /// Closes `groups` and the document, and ends the line.
    mutating func endDocument() {
        endArray()
        endObject()
        finishLine()
    }
}
