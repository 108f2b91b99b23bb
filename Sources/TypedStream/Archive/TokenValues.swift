/// The graph's values of plain-data tokens, made the same way by every reader of tokens that
/// builds them (the graph reader, the `Unarchiver`'s streaming decode).
extension CompactToken {
    /// How the token's shared string (its text fields) was written.
    var textDecision: SharedStringDecision {
        textIsReference ? .reference(index: textIndex, width: textWidth) : .literal(length: textWidth)
    }
}

extension ArchivedValue {
    /// The value of `token` when it holds one by itself — an integer, a real, a byte, raw bytes,
    /// counted bytes, a shared string or `!` — its payload a slice of `bytes` (the input it was
    /// read from); `nil` for any other token (objects, classes and C strings refer to table
    /// entries; the rest open or close things).
    @inline(__always)
    init?(plainToken token: CompactToken, in bytes: [UInt8]) {
        switch token.code {
        case .integer:
            self = .integer(token.value, width: token.width)
        case .float:
            let value = token.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: token.value)) : Float(token.value)
            self = .float(value, form: token.form == .ieee ? .ieee : .integral(token.width))
        case .double:
            let value = token.form == .ieee ? Double(bitPattern: UInt64(bitPattern: token.value)) : Double(token.value)
            self = .double(value, form: token.form == .ieee ? .ieee : .integral(token.width))
        case .byte:
            self = .byte(UInt8(truncatingIfNeeded: token.value))
        case .rawBytes:
            self = .bytes(bytes[token.payload])
        case .unsharedString:
            self = token.form == .null ? .unsharedString(nil, lengthWidth: nil) : .unsharedString(bytes[token.payload], lengthWidth: token.width)
        case .sharedString:
            self = token.form == .null ? .sharedString(nil, decision: nil) : .sharedString(bytes[token.payload], decision: token.textDecision)
        case .ignored:
            self = .ignored
        case .header, .typeString, .cString, .object, .classLink, .instanceSize, .endOfObject,
             .arrayStart, .arrayEnd, .structStart, .structEnd, .untypedGroup:
            return nil
        }
    }
}
