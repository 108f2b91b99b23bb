import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// Malformed lossless JSON: every error has the right code and points at the right place.
@Suite struct ArchiveJSONErrorTests {
    static let header = #"{"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}"#

    /// A document with the given groups (and header).
    static func doc(_ groups: String, header: String = header) -> String {
        #"{"format": "typedstream-json", "formatVersion": 1, "header": \#(header), "groups": \#(groups)}"#
    }

    /// An object of class NSObject (id 1) with the given id and groups.
    static func object(_ id: Int = 0, groups: String = "[]") -> String {
        #"{"object": \#(id), "class": [{"id": \#(id + 1), "name": "NSObject", "version": 0}], "groups": \#(groups)}"#
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var json: String
        var code: ArchiveJSONError.Code
        var path: String
        var line: Int
        init(_ json: String, _ code: ArchiveJSONError.Code, _ path: String, line: Int = #line) {
            self.json = json
            self.code = code
            self.path = path
            self.line = line
        }
        var testDescription: String { "line \(line): \(code) at '\(path)'" }
    }

    static let cases: [Case] = [
        // The document.
        Case(#"{"format": "typedstream-json", "formatVersion": 1, "header": "#, .syntax, ""),
        Case(#"{"formatVersion": 1, "header": \#(header), "groups": []}"#, .unsupportedFormat, ""),
        Case(#"{"format": "plist", "formatVersion": 1, "header": \#(header), "groups": []}"#, .unsupportedFormat, ""),
        Case(#"{"format": "typedstream-json", "formatVersion": 2, "header": \#(header), "groups": []}"#, .unsupportedFormat, "formatVersion"),
        Case(#"{"format": "typedstream-json", "formatVersion": 1, "header": \#(header), "groups": [], "comment": 1}"#, .unknownField, "comment"),
        Case(#"{"format": "typedstream-json", "formatVersion": 1, "groups": []}"#, .missingField, ""),
        Case(#"[1, 2]"#, .wrongShape, ""),
        Case(doc("{}"), .wrongShape, "groups"),
        // The header.
        Case(doc("[]", header: #"{"streamerVersion": 5, "byteOrder": "little", "systemVersion": 1000}"#), .badValue, "header.streamerVersion"),
        Case(doc("[]", header: #"{"streamerVersion": 4, "byteOrder": "middle", "systemVersion": 1000}"#), .badValue, "header.byteOrder"),
        Case(doc("[]", header: #"{"streamerVersion": 4, "byteOrder": "big", "systemVersion": 1000, "systemVersionWidth": "inline"}"#), .badValue, "header.systemVersionWidth"),
        Case(doc("[]", header: #"{"streamerVersion": 4, "byteOrder": "big", "systemVersion": 1e3}"#), .badValue, "header.systemVersion"),
        // Groups and type strings.
        Case(doc(#"[{"type": "{i", "values": [1]}]"#), .badTypeString, "groups[0].type"),
        Case(doc(#"[{"type": "i"}]"#), .missingField, "groups[0]"),
        Case(doc(#"[{"type": "i", "values": [1, 2]}]"#), .typeMismatch, "groups[0].values"),
        Case(doc(#"[{"type": "i", "type": "i", "values": [1]}]"#), .duplicateField, "groups[0].type"),
        Case(doc(#"[{"type": null, "values": [null]}]"#), .badValue, "groups[0].type"),
        Case(doc(#"[{"type": "i", "values": [1]}, {"type": "i", "typeWire": {"reference": 1}, "values": [1]}]"#), .badValue, "groups[1].typeWire"),
        Case(doc(#"[{"type": "i", "values": [1]}, {"type": "@", "typeWire": {"reference": 0}, "values": [null]}]"#), .badValue, "groups[1].typeWire"),
        Case(doc(#"[{"type": "i", "typeWire": {"literal": "inline", "reference": 0}, "values": [1]}]"#), .wrongShape, "groups[0].typeWire"),
        Case(doc(#"[{"type": "^i", "values": [1]}]"#), .badTypeString, "groups[0].values[0]"),
        // Scalars.
        Case(doc(#"[{"type": "i", "values": ["x"]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(#"[{"type": "ii", "values": [1, 1.5]}]"#), .badValue, "groups[0].values[1]"),
        Case(doc(#"[{"type": "q", "values": [9223372036854775808]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "s", "values": [70000]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "s", "values": [{"value": 1, "width": "int32"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "i", "values": [{"value": 300, "width": "inline"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "i", "values": [{"value": 3, "raw": 3}]}]"#), .wrongShape, "groups[0].values[0]"),
        Case(doc(#"[{"type": "i", "values": [{"value": 3, "size": 3}]}]"#), .unknownField, "groups[0].values[0].size"),
        Case(doc(#"[{"type": "c", "values": [300]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "f", "values": [{"value": 0.5, "form": "inline"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "f", "values": [{"value": 3.0, "form": "sideways"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "f", "values": [1e39]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "d", "values": [{"f64bits": "0x123"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "d", "values": [{"f32bits": "0x00000000"}]}]"#), .unknownField, "groups[0].values[0].f32bits"),
        Case(doc(#"[{"type": "[2c]", "values": [{"hex": "0"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "[2c]", "values": [{"hex": "000102"}]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(#"[{"type": "[2i]", "values": [[1]]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(#"[{"type": "{?=ii}", "values": [[1, "2"]]}]"#), .typeMismatch, "groups[0].values[0][1]"),
        Case(doc(#"[{"type": "!", "values": [0]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(#"[{"type": "+", "values": [{"text": "a", "hex": "61"}]}]"#), .wrongShape, "groups[0].values[0]"),
        Case(doc(#"[{"type": "+", "values": [{"text": "a", "width": "int64"}]}]"#), .badValue, "groups[0].values[0]"),
        Case(doc(#"[{"type": "+", "values": [7]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(#"[{"type": ":", "values": [{"text": "a", "wire": {"literal": "huge"}}]}]"#), .badValue, "groups[0].values[0].wire"),
        // Objects, classes, C strings and references.
        Case(doc(#"[{"type": "@", "values": [{"ref": 5}]}]"#), .undefinedReference, "groups[0].values[0]"),
        Case(doc(#"[{"type": "@", "values": [\#(object(groups: #"[{"type": "i", "values": [1]}, {"type": "@", "values": [{"ref": 99}]}]"#))]}]"#), .undefinedReference, "groups[0].values[0].groups[1].values[0]"),
        Case(doc(#"[{"type": "@", "values": [{"object": 0, "class": [{"id": 0, "name": "A", "version": 0}], "groups": []}]}]"#), .duplicateID, "groups[0].values[0].class[0].id"),
        Case(doc(#"[{"type": "@", "values": [\#(object(groups: #"[{"type": "*", "values": [{"ref": 1}]}]"#))]}]"#), .referenceKindMismatch, "groups[0].values[0].groups[0].values[0]"),
        Case(doc(#"[{"type": "*@", "values": [{"cstring": 0, "text": "c"}, {"ref": 0}]}]"#), .referenceKindMismatch, "groups[0].values[1]"),
        Case(doc(#"[{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "A", "version": 0}], "groups": [], "bogus": 1}]}]"#), .unknownField, "groups[0].values[0].bogus"),
        Case(doc(#"[{"type": "@", "values": [{"object": 0, "groups": []}]}]"#), .missingField, "groups[0].values[0]"),
        Case(doc(#"[{"type": "@", "values": [{"object": 0, "class": [], "groups": []}]}]"#), .badValue, "groups[0].values[0].class"),
        Case(doc(#"[{"type": "@", "values": [{"object": -1, "class": [], "groups": []}]}]"#), .badValue, "groups[0].values[0].object"),
        Case(doc(#"[{"type": "@@", "values": [\#(object()), {"object": 2, "class": [{"ref": 1}, {"id": 3, "name": "B", "version": 0}], "groups": []}]}]"#), .badValue, "groups[0].values[1].class[0]"),
        Case(doc(#"[{"type": "@@", "values": [\#(object()), {"ref": 0, "width": "int64"}]}]"#), .badValue, "groups[0].values[1]"),
        Case(doc(#"[{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "A", "version": 0}], "size": 4, "groups": []}]}]"#), .badValue, "groups[0].values[0].size"),
        Case(doc(#"[{"type": "@", "values": ["NSObject"]}]"#), .typeMismatch, "groups[0].values[0]"),
        Case(doc(##"[{"type": "#", "values": ["NSObject"]}]"##), .typeMismatch, "groups[0].values[0]"),
        Case(doc(##"[{"type": "#", "values": [[{"id": 0, "name": {"hex": "zz"}, "version": 0}]]}]"##), .badValue, "groups[0].values[0][0].name"),
        // JSON syntax.
        Case(doc("[]") + " x", .syntax, ""),
        Case(doc(#"[{"type": "+", "values": ["\udc00"]}]"#), .syntax, ""),
        Case(doc(#"[{"type": "i", "values": [01]}]"#), .syntax, ""),
        Case(doc(#"[{"type": "i", "values": [1,]}]"#), .syntax, ""),
        Case(String(repeating: "[", count: 100_000), .limitExceeded, ""),
    ]

    @Test(arguments: cases) func malformedDocumentFailsWithPath(_ c: Case) {
        do {
            _ = try ArchiveJSON.decode(Array(c.json.utf8))
            Issue.record("line \(c.line): decoding succeeded, expected \(c.code)")
        } catch {
            #expect(error.code == c.code, "line \(c.line): \(error)")
            #expect(error.path == c.path, "line \(c.line): \(error)")
            if c.code == .syntax || (c.code == .limitExceeded && c.path.isEmpty) {
                #expect(error.offset != nil, "line \(c.line): a syntax error needs an offset")
            }
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func invalidUTF8InTheTextIsASyntaxError() {
        var bytes = Array(Self.doc(#"[{"type": "+", "values": ["ab"]}]"#).utf8)
        let quote = bytes.lastIndex(of: UInt8(ascii: "b"))!
        bytes[quote] = 0xFF
        #expect(throws: ArchiveJSONError(.syntax, "")) { try ArchiveJSON.decode(bytes) }
    }

    @Test func archiveNestingIsBounded() throws {
        // Objects nested eleven deep, with a limit of ten.
        var value = "null"
        for id in stride(from: 20, through: 0, by: -2) {
            value = #"{"object": \#(id), "class": [{"id": \#(id + 1), "name": "N", "version": 0}], "groups": [{"type": "@", "values": [\#(value)]}]}"#
        }
        let json = Array(Self.doc(#"[{"type": "@", "values": [\#(value)]}]"#).utf8)
        #expect(throws: Never.self) { try ArchiveJSON.decode(json, options: .init(maximumNesting: 11)) }
        do {
            _ = try ArchiveJSON.decode(json, options: .init(maximumNesting: 10))
            Issue.record("expected limitExceeded")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.path.hasPrefix("groups[0].values[0].groups[0].values[0]"))
        }
    }

    @Test func everyTruncatedPrefixFailsCleanly() throws {
        let json = try ArchiveJSON.encode(SampleArchive.make(), options: .init(pretty: false))
        for end in 0..<(json.count - 1) {
            #expect(throws: ArchiveJSONError.self) { try ArchiveJSON.decode(Array(json[..<end])) }
        }
    }

    @Test func randomByteMutationsNeverTrap() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("randomByteMutationsNeverTrap seed: \(seed)")
        var rng = SplitMix64(seed: seed)
        let json = try ArchiveJSON.encode(SampleArchive.make(), options: .init(pretty: false))
        let alphabet = Array(#"{}[]":,0123456789-.eE ntfrux\"#.utf8) + [0x00, 0xFF, 0xC3]
        var failures = 0
        for _ in 0..<2000 {
            var mutated = json
            for _ in 0..<Int(rng.next() % 3 + 1) {
                let at = Int(rng.next() % UInt64(mutated.count))
                mutated[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            do {
                let archive = try ArchiveJSON.decode(mutated)
                _ = try? ArchiveWriter.write(archive)  // a valid edit must also be writable or throw
            } catch {
                failures += 1
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(failures > 0)
    }
}
