/// A token in plain-data form: what it is, where it lies, and every wire decision, with string
/// and data payloads given as byte ranges of the input instead of slices.
///
/// It holds no references, so producing, copying and dropping one costs no reference counting:
/// this is what ``TokenReader/nextCompact()`` returns on the fast path (scans, indexes,
/// transcoding). ``TokenReader/token(_:)`` turns it into the richer ``Token``, which says the
/// same things with enum payloads and slices. Fields a code does not use are zero.
///
/// | code | fields used |
/// |---|---|
/// | `header` | `value`/`width`: the system version; `slot`: the streamer version; `payload`: the signature (byte order) |
/// | `typeString` | the text fields |
/// | `integer`, `instanceSize` | `value`, `width` |
/// | `float`, `double` | `form` `.ieee` (`value`: the IEEE bit pattern) or `.integral` (`value`, `width`) |
/// | `byte` | `value` |
/// | `rawBytes` | `payload` |
/// | `unsharedString` | `form` `.null` or `.new`; `payload`, `width` (of the length) |
/// | `sharedString` | `form` `.null` or `.new`; the text fields |
/// | `cString` | `form` `.null`, `.reference` (`slot`, `width`) or `.new` (`slot` and the text fields) |
/// | `object` | `form` `.null`, `.reference` (`slot`, `width`) or `.new` (`slot`) |
/// | `classLink` | `form` `.null`, `.reference` (`slot`, `width`) or `.new` (`slot`, the name in the text fields, the version in `value`/`width`) |
/// | `arrayStart` | `value`: the element count |
///
/// The *text fields* describe a shared string: `textIsReference`, `textIndex` (its slot in the
/// shared-string table), `textWidth` (the width of its length, or of its reference label) and
/// `payload` (the bytes of its text, wherever they were first written).
public struct CompactToken: Hashable, Sendable {
    /// What a token stands for; the cases of ``TokenKind`` without their payloads.
    public enum Code: UInt8, Hashable, Sendable {
        case header, typeString, integer, float, double, byte, rawBytes, unsharedString, sharedString
        case cString, object, classLink, instanceSize, endOfObject, arrayStart, arrayEnd
        case structStart, structEnd, ignored, untypedGroup
    }

    /// How an item with a choice of forms was written.
    public enum Form: UInt8, Hashable, Sendable {
        /// No choice to record.
        case none
        /// `0x85`: nil or NULL.
        case null
        /// `0x84` (a new slot or literal), or present (a non-nil string).
        case new
        /// A reference to an earlier slot.
        case reference
        /// A real written as `0x83` and its IEEE bytes.
        case ieee
        /// A real written as an integer.
        case integral
    }

    /// What it stands for.
    public var code: Code
    /// How it was written, where there was a choice.
    public var form: Form = .none
    /// The width of its integer, length or reference label.
    public var width: IntegerWidth = .inline
    /// Whether its shared string (text fields) was written as a reference.
    public var textIsReference = false
    /// The width of its shared string's length or reference label.
    public var textWidth: IntegerWidth = .inline
    /// Nesting depth: 0 at top level, +1 inside each object, array and struct.
    public var depth: Int
    /// The byte offset of its first byte.
    public var start: Int
    /// The byte offset just past its last byte.
    public var end: Int
    /// Its integer value, byte, real bit pattern, count or class version.
    public var value: Int64 = 0
    /// The object-table slot it takes or refers to.
    public var slot: Int = 0
    /// The shared-string slot of its text.
    public var textIndex: Int = 0
    /// The start of its payload (string text or raw bytes) in the input.
    public var payloadStart = 0
    /// The end of its payload in the input.
    public var payloadEnd = 0

    /// Creates a token with the given code and position; other fields are zero.
    @inline(__always)
    public init(_ code: Code, start: Int, end: Int, depth: Int) {
        self.code = code
        self.start = start
        self.end = end
        self.depth = depth
    }

    /// The byte range the token was read from.
    public var range: Range<Int> { start..<end }

    /// Sets the text fields: shared-string slot `index`, written as a reference or literally
    /// (the width of its label or length), its text at `text` in the input.
    @inline(__always)
    mutating func setText(_ index: Int, isReference: Bool, width: IntegerWidth, at text: Range<Int>) {
        textIndex = index
        textIsReference = isReference
        textWidth = width
        payloadStart = text.lowerBound
        payloadEnd = text.upperBound
    }

    /// Sets the fields of a reference to object-table slot `slot`, its label `width` wide.
    @inline(__always)
    mutating func setReference(to slot: Int, width: IntegerWidth) {
        form = .reference
        self.slot = slot
        self.width = width
    }
    /// The byte range of its payload in the input.
    public var payload: Range<Int> { payloadStart..<payloadEnd }
}

extension TokenReader {
    /// The rich form of `compact`, a token this reader produced (payloads become slices of
    /// ``bytes``).
    public func token(_ compact: CompactToken) -> Token {
        Token(kind(of: compact), start: compact.start, end: compact.end, depth: compact.depth)
    }

    private func text(of compact: CompactToken) -> SharedString {
        let form: SharedString.Form = compact.textIsReference
            ? .reference(index: compact.textIndex, width: compact.textWidth)
            : .literal(index: compact.textIndex, length: compact.textWidth)
        return SharedString(form: form, bytes: bytes[compact.payload])
    }

    private func kind(of c: CompactToken) -> TokenKind {
        switch c.code {
        case .header:
            let header = self.header ?? StreamHeader(streamerVersion: 4, byteOrder: .little, systemVersion: WireInteger(c.value, width: c.width))
            return .header(header)
        case .typeString: return .typeString(text(of: c))
        case .integer: return .integer(WireInteger(c.value, width: c.width))
        case .float:
            return c.form == .ieee ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: c.value)), .ieee) : .float(Float(c.value), .integral(c.width))
        case .double:
            return c.form == .ieee ? .double(Double(bitPattern: UInt64(bitPattern: c.value)), .ieee) : .double(Double(c.value), .integral(c.width))
        case .byte: return .byte(UInt8(truncatingIfNeeded: c.value))
        case .rawBytes: return .rawBytes(bytes[c.payload])
        case .unsharedString: return .unsharedString(c.form == .null ? nil : bytes[c.payload], length: c.width)
        case .sharedString: return .sharedString(c.form == .null ? nil : text(of: c))
        case .cString:
            switch c.form {
            case .null: return .cString(.null)
            case .reference: return .cString(.reference(index: c.slot, width: c.width))
            default: return .cString(.literal(index: c.slot, text: text(of: c)))
            }
        case .object:
            switch c.form {
            case .null: return .object(.null)
            case .reference: return .object(.reference(index: c.slot, width: c.width))
            default: return .object(.new(index: c.slot))
            }
        case .classLink:
            switch c.form {
            case .null: return .classLink(.null)
            case .reference: return .classLink(.reference(index: c.slot, width: c.width))
            default: return .classLink(.new(index: c.slot, name: text(of: c), version: WireInteger(c.value, width: c.width)))
            }
        case .instanceSize: return .instanceSize(WireInteger(c.value, width: c.width))
        case .endOfObject: return .endOfObject
        case .arrayStart: return .arrayStart(count: Int(c.value))
        case .arrayEnd: return .arrayEnd
        case .structStart: return .structStart
        case .structEnd: return .structEnd
        case .ignored: return .ignored
        case .untypedGroup: return .untypedGroup
        }
    }
}

extension CompactToken {
    /// The plain-data form of `kind` and its payload (string text, raw bytes, a header's
    /// signature): the inverse of ``TokenReader/token(_:)``. Offsets and depth are zero.
    @inline(__always)  // so that a writer of one known kind keeps only its own case
    public static func from(_ kind: TokenKind) -> (CompactToken, ArraySlice<UInt8>) {
        var token = CompactToken(.header, start: 0, end: 0, depth: 0)
        var payload: ArraySlice<UInt8> = []
        func setText(_ text: SharedString) {
            switch text.form {
            case .literal(let index, let length):
                token.textIndex = index
                token.textWidth = length
            case .reference(let index, let width):
                token.textIndex = index
                token.textWidth = width
                token.textIsReference = true
            }
            payload = text.bytes
        }
        func setSlot(_ form: Form, _ slot: Int, _ width: IntegerWidth = .inline) {
            token.form = form
            token.slot = slot
            token.width = width
        }
        switch kind {
        case .header(let header):
            token.slot = Int(header.streamerVersion)
            token.value = header.systemVersion.value
            token.width = header.systemVersion.width
            payload = ArraySlice(header.byteOrder.signature)
        case .typeString(let text):
            token.code = .typeString
            setText(text)
        case .integer(let value):
            token.code = .integer
            token.value = value.value
            token.width = value.width
        case .float(let value, let form):
            token.code = .float
            setReal(&token, bits: UInt64(value.bitPattern), integral: Int64(exactly: value), form)
        case .double(let value, let form):
            token.code = .double
            setReal(&token, bits: value.bitPattern, integral: Int64(exactly: value), form)
        case .byte(let byte):
            token.code = .byte
            token.value = Int64(byte)
        case .rawBytes(let bytes):
            token.code = .rawBytes
            payload = bytes
        case .unsharedString(let bytes, let length):
            token.code = .unsharedString
            token.form = bytes == nil ? .null : .new
            token.width = length
            payload = bytes ?? []
        case .sharedString(let text):
            token.code = .sharedString
            token.form = text == nil ? .null : .new
            if let text { setText(text) }
        case .cString(let form):
            token.code = .cString
            switch form {
            case .null: token.form = .null
            case .reference(let index, let width): setSlot(.reference, index, width)
            case .literal(let index, let text):
                setSlot(.new, index)
                setText(text)
            }
        case .object(let form):
            token.code = .object
            switch form {
            case .null: token.form = .null
            case .reference(let index, let width): setSlot(.reference, index, width)
            case .new(let index): setSlot(.new, index)
            }
        case .classLink(let form):
            token.code = .classLink
            switch form {
            case .null: token.form = .null
            case .reference(let index, let width): setSlot(.reference, index, width)
            case .new(let index, let name, let version):
                setSlot(.new, index, version.width)
                token.value = version.value
                setText(name)
            }
        case .instanceSize(let value):
            token.code = .instanceSize
            token.value = value.value
            token.width = value.width
        case .endOfObject: token.code = .endOfObject
        case .arrayStart(let count):
            token.code = .arrayStart
            token.value = Int64(count)
        case .arrayEnd: token.code = .arrayEnd
        case .structStart: token.code = .structStart
        case .structEnd: token.code = .structEnd
        case .ignored: token.code = .ignored
        case .untypedGroup: token.code = .untypedGroup
        }
        return (token, payload)
    }

    /// Sets a real's form: IEEE bits, or the integer it was written as (`integral`, which
    /// ``TokenWriter`` has checked exists).
    private static func setReal(_ token: inout CompactToken, bits: UInt64, integral: Int64?, _ form: RealForm) {
        switch form {
        case .ieee:
            token.form = .ieee
            token.value = Int64(bitPattern: bits)
        case .integral(let width):
            token.form = .integral
            token.width = width
            token.value = integral ?? 0
        }
    }
}
