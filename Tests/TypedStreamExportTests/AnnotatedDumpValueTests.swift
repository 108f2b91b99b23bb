import Testing
import TypedStream
@testable import TypedStreamExport

/// One group: a type string and the bytes of its values, with the annotations expected for the
/// value lines (after the type string's line), indentation included.
private struct ValueRow: Sendable, CustomStringConvertible {
    var types: String
    var values: [UInt8]
    var expected: [String]
    var line: Int

    init(_ types: String, _ values: [UInt8], _ expected: [String], line: Int = #line) {
        self.types = types
        self.values = values
        self.expected = expected
        self.line = line
    }

    var description: String { "\"\(types)\" (row at line \(line))" }

    /// A little-endian v4 archive holding just this group.
    var archive: [UInt8] {
        let header: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        return header + [0x84, UInt8(types.utf8.count)] + Array(types.utf8) + values
    }
}

private func le(_ value: UInt64, _ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

private let valueRows: [ValueRow] = [
    ValueRow("s", [0x81, 0x00, 0x80], ["short -32768 (int16)"]),
    ValueRow("S", [0xFF], ["unsigned short 65535 (inline, written as -1)"]),
    ValueRow("S", [0x81, 0x00, 0x80], ["unsigned short 32768 (int16, written as -32768)"]),
    ValueRow("i", [0x82] + le(1, 4), ["int 1 (int32)"]),
    ValueRow("I", [0x82] + le(0xFFFF_FFFF, 4), ["unsigned int 4294967295 (int32, written as -1)"]),
    ValueRow("l", [0x92], ["long -110 (inline)"]),
    ValueRow("L", [0x7F], ["unsigned long 127 (inline)"]),
    ValueRow("q", [0x87] + le(UInt64(bitPattern: -9_000_000_000), 8), ["long long -9000000000 (int64)"]),
    ValueRow("Q", [0xFD], ["unsigned long long 18446744073709551613 (inline, written as -3)"]),
    ValueRow("i", [0x87] + le(5_000_000_000, 8), ["int 5000000000 (int64, does not fit 32 bits)"]),
    ValueRow("f", [0x83] + le(UInt64(Float(1.5).bitPattern), 4), ["float 1.5 (IEEE)"]),
    ValueRow("f", [0x01], ["float 1 (written as integer)"]),
    ValueRow("f", [0x83] + le(UInt64(Float.infinity.bitPattern), 4), ["float inf (IEEE)"]),
    ValueRow("d", [0x83] + le(0.1.bitPattern, 8), ["double 0.1 (IEEE)"]),
    ValueRow("d", [0x83] + le((-0.0).bitPattern, 8), ["double -0 (IEEE)"]),
    ValueRow("d", [0x82, 0x80, 0x01, 0x4B, 0x01], ["double 21692800 (written as integer, int32)"]),
    ValueRow("c", [0x41], ["char 65 'A'"]),
    ValueRow("c", [0xFF], ["char -1"]),
    ValueRow("C", [0xFF], ["unsigned char 255"]),
    ValueRow("B", [0x01], ["bool true"]),
    ValueRow("B", [0x00], ["bool false"]),
    ValueRow("B", [0x02], ["bool 2 (neither 0 nor 1)"]),
    ValueRow("+", [0x05] + Array("hello".utf8), ["\"hello\" (counted bytes, 5)"]),
    ValueRow("+", [0x00], ["\"\" (counted bytes, 0)"]),
    ValueRow("+", [0x85], ["nil (counted bytes)"]),
    ValueRow("+", [0x05, 0x22, 0x0A, 0xFF, 0x5C, 0x41], ["\"\\\"\\n\\xff\\\\A\" (counted bytes, 5)"]),
    ValueRow("+", [0x06] + Array("é✓".utf8) + [0x01], ["\"é✓\\u{1}\" (counted bytes, 6)"]),
    ValueRow("+", [0x81, 0x00, 0x01] + Array(repeating: 0x61, count: 256),
             ["\"" + String(repeating: "a", count: 64) + "\"… (counted bytes, 256, int16 length)"]),
    ValueRow(":", [0x84, 0x04] + Array("foo:".utf8), ["selector \"foo:\" (new shared string #1)"]),
    ValueRow(":", [0x85], ["nil (selector)"]),
    ValueRow("%", [0x84, 0x01, 0x78], ["atom \"x\" (new shared string #1)"]),
    ValueRow("%", [0x92], ["atom \"%\" (shared string #0 by reference)"]),
    ValueRow("*", [0x85], ["NULL (C string)"]),
    ValueRow("*", [0x84, 0x92], ["C string \"*\" (new, object #0; text: shared string #0 by reference)"]),
    ValueRow("**", [0x84, 0x84, 0x01, 0x63, 0x92], [
        "C string \"c\" (new, object #0; text: new shared string #1)",
        "reference to C string #0 (\"c\")",
    ]),
    ValueRow("#", [0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x05, 0x85], [
        "class Foo v5 (new, object #0; name: new shared string #1)",
        "superclass: none",
    ]),
    ValueRow("#", [0x85], ["class: nil"]),
    ValueRow("##", [0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x81, 0x0C, 0x02, 0x85, 0x92], [
        "class Foo v524 (new, object #0; name: new shared string #1)",
        "superclass: none",
        "class → #0 Foo (reference)",
    ]),
    ValueRow("@", [0x85], ["nil"]),
    ValueRow("#@", [0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x00, 0x85, 0x92], [
        "class Foo v0 (new, object #0; name: new shared string #1)",
        "superclass: none",
        "reference to #0 (class Foo)",
    ]),
    // A reference may be written wider than needed (`81 92 ff` = −110 = slot #0).
    ValueRow("#@", [0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x00, 0x85, 0x81, 0x92, 0xFF], [
        "class Foo v0 (new, object #0; name: new shared string #1)",
        "superclass: none",
        "reference to #0 (class Foo, int16)",
    ]),
    ValueRow("**", [0x84, 0x84, 0x01, 0x63, 0x82, 0x92, 0xFF, 0xFF, 0xFF], [
        "C string \"c\" (new, object #0; text: new shared string #1)",
        "reference to C string #0 (\"c\", int32)",
    ]),
    ValueRow("[3c]", [0x01, 0x02, 0x03], ["3 raw bytes ([3c])"]),
    ValueRow("[1C]", [0xFF], ["1 raw byte ([1C])"]),
    ValueRow("(u=ic)", [0x01, 0x02, 0x03, 0x04], ["union (u=ic): 4 raw bytes"]),
    ValueRow("[2s]", [0x01, 0x81, 0x00, 0x01], [
        "array [2s]: 2 elements",
        "  short 1 (inline)",
        "  short 256 (int16)",
        "end of array",
    ]),
    ValueRow("[0i]", [], ["array [0i]: 0 elements", "end of array"]),
    ValueRow("{CGSize=dd}", [0x01, 0x02], [
        "struct {CGSize=dd}",
        "  double 1 (written as integer)",
        "  double 2 (written as integer)",
        "end of struct",
    ]),
    ValueRow("[2{?=cS}]", [0x41, 0xFF, 0x42, 0x01], [
        "array [2{?=cS}]: 2 elements",
        "  struct {?=cS}",
        "    char 65 'A'",
        "    unsigned short 65535 (inline, written as -1)",
        "  end of struct",
        "  struct {?=cS}",
        "    char 66 'B'",
        "    unsigned short 1 (inline)",
        "  end of struct",
        "end of array",
    ]),
    ValueRow("!i", [0x07], ["ignored field (!), nothing on the wire", "int 7 (inline)"]),
    ValueRow("iI", [0x01, 0x02], ["int 1 (inline)", "unsigned int 2 (inline)"]),
    ValueRow("rni", [0x03], ["int 3 (inline)"]),
]

@Test(arguments: valueRows)
private func valuesAreNamedByTheirType(_ row: ValueRow) {
    let dump = AnnotatedDump.render(row.archive)
    #expect(dump.error == nil, "\(row): \(String(describing: dump.error))")
    // Continuation lines of wrapped tokens have no annotation.
    let annotations = dump.lines.dropFirst(2).map { DumpLineParser.annotation($0) }.filter { !$0.isEmpty }
    #expect(Array(annotations) == row.expected, "\(row)")
    #expect(dump.coveredRanges == [0..<row.archive.count], "\(row)")
}

@Test func bigEndianHeaderAndPayloads() {
    let bytes: [UInt8] = [0x04, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03, 0xE8]
        + [0x84, 0x01, 0x73, 0x81, 0x80, 0x20]
    let dump = AnnotatedDump.render(bytes)
    #expect(dump.lines.map { DumpLineParser.annotation($0) } == [
        "header: streamer v4, big-endian (typedstream), system version 1000",
        "type string \"s\" (new shared string #0)",
        "short -32736 (int16)",
    ])
}

@Test func textLimitShortensQuotedText() {
    let row = ValueRow("+", [0x0A] + Array("0123456789".utf8), [])
    let short = AnnotatedDump.render(row.archive, options: .init(textLimit: 4))
    #expect(DumpLineParser.annotation(short.lines[2]) == "\"0123\"… (counted bytes, 10)")
    let exact = AnnotatedDump.render(row.archive, options: .init(textLimit: 10))
    #expect(DumpLineParser.annotation(exact.lines[2]) == "\"0123456789\" (counted bytes, 10)")
}

@Test func multiByteReferencesSayTheirWidth() {
    // 240 type strings "a0"…, then a group that refers to shared string #239 (label 129, `81 81 00`).
    var bytes: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
    for _ in 0..<239 { bytes += [0x84, 0x01, 0x21] }   // "!" groups take no value bytes
    bytes += [0x84, 0x01, 0x69, 0x00]                  // shared string #239 "i", value 0
    bytes += [0x81, 0x81, 0x00, 0x05]
    let dump = AnnotatedDump.render(bytes)
    #expect(dump.error == nil)
    #expect(dump.lines.suffix(2).map { DumpLineParser.annotation($0) } == [
        "type string \"i\" (shared string #239 by reference, int16)",
        "int 5 (inline)",
    ])
}

@Test func streamerThreeObjectsWithoutTypeString() {
    let bytes: [UInt8] = [0x03, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03, 0x85]
        + [0x84, 0x84, 0x84, 0x06] + Array("Object".utf8) + [0x00, 0x85, 0x00, 0x86]
        + [0x85]
    let dump = AnnotatedDump.render(bytes)
    #expect(dump.error == nil)
    #expect(dump.lines.map { DumpLineParser.annotation($0) } == [
        "header: streamer v3, big-endian (typedstream), system version 901",
        "new object #0 of class Object v0 (no type string, streamer 3)",
        "  class Object v0 (new, object #1; name: new shared string #0)",
        "  superclass: none",
        "  instance size 0 (streamer 3)",
        "end of object #0 Object",
        "nil (no type string, streamer 3)",
    ])
    #expect(dump.coveredRanges == [0..<bytes.count])
}
