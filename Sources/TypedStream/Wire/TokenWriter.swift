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
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// The byte order of payloads, set by the header token.
    public private(set) var byteOrder: ByteOrder = .little
    private var sharedStringCount = 0
    private var objectSlotCount = 0
    private var streamerVersion: UInt8 = 4

    /// Creates an empty writer; `capacity` reserves room for the output.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes one token. Throws ``WireError`` (code `invalidToken`) when the token cannot be
    /// written as recorded: a value that does not fit its width, a non-integral value marked
    /// integral, a literal whose slot number disagrees with the stream so far. A refused token
    /// leaves the writer as it was; the error's offset is where the token would have started.
    public mutating func write(_ kind: TokenKind) throws(WireError) {
        let saved = (count: bytes.count, strings: sharedStringCount, slots: objectSlotCount, order: byteOrder, version: streamerVersion)
        do {
            try encode(kind)
        } catch {
            bytes.removeSubrange(saved.count...)
            sharedStringCount = saved.strings
            objectSlotCount = saved.slots
            byteOrder = saved.order
            streamerVersion = saved.version
            throw WireError(error.code, at: saved.count, error.reason)
        }
    }

    private mutating func encode(_ kind: TokenKind) throws(WireError) {
        switch kind {
        case .header(let header):
            guard bytes.isEmpty else { throw invalid("a header must come first") }
            guard header.streamerVersion == 3 || header.streamerVersion == 4 else {
                throw invalid("streamer version \(header.streamerVersion) cannot be written")
            }
            byteOrder = header.byteOrder
            streamerVersion = header.streamerVersion
            bytes.append(header.streamerVersion)
            bytes.append(UInt8(StreamHeader.signatureLength))
            bytes.append(contentsOf: header.byteOrder.signature)
            try writeInteger(header.systemVersion)
        case .typeString(let text):
            try writeSharedString(text)
        case .integer(let value):
            try writeInteger(value)
        case .float(let value, let form):
            switch form {
            case .ieee:
                bytes.append(HeadByte.real)
                appendFixed(UInt64(value.bitPattern), count: 4)
            case .integral(let width):
                guard let integer = Int64(exactly: value) else {
                    throw invalid("float \(value) is marked integral but is not an integer")
                }
                try writeInteger(WireInteger(integer, width: width))
            }
        case .double(let value, let form):
            switch form {
            case .ieee:
                bytes.append(HeadByte.real)
                appendFixed(value.bitPattern, count: 8)
            case .integral(let width):
                guard let integer = Int64(exactly: value) else {
                    throw invalid("double \(value) is marked integral but is not an integer")
                }
                try writeInteger(WireInteger(integer, width: width))
            }
        case .byte(let byte):
            bytes.append(byte)
        case .rawBytes(let payload):
            bytes.append(contentsOf: payload)
        case .unsharedString(let payload, let width):
            guard let payload else {
                bytes.append(HeadByte.null)
                return
            }
            try writeInteger(WireInteger(Int64(payload.count), width: width))
            bytes.append(contentsOf: payload)
        case .sharedString(let text):
            guard let text else {
                bytes.append(HeadByte.null)
                return
            }
            try writeSharedString(text)
        case .cString(let form):
            switch form {
            case .null:
                bytes.append(HeadByte.null)
            case .reference(let index, let width):
                try writeObjectReference(index, width: width)
            case .literal(let index, let text):
                try claimObjectSlot(index)
                bytes.append(HeadByte.new)
                try writeSharedString(text)
            }
        case .object(let form):
            switch form {
            case .null:
                bytes.append(HeadByte.null)
            case .reference(let index, let width):
                try writeObjectReference(index, width: width)
            case .new(let index):
                try claimObjectSlot(index)
                bytes.append(HeadByte.new)
            }
        case .classLink(let form):
            switch form {
            case .null:
                bytes.append(HeadByte.null)
            case .reference(let index, let width):
                try writeObjectReference(index, width: width)
            case .new(let index, let name, let version):
                // The class takes its slot after its name and version; no other slot can be
                // taken in between, so claiming first checks the same thing.
                try claimObjectSlot(index)
                bytes.append(HeadByte.new)
                try writeSharedString(name)
                try writeInteger(version)
            }
        case .instanceSize(let value):
            guard streamerVersion == 3 else { throw invalid("an instance size exists only in streamer version 3") }
            try writeInteger(value)
        case .endOfObject:
            bytes.append(HeadByte.endOfObject)
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
        WireError(.invalidToken, at: bytes.count, reason)
    }

    private mutating func appendFixed(_ value: UInt64, count: Int) {
        if byteOrder == .little {
            for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        } else {
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        }
    }

    /// Writes an integer at its recorded width.
    private mutating func writeInteger(_ integer: WireInteger) throws(WireError) {
        guard integer.width.canHold(integer.value) else {
            throw invalid("\(integer.value) does not fit the \(integer.width.name) width it is marked with")
        }
        switch integer.width {
        case .inline:
            bytes.append(UInt8(bitPattern: Int8(integer.value)))
        case .int16:
            bytes.append(HeadByte.int16)
            appendFixed(UInt64(UInt16(bitPattern: Int16(integer.value))), count: 2)
        case .int32:
            bytes.append(HeadByte.int32)
            appendFixed(UInt64(UInt32(bitPattern: Int32(integer.value))), count: 4)
        case .int64:
            bytes.append(HeadByte.int64)
            appendFixed(UInt64(bitPattern: integer.value), count: 8)
        }
    }

    private mutating func writeReferenceLabel(_ index: Int, width: IntegerWidth) throws(WireError) {
        guard width != .int64 else { throw invalid("references are never written as int64") }
        try writeInteger(WireInteger(Int64(index) + HeadByte.referenceBias, width: width))
    }

    private mutating func writeObjectReference(_ index: Int, width: IntegerWidth) throws(WireError) {
        guard index >= 0, index < objectSlotCount else {
            throw invalid("reference to object #\(index), but only \(objectSlotCount) have been written")
        }
        try writeReferenceLabel(index, width: width)
    }

    private mutating func claimObjectSlot(_ index: Int) throws(WireError) {
        guard index == objectSlotCount else {
            throw invalid("new object-table entry claims slot #\(index), but the next slot is #\(objectSlotCount)")
        }
        objectSlotCount += 1
    }

    private mutating func writeSharedString(_ text: SharedString) throws(WireError) {
        switch text.form {
        case .literal(let index, let width):
            guard index == sharedStringCount else {
                throw invalid("literal shared string claims slot #\(index), but the next slot is #\(sharedStringCount)")
            }
            sharedStringCount += 1
            bytes.append(HeadByte.new)
            try writeInteger(WireInteger(Int64(text.bytes.count), width: width))
            bytes.append(contentsOf: text.bytes)
        case .reference(let index, let width):
            guard index >= 0, index < sharedStringCount else {
                throw invalid("reference to shared string #\(index), but only \(sharedStringCount) have been written")
            }
            try writeReferenceLabel(index, width: width)
        }
    }
}
