import TypedStream

/// What `carve` looks for: the first bytes of an archive, raw or as base64 text.
///
/// | signature | bytes |
/// |---|---|
/// | ``typedStream`` | streamer version `03` or `04`, `0B`, `"typedstream"` or `"streamtyped"` |
/// | ``binaryPlist`` | `"bplist00"` (kept only when the top dictionary has `$archiver`) |
/// | ``base64TypedStream`` | `BAtz…`, `BAt0…`, `Awtz…`, `Awt0…`: base64 of the 13 bytes above |
/// | ``base64BinaryPlist`` | `YnBsaXN0MD`: base64 of `"bplist00"` |
///
/// Base64 text counts only where a run of base64 starts: the character before it is not a
/// base64 letter (so the text is the start of an encoded blob, not the middle of one).
/// The old NeXT binary property list has no signature (its first word is a type code), so it
/// is not looked for.
enum CarveSignature: Hashable, Sendable {
    /// A typedstream header.
    case typedStream
    /// A binary property list header.
    case binaryPlist
    /// Base64 text of a typedstream header.
    case base64TypedStream
    /// Base64 text of a binary property list header.
    case base64BinaryPlist

    /// The longest signature, in bytes: how far past a start the scanner looks.
    static let longest = 16

    /// One place where a signature starts.
    struct Hit: Hashable, Sendable {
        /// The offset of its first byte in the buffer scanned.
        var offset: Int
        /// Which signature.
        var signature: CarveSignature
    }

    /// The signatures that start at offsets in `range` of `buffer`, in offset order. Bytes of
    /// `buffer` before and after `range` are looked at (the character before base64 text, the
    /// rest of a signature) but no hit starts there. `buffer` is read once, a byte at a time,
    /// and each byte that may begin or mark a signature is checked in a few comparisons.
    static func hits(in buffer: UnsafeRawBufferPointer, startingIn range: Range<Int>) -> [Hit] {
        var hits: [Hit] = []
        let count = buffer.count
        // Anchor bytes: 0x0B (the typedstream header's second byte), "b" (bplist00), "t" (the
        // third letter of the base64 typedstream forms), "Y" (base64 of bplist).
        let lower = max(range.lowerBound, 0)
        let upper = min(range.upperBound + 2, count)
        var index = lower
        while index < upper {
            let byte = buffer[index]
            let kind = anchors[Int(byte)]
            if kind != 0 {
                switch kind {
                case 1:
                    let start = index - 1
                    if start >= range.lowerBound, start < range.upperBound, isTypedStreamHeader(buffer, at: start) {
                        hits.append(Hit(offset: start, signature: .typedStream))
                    }
                case 2:
                    if index < range.upperBound, matches(buffer, at: index, bplist) {
                        hits.append(Hit(offset: index, signature: .binaryPlist))
                    }
                case 3:
                    let start = index - 2
                    if start >= range.lowerBound, start < range.upperBound, isBase64TypedStream(buffer, at: start),
                       startsBase64Run(buffer, at: start) {
                        hits.append(Hit(offset: start, signature: .base64TypedStream))
                    }
                default:
                    if index < range.upperBound, matches(buffer, at: index, base64Bplist), startsBase64Run(buffer, at: index) {
                        hits.append(Hit(offset: index, signature: .base64BinaryPlist))
                    }
                }
            }
            index += 1
        }
        // A typedstream hit is found one byte late and a base64 one two bytes late: put them
        // back in offset order.
        if hits.count > 1 { hits.sort { $0.offset < $1.offset } }
        return hits
    }

    /// Whether the 13 bytes at `start` are a typedstream header's version, length and signature.
    static func isTypedStreamHeader(_ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard start >= 0, buffer.count - start >= 13 else { return false }
        let version = buffer[start]
        guard version == 3 || version == 4, buffer[start + 1] == 0x0B else { return false }
        return matches(buffer, at: start + 2, typedstream) || matches(buffer, at: start + 2, streamtyped)
    }

    /// Whether `bytes` start with a typedstream header's version, length and signature.
    static func isTypedStreamHeader(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isTypedStreamHeader($0, at: 0) }
    }

    private static func isBase64TypedStream(_ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard start >= 0, buffer.count - start >= 16 else { return false }
        let first = buffer[start], second = buffer[start + 1], fourth = buffer[start + 3]
        // "BA" (04) or "Aw" (03), "t", then "z" + "dHJlYW10eXBl" (streamtyped) or "0" + "eXBlZHN0cmVh" (typedstream).
        guard (first == UInt8(ascii: "B") && second == UInt8(ascii: "A")) || (first == UInt8(ascii: "A") && second == UInt8(ascii: "w")) else {
            return false
        }
        if fourth == UInt8(ascii: "z") { return matches(buffer, at: start + 4, base64Streamtyped) }
        if fourth == UInt8(ascii: "0") { return matches(buffer, at: start + 4, base64Typedstream) }
        return false
    }

    /// Whether a base64 run starts at `start`: the byte before it is not a base64 letter.
    private static func startsBase64Run(_ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
        start == 0 || !Base64Run.isLetter(buffer[start - 1])
    }

    private static func matches(_ buffer: UnsafeRawBufferPointer, at start: Int, _ pattern: [UInt8]) -> Bool {
        guard buffer.count - start >= pattern.count else { return false }
        for (position, byte) in pattern.enumerated() where buffer[start + position] != byte { return false }
        return true
    }

    private static let typedstream = Array("typedstream".utf8)
    private static let streamtyped = Array("streamtyped".utf8)
    private static let bplist = ForeignFormat.binaryPropertyList00
    private static let base64Streamtyped = Array("dHJlYW10eXBl".utf8)
    private static let base64Typedstream = Array("eXBlZHN0cmVh".utf8)
    private static let base64Bplist = Array("YnBsaXN0MD".utf8)

    /// Per byte value: 0, or which signature it may mark (1 typedstream, 2 bplist, 3 base64
    /// typedstream, 4 base64 bplist).
    private static let anchors: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        table[0x0B] = 1
        table[Int(UInt8(ascii: "b"))] = 2
        table[Int(UInt8(ascii: "t"))] = 3
        table[Int(UInt8(ascii: "Y"))] = 4
        return table
    }()
}
