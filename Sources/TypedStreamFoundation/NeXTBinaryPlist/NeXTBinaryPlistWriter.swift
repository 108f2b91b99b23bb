/// Writes values in the old NeXT binary property list format (see ``NeXTBinaryPlist``).
struct NeXTBinaryPlistWriter {
    /// The output so far.
    private(set) var bytes: [UInt8]

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Appends a 4-byte little-endian integer.
    private mutating func writeWord(_ word: UInt32) {
        bytes += [UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
                  UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24)]
    }

    /// Overwrites the 4-byte integer at `index`.
    private mutating func setWord(_ word: UInt32, at index: Int) {
        for shift in 0 ..< 4 { bytes[index + shift] = UInt8(truncatingIfNeeded: word >> (8 * shift)) }
    }

    /// Appends one value.
    mutating func write(_ value: NeXTPlistValue) {
        writeWord(value.typeCode.rawValue)
        switch value {
        case .null:
            break
        case .data(let payload, let padding):
            writeBytes(payload, padding: padding)
        case .string(let string, let padding):
            writeBytes(string.bytes, padding: padding)
        case .array(let elements):
            writeWord(UInt32(truncatingIfNeeded: elements.count))
            writeValues(elements)
        case .dictionary(let entries):
            writeWord(UInt32(truncatingIfNeeded: entries.count))
            for entry in entries { write(entry.key) }
            writeValues(entries.map(\.value))
        }
    }

    /// Appends a length, the bytes and their padding: `padding` when it has the right count,
    /// zeros otherwise.
    private mutating func writeBytes(_ payload: [UInt8], padding: [UInt8]?) {
        writeWord(UInt32(truncatingIfNeeded: payload.count))
        bytes += payload
        let paddingCount = (4 - payload.count % 4) % 4
        if let padding, padding.count == paddingCount {
            bytes += padding
        } else {
            bytes += repeatElement(0, count: paddingCount)
        }
    }

    /// Appends the value-length table and the values, filling the table in as each value is written.
    private mutating func writeValues(_ values: [NeXTPlistValue]) {
        let table = bytes.count
        bytes += repeatElement(0, count: 4 * values.count)
        for (index, value) in values.enumerated() {
            let start = bytes.count
            write(value)
            setWord(UInt32(truncatingIfNeeded: bytes.count - start), at: table + 4 * index)
        }
    }
}
