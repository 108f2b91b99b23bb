import Testing
@testable import TypedStreamExport

/// The JSON parser and text writer on their own.
@Suite struct JSONTextTests {
    @Test func parsesEveryKindAndKeepsNumberText() throws {
        let text = #"  {"a": [true, false, null, -0.0, 1e+30, 18446744073709551615, "x\u00e9\ud83d\ude00\n\"\\\/"], "b": {}, "c": [], "a": 1}  "#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value == .object([
            JSONMember("a", .array([.bool(true), .bool(false), .null, .number("-0.0"), .number("1e+30"), .number("18446744073709551615"), .string("xé😀\n\"\\/")])),
            JSONMember("b", .object([])),
            JSONMember("c", .array([])),
            JSONMember("a", .number("1")),  // repeated members are kept; the importer refuses them
        ]))
        #expect(value["b"] == .object([]))
        #expect(value["a"]?[4] == .number("1e+30"))
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: [UInt8]
        var offset: Int
        var testDescription: String { String(decoding: text, as: UTF8.self) }
    }

    static let bad: [Bad] = [
        Bad(text: Array("".utf8), offset: 0),
        Bad(text: Array("[1, 2".utf8), offset: 5),
        Bad(text: Array("{\"a\" 1}".utf8), offset: 5),
        Bad(text: Array("{a: 1}".utf8), offset: 1),
        Bad(text: Array("[01]".utf8), offset: 1),
        Bad(text: Array("[1.]".utf8), offset: 3),
        Bad(text: Array("[-]".utf8), offset: 2),
        Bad(text: Array("[1e]".utf8), offset: 3),
        Bad(text: Array("[tru]".utf8), offset: 1),
        Bad(text: Array("[\"a\tb\"]".utf8), offset: 3),
        Bad(text: Array("[\"\\x\"]".utf8), offset: 2),
        Bad(text: Array("[\"\\ud800\"]".utf8), offset: 2),
        Bad(text: Array("[\"\\udc00\"]".utf8), offset: 2),
        Bad(text: Array("[\"\\u12\"]".utf8), offset: 6),
        Bad(text: [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], offset: 1),
        Bad(text: Array("[1] [2]".utf8), offset: 4),
        Bad(text: Array("\"unterminated".utf8), offset: 0),
    ]

    @Test(arguments: bad) func syntaxErrorsCarryTheirOffset(_ c: Bad) {
        do {
            _ = try JSONValue.parse(c.text)
            Issue.record("parsed")
        } catch {
            #expect(error.code == .syntax)
            #expect(error.offset == c.offset, "\(error)")
        }
    }

    @Test func depthIsBoundedWithoutRecursion() throws {
        let deep = Array(String(repeating: "[", count: 50) + String(repeating: "]", count: 50)).map { UInt8(ascii: $0.unicodeScalars.first!) }
        #expect(throws: Never.self) { try JSONValue.parse(deep, maximumDepth: 50) }
        #expect(throws: ArchiveJSONError(.limitExceeded, "")) { try JSONValue.parse(deep, maximumDepth: 49) }
        // A million brackets fail fast and cleanly.
        #expect(throws: ArchiveJSONError(.limitExceeded, "")) { try JSONValue.parse([UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)) }
    }

    @Test func writerEscapesAndParsesBack() throws {
        var all = ""
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) { all.unicodeScalars.append(scalar) }
        all += "é日本😀\u{2028}"
        let value = JSONValue.object([JSONMember("k\"ey\n", .string(all)), JSONMember("n", .array([.integer(-5), .integer(UInt64.max), .double(.nan), .double(0.5)]))])
        for pretty in [true, false] {
            let text = value.text(pretty: pretty)
            #expect(try JSONValue.parse(text) == value)
        }
        #expect(String(decoding: JSONValue.array([.integer(1), .string("\u{1}")]).text(pretty: false), as: UTF8.self) == #"[1,"\u0001"]"#)
        #expect(String(decoding: JSONValue.double(.infinity).text(), as: UTF8.self) == #""Infinity""#)
    }

    @Test func prettyLayoutKeepsScalarContainersOnOneLine() {
        let value = JSONValue.object([
            JSONMember("a", .array([.integer(1), .integer(2)])),
            JSONMember("b", .array([.object([JSONMember("c", .null)])])),
        ])
        let expected = """
        {
          "a": [1, 2],
          "b": [
            {"c": null}
          ]
        }
        """
        #expect(String(decoding: value.text(), as: UTF8.self) == expected)
    }

    /// Pretty text of containers nested deeper than ``JSONTextWriter/deepestIndent`` indents
    /// their lines no further, and parses back to the same value.
    @Test func indentationStopsGrowingPastTheDeepestLevel() throws {
        var value = JSONValue.array([.integer(7), .string("x")])
        for level in 0..<100 { value = level % 2 == 0 ? .array([.integer(Int64(level)), value]) : .object([JSONMember("k", value), JSONMember("n", .null)]) }
        let text = value.text(pretty: true)
        #expect(try JSONValue.parse(text, maximumDepth: 200) == value)
        let indents = text.split(separator: UInt8(ascii: "\n")).map { $0.prefix(while: { $0 == UInt8(ascii: " ") }).count }
        #expect(indents.max() == 2 * (JSONTextWriter.deepestIndent + 1))
        // Shallower lines are indented as before: one level (two spaces) per container.
        #expect(Set(indents.filter { $0 < 2 * JSONTextWriter.deepestIndent }) == Set(stride(from: 0, to: 2 * JSONTextWriter.deepestIndent, by: 2)))
    }
}
