/// Writes ``Token``s back to bytes, following each token's recorded wire decisions.
///
/// The writer encodes values (integers at their recorded width, reals as IEEE or integral,
/// strings literally or as references) — it never copies input byte ranges. It keeps its own
/// count of both reference tables and refuses tokens that contradict them (a literal that claims
/// the wrong slot, a reference to a slot not yet written), so a hand-edited token list cannot
/// silently produce a corrupt archive.
///
/// ```swift
/// var writer = TokenWriter()
/// for token in tokens { try writer.write(token.kind) }
/// let archive = writer.bytes
/// ```
public struct TokenWriter {
    /// The bytes written so far (a copy, made on each use).
    public var bytes: [UInt8] { output.array }
    /// The number of bytes written so far.
    public var count: Int { output.count }
    private var output: OutputBytes
    /// The byte order of payloads, set by the header token.
    public private(set) var byteOrder: ByteOrder = .little
    private var sharedStringCount = 0
    private var objectSlotCount = 0
    private var streamerVersion: UInt8 = 4

    /// Creates an empty writer; `capacity` reserves room for the output.
    public init(capacity: Int = 0) {
        output = OutputBytes(capacity: capacity)
    }

    /// Writes one token. Throws ``WireError`` (code `invalidToken`) when the token cannot be
    /// written as recorded: a value that does not fit its width, a non-integral value marked
    /// integral, a literal whose slot number disagrees with the stream so far. A refused token
    /// leaves the writer as it was; the error's offset is where the token would have started.
    @inline(__always)  // see `CompactToken.from(_:)`
    public mutating func write(_ kind: TokenKind) throws(WireError) {
        switch kind {
        case .float(let value, .integral) where Int64(exactly: value) == nil:
            throw invalid("float \(value) is marked integral but is not an integer")
        case .double(let value, .integral) where Int64(exactly: value) == nil:
            throw invalid("double \(value) is marked integral but is not an integer")
        default:
            break
        }
        let (token, payload) = CompactToken.from(kind)
        try write(token, payload: payload)
    }

    /// Writes one token in plain-data form whose payload (string text, raw bytes, or a header's
    /// signature) is `payload`. Throws as ``write(_:)-(TokenKind)`` does.
    public mutating func write(_ token: CompactToken, payload: ArraySlice<UInt8>) throws(WireError) {
        try payload.withUnsafeBufferPointer { (payload) throws(WireError) in
            try write(token, payloadBytes: payload)
        }
    }

    /// Writes one token read from `source` (its payload is the token's ``CompactToken/payload``
    /// range there): the way to copy or transcode an archive token by token. Throws as
    /// ``write(_:)-(TokenKind)`` does, and when the payload range lies outside `source`.
    @inline(__always)
    public mutating func write(_ token: CompactToken, from source: [UInt8]) throws(WireError) {
        guard token.payloadStart >= 0, token.payloadStart <= token.payloadEnd, token.payloadEnd <= source.count else {
            throw invalid("the token's payload \(token.payloadStart)..<\(token.payloadEnd) lies outside the \(source.count) source bytes")
        }
        try source.withUnsafeBufferPointer { (buffer) throws(WireError) in
            try write(token, payloadBytes: UnsafeBufferPointer(rebasing: buffer[token.payload]))
        }
    }

    /// Writes one token whose payload is `payload`; a refused token leaves the writer as it was.
    @inline(__always)
    private mutating func write(_ token: CompactToken, payloadBytes payload: UnsafeBufferPointer<UInt8>) throws(WireError) {
        let saved = (count: output.count, strings: sharedStringCount, slots: objectSlotCount, order: byteOrder, version: streamerVersion)
        do throws(WireError) {
            // Room for the token at once: its payload, and at most 22 bytes besides (a class
            // link's `0x84`, its name's `0x84` and length, its version; a header), stored as
            // eight-byte words.
            let (room, overflow) = payload.count.addingReportingOverflow(Self.roomBesidesPayload)
            guard !overflow else { throw invalid("a payload of \(payload.count) bytes cannot be written") }
            output.reserve(room)
            try encode(token, payload)
        } catch {
            output.truncate(to: saved.count)
            sharedStringCount = saved.strings
            objectSlotCount = saved.slots
            byteOrder = saved.order
            streamerVersion = saved.version
            throw WireError(error.code, at: saved.count, error.reason)
        }
    }

    @inline(__always)
    private mutating func encode(_ token: CompactToken, _ payload: UnsafeBufferPointer<UInt8>) throws(WireError) {
        switch token.code {
        case .header:
            guard output.count == 0 else { throw invalid("a header must come first") }
            guard token.slot == 3 || token.slot == 4 else {
                throw invalid("streamer version \(token.slot) cannot be written")
            }
            guard let order = ByteOrder(signature: ArraySlice(payload)) else { throw invalid("a header needs the signature 'typedstream' or 'streamtyped'") }
            byteOrder = order
            streamerVersion = UInt8(token.slot)
            output.store(streamerVersion)
            output.store(UInt8(StreamHeader.signatureLength))
            order.signature.withUnsafeBufferPointer { output.store($0) }
            try writeInteger(token.value, width: token.width)
        case .typeString:
            try writeSharedString(token, payload)
        case .integer, .instanceSize:
            if token.code == .instanceSize, streamerVersion != 3 { throw invalid("an instance size exists only in streamer version 3") }
            try writeInteger(token.value, width: token.width)
        case .float, .double:
            let isFloat = token.code == .float
            if token.form == .ieee {
                output.store(HeadByte.real)
                appendFixed(UInt64(bitPattern: token.value), count: isFloat ? 4 : 8)
            } else {
                // Integral: the value must be exactly representable in the real type.
                let exact = isFloat ? Int64(exactly: Float(token.value)) == token.value : Int64(exactly: Double(token.value)) == token.value
                guard exact else { throw invalid("\(isFloat ? "float" : "double") \(token.value) is marked integral but is not exactly representable") }
                try writeInteger(token.value, width: token.width)
            }
        case .byte:
            output.store(UInt8(truncatingIfNeeded: token.value))
        case .rawBytes:
            output.store(payload)
        case .unsharedString:
            guard token.form != .null else {
                output.store(HeadByte.null)
                return
            }
            try writeInteger(Int64(payload.count), width: token.width)
            output.store(payload)
        case .sharedString:
            guard token.form != .null else {
                output.store(HeadByte.null)
                return
            }
            try writeSharedString(token, payload)
        case .cString, .object, .classLink:
            switch token.form {
            case .null:
                output.store(HeadByte.null)
            case .reference:
                try writeObjectReference(token.slot, width: token.width)
            default:
                // A class takes its slot after its name and version, a C string before its
                // text; no other slot can be taken in between, so claiming first checks the
                // same thing.
                try claimObjectSlot(token.slot)
                output.store(HeadByte.new)
                if token.code == .cString {
                    try writeSharedString(token, payload)
                } else if token.code == .classLink {
                    try writeSharedString(token, payload)
                    try writeInteger(token.value, width: token.width)
                }
            }
        case .endOfObject:
            output.store(HeadByte.endOfObject)
        case .arrayStart, .arrayEnd, .structStart, .structEnd, .ignored, .untypedGroup:
            break
        }
    }

    /// Writes a sequence of tokens. Throws ``WireError``.
    public mutating func write(_ tokens: some Sequence<Token>) throws(WireError) {
        for token in tokens { try write(token.kind) }
    }

    // MARK: - Pieces

    private func invalid(_ reason: String) -> WireError {
        WireError(.invalidToken, at: output.count, reason)
    }

    /// The most bytes a token takes besides its payload, rounded up for eight-byte stores.
    private static let roomBesidesPayload = 32

    /// Appends the `count` low bytes of `value` in the stream's byte order.
    @inline(__always)
    private mutating func appendFixed(_ value: UInt64, count: Int) {
        output.store(value, length: count, littleEndian: byteOrder == .little)
    }

    /// Writes an integer at its recorded width.
    @inline(__always)
    private mutating func writeInteger(_ value: Int64, width: IntegerWidth) throws(WireError) {
        guard width.canHold(value) else {
            throw invalid("\(value) does not fit the \(width.name) width it is marked with")
        }
        switch width {
        case .inline:
            output.store(UInt8(truncatingIfNeeded: value))
        case .int16:
            output.store(HeadByte.int16)
            appendFixed(UInt64(UInt16(truncatingIfNeeded: value)), count: 2)
        case .int32:
            output.store(HeadByte.int32)
            appendFixed(UInt64(UInt32(truncatingIfNeeded: value)), count: 4)
        case .int64:
            output.store(HeadByte.int64)
            appendFixed(UInt64(bitPattern: value), count: 8)
        }
    }

    @inline(__always)
    private mutating func writeReferenceLabel(_ index: Int, width: IntegerWidth) throws(WireError) {
        guard width != .int64 else { throw invalid("references are never written as int64") }
        try writeInteger(Int64(index) + HeadByte.referenceBias, width: width)
    }

    @inline(__always)
    private mutating func writeObjectReference(_ index: Int, width: IntegerWidth) throws(WireError) {
        guard index >= 0, index < objectSlotCount else {
            throw invalid("reference to object #\(index), but only \(objectSlotCount) have been written")
        }
        try writeReferenceLabel(index, width: width)
    }

    @inline(__always)
    private mutating func claimObjectSlot(_ index: Int) throws(WireError) {
        guard index == objectSlotCount else {
            throw invalid("new object-table entry claims slot #\(index), but the next slot is #\(objectSlotCount)")
        }
        objectSlotCount += 1
    }

    /// Writes the shared string described by the text fields of `token`, whose text is `text`.
    @inline(__always)
    private mutating func writeSharedString(_ token: CompactToken, _ text: UnsafeBufferPointer<UInt8>) throws(WireError) {
        let index = token.textIndex
        if token.textIsReference {
            guard index >= 0, index < sharedStringCount else {
                throw invalid("reference to shared string #\(index), but only \(sharedStringCount) have been written")
            }
            try writeReferenceLabel(index, width: token.textWidth)
        } else {
            guard index == sharedStringCount else {
                throw invalid("literal shared string claims slot #\(index), but the next slot is #\(sharedStringCount)")
            }
            sharedStringCount += 1
            output.store(HeadByte.new)
            try writeInteger(Int64(text.count), width: token.textWidth)
            output.store(text)
        }
    }
}
