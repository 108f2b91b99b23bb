import Testing
import TypedStream

/// One group: its type string, the value bytes in each byte order, and the value tokens.
struct ValueRow: Sendable, CustomTestStringConvertible {
    let type: String
    let little: [UInt8]
    let big: [UInt8]
    let tokens: [TokenKind]
    let note: String
    let location: SourceLocation

    /// A row whose bytes differ by byte order.
    init(_ type: String, le little: [UInt8], be big: [UInt8], _ tokens: [TokenKind], _ note: String = "",
         _ location: SourceLocation = #_sourceLocation) {
        self.type = type
        self.little = little
        self.big = big
        self.tokens = tokens
        self.note = note
        self.location = location
    }

    /// A row whose bytes are the same in both byte orders.
    init(_ type: String, _ bytes: [UInt8], _ tokens: [TokenKind], _ note: String = "",
         _ location: SourceLocation = #_sourceLocation) {
        self.init(type, le: bytes, be: bytes, tokens, note, location)
    }

    var testDescription: String { "\"\(type)\" \(note.isEmpty ? little.map { String($0, radix: 16) }.joined(separator: " ") : note)" }
}

@Suite("Wire values, one group each, both byte orders")
struct ValueTests {
    static let integers: [ValueRow] = [
        ValueRow("i", [0x00], [int(0, .inline)]),
        ValueRow("i", [0x7F], [int(127, .inline)], "largest inline"),
        ValueRow("i", [0x92], [int(-110, .inline)], "smallest inline"),
        ValueRow("i", [0xFF], [int(-1, .inline)]),
        ValueRow("i", le: [0x81, 0x80, 0x00], be: [0x81, 0x00, 0x80], [int(128, .int16)], "128 needs int16"),
        ValueRow("i", le: [0x81, 0x91, 0xFF], be: [0x81, 0xFF, 0x91], [int(-111, .int16)], "-111 needs int16"),
        ValueRow("i", le: [0x81, 0xFF, 0x7F], be: [0x81, 0x7F, 0xFF], [int(32767, .int16)]),
        ValueRow("i", le: [0x81, 0x01, 0x80], be: [0x81, 0x80, 0x01], [int(-32767, .int16)]),
        ValueRow("i", le: [0x81, 0x00, 0x80], be: [0x81, 0x80, 0x00], [int(-32768, .int16)], "-32768 as int16 (GS)"),
        ValueRow("i", le: [0x82, 0x00, 0x80, 0xFF, 0xFF], be: [0x82, 0xFF, 0xFF, 0x80, 0x00], [int(-32768, .int32)], "-32768 as int32 (NeXT)"),
        ValueRow("i", le: [0x82, 0x00, 0x80, 0x00, 0x00], be: [0x82, 0x00, 0x00, 0x80, 0x00], [int(32768, .int32)]),
        ValueRow("i", le: [0x82, 0xFF, 0xFF, 0xFF, 0x7F], be: [0x82, 0x7F, 0xFF, 0xFF, 0xFF], [int(Int64(Int32.max), .int32)]),
        ValueRow("i", le: [0x82, 0x00, 0x00, 0x00, 0x80], be: [0x82, 0x80, 0x00, 0x00, 0x00], [int(Int64(Int32.min), .int32)]),
        ValueRow("i", le: [0x81, 0x05, 0x00], be: [0x81, 0x00, 0x05], [int(5, .int16)], "non-minimal width kept"),
        ValueRow("I", [0xFF], [int(-1, .inline)], "I 4294967295 as the inline -1"),
        ValueRow("I", [0x82, 0xFF, 0xFF, 0xFF, 0xFF], [int(-1, .int32)]),
        ValueRow("l", le: [0x81, 0xE8, 0x03], be: [0x81, 0x03, 0xE8], [int(1000, .int16)]),
        ValueRow("L", [0x05], [int(5, .inline)]),
        ValueRow("q", le: [0x87, 0x00, 0xE6, 0x8E, 0xE7, 0xFD, 0xFF, 0xFF, 0xFF],
                 be: [0x87, 0xFF, 0xFF, 0xFF, 0xFD, 0xE7, 0x8E, 0xE6, 0x00], [int(-9_000_000_000, .int64)], "int64 -9e9"),
        ValueRow("q", [0x05], [int(5, .inline)]),
        ValueRow("Q", [0xFD], [int(-3, .inline)], "Q 18446744073709551613 as inline 0xFD"),
        ValueRow("Q", [0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [int(-1, .int64)], "Q max as int64"),
        ValueRow("Q", le: [0x87, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80],
                 be: [0x87, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], [int(Int64.min, .int64)]),
        ValueRow("i", le: [0x87, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00],
                 be: [0x87, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01], [int(0x1_0000_0001, .int64)], "int64 accepted for i"),
        // Shorts: inline or int16 only; unsigned values by their signed pattern.
        ValueRow("s", [0xFF], [int(-1, .inline)]),
        ValueRow("s", le: [0x81, 0x2C, 0x01], be: [0x81, 0x01, 0x2C], [int(300, .int16)]),
        ValueRow("S", [0xFF], [int(-1, .inline)], "S 65535 as inline 0xFF"),
        ValueRow("S", le: [0x81, 0xFF, 0xBF], be: [0x81, 0xBF, 0xFF], [int(-16385, .int16)], "S 49151 as 0x81 0xBF 0xFF big-endian"),
        ValueRow("S", le: [0x81, 0x00, 0x80], be: [0x81, 0x80, 0x00], [int(-32768, .int16)], "S 32768"),
    ]

    static let reals: [ValueRow] = [
        ValueRow("f", le: [0x83, 0x00, 0x00, 0xC0, 0x3F], be: [0x83, 0x3F, 0xC0, 0x00, 0x00], [.float(1.5, .ieee)]),
        ValueRow("f", le: [0x83, 0x00, 0x00, 0x80, 0x7F], be: [0x83, 0x7F, 0x80, 0x00, 0x00], [.float(.infinity, .ieee)]),
        ValueRow("f", le: [0x83, 0x00, 0x00, 0x00, 0x80], be: [0x83, 0x80, 0x00, 0x00, 0x00], [.float(-0.0, .ieee)], "-0.0 as IEEE"),
        ValueRow("f", [0x01], [.float(1, .integral(.inline))], "1.0 written as an integer"),
        ValueRow("f", [0xFE], [.float(-2, .integral(.inline))]),
        ValueRow("f", le: [0x81, 0xE8, 0x03], be: [0x81, 0x03, 0xE8], [.float(1000, .integral(.int16))]),
        ValueRow("f", le: [0x82, 0x00, 0x00, 0x01, 0x00], be: [0x82, 0x00, 0x01, 0x00, 0x00], [.float(65536, .integral(.int32))]),
        ValueRow("d", le: [0x83, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F],
                 be: [0x83, 0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A], [.double(0.1, .ieee)]),
        ValueRow("d", le: [0x82, 0x80, 0x01, 0x4B, 0x01], be: [0x82, 0x01, 0x4B, 0x01, 0x80], [.double(21_692_800, .integral(.int32))], "NSDate 21692800"),
        ValueRow("d", le: [0x82, 0x70, 0x8A, 0xE3, 0xC7], be: [0x82, 0xC7, 0xE3, 0x8A, 0x70], [.double(-941_389_200, .integral(.int32))]),
        ValueRow("d", [0x00], [.double(0, .integral(.inline))]),
        ValueRow("d", le: [0x87, 0x00, 0x80, 0xC6, 0xA4, 0x7E, 0x8D, 0x03, 0x00],
                 be: [0x87, 0x00, 0x03, 0x8D, 0x7E, 0xA4, 0xC6, 0x80, 0x00], [.double(1e15, .integral(.int64))]),
    ]

    static let bytesAndStrings: [ValueRow] = [
        ValueRow("c", [0x41], [.byte(0x41)]),
        ValueRow("c", [0x80], [.byte(0x80)], "0x80 is a raw byte, not a tag"),
        ValueRow("c", [0x85], [.byte(0x85)], "0x85 is a raw byte, not nil"),
        ValueRow("C", [0xFF], [.byte(0xFF)]),
        ValueRow("C", [0x84], [.byte(0x84)]),
        ValueRow("B", [0x01], [.byte(0x01)]),
        ValueRow("icc@", [0x05, 0x92, 0x86, 0x85], [int(5), .byte(0x92), .byte(0x86), .object(.null)]),
        ValueRow("+", [0x05] + Array("hello".utf8), [.unsharedString(raw(Array("hello".utf8)), length: .inline)]),
        ValueRow("+", [0x00], [.unsharedString(raw([]), length: .inline)], "empty"),
        ValueRow("+", [0x85], [.unsharedString(nil, length: .inline)], "nil"),
        ValueRow("+", le: [0x81, 0xC8, 0x00] + Array(repeating: 0x61, count: 200), be: [0x81, 0x00, 0xC8] + Array(repeating: 0x61, count: 200),
                 [.unsharedString(raw(Array(repeating: 0x61, count: 200)), length: .int16)], "200 bytes"),
        ValueRow("+", [0x02, 0xC3, 0x28], [.unsharedString(raw([0xC3, 0x28]), length: .inline)], "invalid UTF-8 kept"),
        ValueRow("%", [0x84, 0x03] + Array("foo".utf8), [.sharedString(lit(1, "foo"))]),
        ValueRow("%", [0x85], [.sharedString(nil)]),
        ValueRow("%%", [0x84, 0x03] + Array("foo".utf8) + [0x93], [.sharedString(lit(1, "foo")), .sharedString(ref(1, "foo"))]),
        ValueRow("%", [0x92], [.sharedString(ref(0, "%"))], "reference to the type string itself"),
        ValueRow(":", [0x85], [.sharedString(nil)], "nil selector"),
        ValueRow(":", [0x84, 0x04] + Array("init".utf8), [.sharedString(lit(1, "init"))]),
        ValueRow("*", [0x85], [.cString(.null)]),
        ValueRow("*", [0x84, 0x84, 0x01, 0x63], [.cString(.literal(index: 0, text: lit(1, "c")))]),
        ValueRow("**", [0x84, 0x84, 0x01, 0x63, 0x92], [.cString(.literal(index: 0, text: lit(1, "c"))), .cString(.reference(index: 0, width: .inline))],
                 "reference to a C-string slot"),
        ValueRow("**", [0x84, 0x84, 0x01, 0x63, 0x84, 0x93],
                 [.cString(.literal(index: 0, text: lit(1, "c"))), .cString(.literal(index: 1, text: ref(1, "c")))],
                 "new C string whose text is a shared-string reference"),
        ValueRow("*", [0x84, 0x92], [.cString(.literal(index: 0, text: ref(0, "*")))], "text refers to the type string"),
        ValueRow("!", [], [.ignored]),
        ValueRow("i!i", [0x01, 0x02], [int(1), .ignored, int(2)]),
        ValueRow(":!%", [0x85, 0x85], [.sharedString(nil), .ignored, .sharedString(nil)]),
    ]

    static let aggregates: [ValueRow] = [
        ValueRow("[4c]", [0xDE, 0xAD, 0x80, 0x85], [.rawBytes(raw([0xDE, 0xAD, 0x80, 0x85]))]),
        ValueRow("[0c]", [], [.rawBytes(raw([]))]),
        ValueRow("[3C]", [0x01, 0x02, 0x03], [.rawBytes(raw([1, 2, 3]))]),
        ValueRow("[2rc]", [0x01, 0x02], [.rawBytes(raw([1, 2]))], "qualified element is still raw"),
        ValueRow("[2i]", le: [0x05, 0x81, 0x00, 0x01], be: [0x05, 0x81, 0x01, 0x00], [.arrayStart(count: 2), int(5), int(256), .arrayEnd]),
        ValueRow("[0i]", [], [.arrayStart(count: 0), .arrayEnd]),
        ValueRow("[2B]", [0x01, 0x00], [.arrayStart(count: 2), .byte(1), .byte(0), .arrayEnd]),
        ValueRow("[2{?=ii}]", [0x01, 0x02, 0x03, 0x04],
                 [.arrayStart(count: 2), .structStart, int(1), int(2), .structEnd, .structStart, int(3), int(4), .structEnd, .arrayEnd]),
        ValueRow("[2ic]", [0x01, 0x41, 0x02, 0x42],
                 [.arrayStart(count: 2), .structStart, int(1), .byte(0x41), .structEnd, .structStart, int(2), .byte(0x42), .structEnd, .arrayEnd],
                 "NeXT multi-letter element = anonymous struct"),
        ValueRow("[2[2c]]", [1, 2, 3, 4], [.arrayStart(count: 2), .rawBytes(raw([1, 2])), .rawBytes(raw([3, 4])), .arrayEnd]),
        ValueRow("[2@]", [0x85, 0x85], [.arrayStart(count: 2), .object(.null), .object(.null), .arrayEnd]),
        ValueRow("{?=ffff}", le: [0x00, 0x01, 0x83, 0x00, 0x00, 0x00, 0x3F, 0x81, 0x00, 0x01],
                 be: [0x00, 0x01, 0x83, 0x3F, 0x00, 0x00, 0x00, 0x81, 0x01, 0x00],
                 [.structStart, .float(0, .integral(.inline)), .float(1, .integral(.inline)), .float(0.5, .ieee), .float(256, .integral(.int16)), .structEnd]),
        ValueRow("{CGRect={CGPoint=dd}{CGSize=dd}}", [0x01, 0x02, 0x03, 0x04],
                 [.structStart, .structStart, .double(1, .integral(.inline)), .double(2, .integral(.inline)), .structEnd,
                  .structStart, .double(3, .integral(.inline)), .double(4, .integral(.inline)), .structEnd, .structEnd]),
        ValueRow("{CGPoint=\"x\"d\"y\"d}", [0x01, 0x02], [.structStart, .double(1, .integral(.inline)), .double(2, .integral(.inline)), .structEnd]),
        ValueRow("{ff}", [0x01, 0x02], [.structStart, .float(1, .integral(.inline)), .float(2, .integral(.inline)), .structEnd]),
        ValueRow("{CGContext=}", [], [.structStart, .structEnd]),
        ValueRow("{?=i[2c]@}", [0x07, 0x61, 0x62, 0x85], [.structStart, int(7), .rawBytes(raw([0x61, 0x62])), .object(.null), .structEnd]),
        ValueRow("<?=ii>", [0x01, 0x02], [.structStart, int(1), int(2), .structEnd], "design-card alias"),
        ValueRow("{?=!i}", [0x09], [.structStart, .ignored, int(9), .structEnd]),
        ValueRow("(u=ic)", [0x01, 0x02, 0x03, 0x04], [.rawBytes(raw([1, 2, 3, 4]))], "union: sizeof bytes"),
        ValueRow("(u=cd)", [1, 2, 3, 4, 5, 6, 7, 8], [.rawBytes(raw([1, 2, 3, 4, 5, 6, 7, 8]))]),
        ValueRow("(u=c[3c])", [1, 2, 3], [.rawBytes(raw([1, 2, 3]))]),
        ValueRow("{?=(u=sc)c}", [1, 2, 3], [.structStart, .rawBytes(raw([1, 2])), .byte(3), .structEnd]),
        ValueRow("rI", [0x05], [int(5)], "qualifier"),
        ValueRow("", [], [], "empty type string: a group with no values"),
    ]

    @Test("Integers", arguments: integers, [ByteOrder.little, .big])
    func integer(_ row: ValueRow, _ order: ByteOrder) { check(row, order) }

    @Test("Floats and doubles, IEEE and integral", arguments: reals, [ByteOrder.little, .big])
    func real(_ row: ValueRow, _ order: ByteOrder) { check(row, order) }

    @Test("Bytes, strings, C strings, ignored fields", arguments: bytesAndStrings, [ByteOrder.little, .big])
    func bytesAndString(_ row: ValueRow, _ order: ByteOrder) { check(row, order) }

    @Test("Arrays, structs and unions", arguments: aggregates, [ByteOrder.little, .big])
    func aggregate(_ row: ValueRow, _ order: ByteOrder) { check(row, order) }

    private func check(_ row: ValueRow, _ order: ByteOrder) {
        let bytes = headerBytes(order) + literalBytes(row.type, order) + (order == .little ? row.little : row.big)
        let expected = [headerToken(order), .typeString(lit(0, row.type))] + row.tokens
        expectTokens(bytes, expected, sourceLocation: row.location)
    }

    @Test("Token ranges and depths of a struct inside an array")
    func rangesAndDepths() throws {
        let bytes = headerBytes() + literalBytes("[1{?=ic}]") + [0x81, 0x00, 0x01, 0x41]
        let tokens = try readTokens(bytes)
        let summary = tokens.map { "\($0.start)-\($0.end)@\($0.depth)" }
        #expect(summary == ["0-16@0", "16-27@0", "27-27@0", "27-27@1", "27-30@2", "30-31@2", "31-31@1", "31-31@0"])
    }

    @Test("Integral reals read as Float/Double of the integer")
    func integralValues() throws {
        let tokens = try readTokens(headerBytes() + literalBytes("fd") + [0x81, 0x00, 0x01, 0xFE])
        #expect(tokens.map(\.kind).suffix(2) == [.float(256, .integral(.int16)), .double(-2, .integral(.inline))])
    }

    @Test("NaN survives as IEEE bits")
    func nan() throws {
        let payload: [UInt8] = [0x83, 0x01, 0x00, 0xC0, 0x7F]
        let bytes = headerBytes() + literalBytes("f") + payload
        let tokens = try readTokens(bytes)
        guard case .float(let value, .ieee) = tokens.last?.kind else {
            Issue.record("expected an IEEE float, got \(String(describing: tokens.last))")
            return
        }
        #expect(value.isNaN && value.bitPattern == 0x7FC0_0001)
        expectRewrite(tokens, bytes)
    }
}
