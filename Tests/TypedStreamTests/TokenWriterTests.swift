import Testing
@testable import TypedStream

@Suite("TokenWriter refusals")
struct TokenWriterTests {
    /// Tokens written before the refused one, the refused token, and why.
    struct Row: Sendable, CustomTestStringConvertible {
        let before: [TokenKind]
        let refused: TokenKind
        let note: String
        let location: SourceLocation
        init(_ before: [TokenKind], _ refused: TokenKind, _ note: String, _ location: SourceLocation = #_sourceLocation) {
            self.before = before
            self.refused = refused
            self.note = note
            self.location = location
        }
        var testDescription: String { note }
    }

    static let h = headerToken()
    static let objectA: [TokenKind] = [h, .typeString(lit(0, "@")), .object(.new(index: 0)), newClass(1, lit(1, "A")), .classLink(.null)]

    static let rows: [Row] = [
        // Values too big for their width.
        Row([h], int(128, .inline), "128 inline"),
        Row([h], int(-111, .inline), "-111 inline"),
        Row([h], int(32768, .int16), "32768 as int16"),
        Row([h], int(-32769, .int16), "-32769 as int16"),
        Row([h], int(Int64(Int32.max) + 1, .int32), "2^31 as int32"),
        Row([h], int(Int64(Int32.min) - 1, .int32), "-2^31-1 as int32"),
        Row([h], .float(1.5, .integral(.inline)), "1.5 marked integral"),
        Row([h], .float(.nan, .integral(.inline)), "NaN marked integral"),
        Row([h], .float(200, .integral(.inline)), "integral 200 inline"),
        Row([h], .double(0.25, .integral(.int32)), "0.25 marked integral"),
        Row([h], .double(1e300, .integral(.int64)), "1e300 as int64"),
        Row([h], .unsharedString(raw(Array(repeating: 0, count: 200)), length: .inline), "length 200 inline"),
        Row([h], .typeString(lit(0, String(repeating: "i", count: 128))), "type string length 128 inline"),
        Row([h], .header(.apple), "a second header"),
        Row([], .header(StreamHeader(streamerVersion: 5)), "streamer version 5"),
        Row([h], .instanceSize(.archiverChoice(0)), "instance size in streamer 4"),
        Row([h], newClass(0, lit(0, "A"), version: 40000).withWidth(.int16), "class version 40000 as int16"),
        // Literals claiming the wrong slot.
        Row([h], .typeString(lit(1, "i")), "first shared string claims slot 1"),
        Row([h, .typeString(lit(0, "i"))], .typeString(lit(0, "i")), "second literal claims slot 0 again"),
        Row([h, .typeString(lit(0, "%"))], .sharedString(lit(2, "x")), "atom literal skips a slot"),
        Row([h, .typeString(lit(0, "@"))], .object(.new(index: 1)), "first object claims slot 1"),
        Row([h, .typeString(lit(0, "*"))], .cString(.literal(index: 1, text: lit(1, "c"))), "C string claims slot 1"),
        Row([h, .typeString(lit(0, "*"))], .cString(.literal(index: 0, text: lit(2, "c"))), "C string text skips a shared-string slot"),
        Row([h, .typeString(lit(0, "#"))], newClass(1, lit(1, "A")), "class claims slot 1"),
        Row(objectA, newClass(1, lit(2, "B")), "class claims an already used slot"),
        // References to slots not yet written.
        Row([h], .typeString(ref(0, "i")), "type string reference before any literal"),
        Row([h, .typeString(lit(0, "%"))], .sharedString(ref(1, "x")), "atom reference past the table"),
        Row([h, .typeString(lit(0, "%"))], .sharedString(ref(-1, "x")), "negative shared-string reference"),
        Row([h, .typeString(lit(0, "@"))], .object(.reference(index: 0, width: .inline)), "object reference before any object"),
        Row([h, .typeString(lit(0, "*"))], .cString(.reference(index: 0, width: .inline)), "C-string reference before any slot"),
        Row([h, .typeString(lit(0, "#"))], .classLink(.reference(index: 0, width: .inline)), "class reference before any slot"),
        Row(objectA, .object(.reference(index: 2, width: .inline)), "object reference one past the table"),
        // References too big for their width, or written as int64.
        Row(objectA + [.typeString(lit(2, "@"))], .object(.reference(index: 1, width: .int64)), "reference as int64"),
        Row([h, .typeString(lit(0, "%"))], .sharedString(ref(0, "%", .int64)), "shared-string reference as int64"),
    ]

    @Test("Each refusal throws invalidToken at the token's start and leaves the writer unchanged", arguments: rows)
    func refusal(_ row: Row) throws {
        var writer = TokenWriter()
        for kind in row.before { try writer.write(kind) }
        let before = writer.bytes
        do {
            try writer.write(row.refused)
            Issue.record("the writer accepted \(row.refused)", sourceLocation: row.location)
        } catch {
            #expect(error.code == .invalidToken, "\(error)", sourceLocation: row.location)
            #expect(error.offset == before.count, "\(error)", sourceLocation: row.location)
        }
        #expect(writer.bytes == before, sourceLocation: row.location)
    }

    @Test("A refusal does not consume a slot: the right token is accepted afterwards")
    func noSideEffects() throws {
        var writer = TokenWriter()
        try writer.write(headerToken())
        try writer.write(.typeString(lit(0, "@")))
        try writer.write(.object(.new(index: 0)))
        // The class name literal would be fine, but its version does not fit: nothing is kept.
        #expect(throws: WireError(.invalidToken, at: 0, "")) {
            try writer.write(.classLink(.new(index: 1, name: lit(1, "A"), version: WireInteger(1000, width: .inline))))
        }
        try writer.write(newClass(1, lit(1, "A")))
        try writer.write(.classLink(.null))
        try writer.write(.endOfObject)
        #expect(writer.bytes == headerBytes() + literalBytes("@") + [0x84, 0x84] + literalBytes("A") + [0x00, 0x85, 0x86])
    }

    @Test("The writer encodes values, not input ranges: a header sets the byte order")
    func byteOrders() throws {
        for order in [ByteOrder.little, .big] {
            var writer = TokenWriter()
            try writer.write(.header(StreamHeader(streamerVersion: 4, byteOrder: order, systemVersion: .archiverChoice(1000))))
            try writer.write(.typeString(lit(0, "ifdq")))
            try writer.write(int(1000))
            try writer.write(.float(1.5, .ieee))
            try writer.write(.double(-0.5, .ieee))
            try writer.write(int(-9_000_000_000))
            #expect(writer.byteOrder == order)
            let expected = headerBytes(order) + literalBytes("ifdq") + intBytes(1000, order)
                + [0x83] + fixed(UInt64(Float(1.5).bitPattern), 4, order)
                + [0x83] + fixed(Double(-0.5).bitPattern, 8, order)
                + intBytes(-9_000_000_000, order)
            #expect(writer.bytes == expected, "\(order)")
        }
    }

    @Test("A copy of a writer writes on its own: neither sees the other's bytes")
    func copiesAreIndependent() throws {
        var first = TokenWriter(capacity: 0)
        try first.write(headerToken())
        try first.write(.typeString(lit(0, "i")))
        var second = first
        try second.write(int(7))
        try first.write(int(-3))
        let common = headerBytes() + literalBytes("i")
        #expect(first.bytes == common + [0xFD])
        #expect(second.bytes == common + [0x07])
        #expect(first.count == common.count + 1)
        // Growth far past the reserved room keeps every byte, in order.
        let text = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        try second.write(.typeString(lit(1, "+")))
        try second.write(.unsharedString(raw(text), length: .int32))
        #expect(second.bytes == common + [0x07] + literalBytes("+") + [0x82] + fixed(UInt64(text.count), 4, .little) + text)
    }

    @Test("Texts of every length around the writer's short-copy and growth steps keep every byte, in both byte orders")
    func textLengths() throws {
        let lengths = [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 200, 255, 256, 257, 1000, 40_000]
        for order in [ByteOrder.little, .big] {
            var writer = TokenWriter()
            try writer.write(.header(StreamHeader(streamerVersion: 4, byteOrder: order, systemVersion: .archiverChoice(1000))))
            try writer.write(.typeString(lit(0, "+")))
            var expected = headerBytes(order) + literalBytes("+")
            for (index, length) in lengths.enumerated() {
                let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
                let width = IntegerWidth.archiverChoice(for: Int64(length))
                try writer.write(.unsharedString(raw(text), length: width))
                expected += intBytes(Int64(length), order) + text
                #expect(writer.count == expected.count, "\(order) after \(length)")
            }
            #expect(writer.bytes == expected, "\(order)")
        }
    }

    @Test("A buffer copied before each change copies its memory without growing it")
    func copiedBufferKeepsItsSize() {
        var output = OutputBytes()
        var copies: [OutputBytes] = []
        for round in 0..<200 {
            copies.append(output)
            output.reserve(1)
            output.store(UInt8(truncatingIfNeeded: round))
        }
        #expect(output.count == 200)
        #expect(output.capacity <= 512, "capacity \(output.capacity) after 200 copies")
        #expect(output.array == (0..<200).map { UInt8(truncatingIfNeeded: $0) })
        #expect(copies[100].array == (0..<100).map { UInt8(truncatingIfNeeded: $0) })
    }

    @Test("A plain-data token whose payload lies outside its source is refused, not trapped")
    func payloadOutsideSource() throws {
        var writer = TokenWriter()
        try writer.write(headerToken())
        try writer.write(.typeString(lit(0, "+")))
        var token = CompactToken(.unsharedString, start: 0, end: 0, depth: 0)
        token.form = .new
        token.payloadStart = 2
        token.payloadEnd = 9
        let before = writer.bytes
        #expect(throws: WireError(.invalidToken, at: before.count, "")) {
            try writer.write(token, from: [1, 2, 3])
        }
        #expect(writer.bytes == before)
        token.payloadEnd = 3
        try writer.write(token, from: [1, 2, 3])
        #expect(writer.bytes == before + [0x01, 0x03])
    }

    @Test("Integral -0.0 is written as the integer 0")
    func negativeZero() throws {
        var writer = TokenWriter()
        try writer.write(headerToken())
        try writer.write(.typeString(lit(0, "f")))
        try writer.write(.float(-0.0, .integral(.inline)))
        #expect(writer.bytes.last == 0x00)
    }
}

private extension TokenKind {
    /// The same class link with its version marked with `width`.
    func withWidth(_ width: IntegerWidth) -> TokenKind {
        guard case .classLink(.new(let index, let name, let version)) = self else { return self }
        return .classLink(.new(index: index, name: name, version: WireInteger(version.value, width: width)))
    }
}
