import Testing
import TypedStream
@testable import TypedStreamExport

/// The quick paths of the lossless JSON import give what the general ones give: numbers and
/// strings taken in place or across pieces, type strings met again, class chains and references
/// walked as they come, and a chain's faults named where they were before.
@Suite struct ArchiveJSONImportPathTests {
    typealias Doc = ArchiveJSONStreamingTests

    static func document(_ groups: String) -> String {
        #"{"format": "typedstream-json", "formatVersion": 1, "header": \#(Doc.header), "groups": [\#(groups)]}"#
    }

    /// Many objects of one class, each with a group of one type string met again and again,
    /// numbers of every form, strings with escapes and non-ASCII text, indented as `decode --json`
    /// indents: the whole round trip is exact, read whole or in pieces of any size.
    static let repetitive: String = {
        var objects: [String] = []
        for n in 0..<40 {
            let id = 3 + n
            objects.append(#"""
                    {"object": \#(id), "class": [{"ref": 1}], "groups": [
                      {"type": "id", "values": [\#(n * 977 - 20000), \#(Double(n) * -1.25e3)]},
                      {"type": "+", "values": ["na\u00efve \#(n) \"q\" é"]}
                    ]}
            """#)
        }
        return document(#"""
          {"type": "@", "values": [
            {"object": 0, "class": [{"id": 1, "name": "Holder", "version": 2}, {"id": 2, "name": "NSObject", "version": 0}], "groups": [
        \#(objects.map { #"      {"type": "@", "values": [\#n\#($0)\#n      ]}"# }.joined(separator: ",\n"))
            ]}
          ]}
        """#)
    }()

    @Test func aRepetitiveDocumentRoundTripsInPiecesOfAnySize() throws {
        let whole = try Doc.bytes(Self.repetitive)
        // The archive read back gives the same JSON, and the JSON the same bytes.
        let archive = try ArchiveReader.read(whole)
        let again = try ArchiveJSON.encode(archive)
        #expect(try ArchiveWriter.write(ArchiveJSON.decode(again)) == whole)
        for size in [1, 2, 5, 8, 9, 13, 4096] {
            #expect(try Doc.bytesInPieces(Self.repetitive, size: size) == whole, "pieces of \(size)")
        }
    }

    @Test func aTypeStringAsTextOrHexGivesTheSameBytes() throws {
        let text = Self.document(#"{"type": "i", "values": [1]}, {"type": "i", "values": [2]}, {"type": "i", "values": [3]}"#)
        let hex = Self.document(#"{"type": {"hex": "69"}, "values": [1]}, {"type": "i", "values": [2]}, {"type": {"hex": "69"}, "values": [3]}"#)
        let bytes = try Doc.bytes(text)
        #expect(try Doc.bytes(hex) == bytes)
        // "i" once as a literal, then twice as a reference to shared string 0.
        #expect(Array(bytes.suffix(8)) == [0x84, 0x01, 0x69, 0x01, 0x92, 0x02, 0x92, 0x03])
    }

    @Test func aTypeStringMetAgainAfterAnExplicitDecisionFollowsTheTable() throws {
        // The second group takes a new literal of the same text; the third refers to the first.
        let json = Self.document(#"{"type": "i", "values": [1]}, {"type": "i", "typeWire": {"literal": "inline"}, "values": [2]}, {"type": "i", "values": [3]}"#)
        let bytes = try Doc.bytes(json)
        #expect(Array(bytes.suffix(10)) == [0x84, 0x01, 0x69, 0x01, 0x84, 0x01, 0x69, 0x02, 0x92, 0x03])
    }

    @Test func aBadTypeStringIsNamedOnceAndEveryTime() throws {
        for groups in [#"{"type": "{x", "values": [1]}"#, #"{"type": "i", "values": [1]}, {"type": "{x", "values": [1]}"#] {
            do {
                _ = try Doc.bytes(Self.document(groups))
                Issue.record("accepted")
            } catch let error as ArchiveJSONError {
                #expect(error.code == .badTypeString && error.path.hasSuffix("].type"))
            }
        }
    }

    /// A class chain's faults, walked as it comes, are the ones it had read whole.
    @Test(arguments: [
        (#"[{"ref": 2}, {"ref": 1}]"#, ArchiveJSONError.Code.badValue, "groups[1].values[0].class[0]"),
        (#"[{"ref": 7}]"#, .undefinedReference, "groups[1].values[0].class[0]"),
        (#"[{"ref": 0}]"#, .referenceKindMismatch, "groups[1].values[0].class[0]"),
        (#"[{"ref": 2, "name": "X"}]"#, .unknownField, "groups[1].values[0].class[0].name"),
        (#"[{"name": "X", "ref": 2}]"#, .unknownField, "groups[1].values[0].class[0].name"),
        (#"[{"id": 5, "name": "A", "version": 0}, {"ref": 5}]"#, .badValue, "groups[1].values[0].class[1]"),
        (#"[]"#, .badValue, "groups[1].values[0].class"),
        (#"[{}]"#, .missingField, "groups[1].values[0].class[0].id"),
        (#"[7]"#, .wrongShape, "groups[1].values[0].class[0]"),
        (#"{"ref": 2}"#, .wrongShape, "groups[1].values[0].class"),
    ])
    func chainFaults(_ chain: String, _ code: ArchiveJSONError.Code, _ path: String) throws {
        // Object 0 of classes 1 and 2 comes first; the object under test is 4.
        let first = #"{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "A", "version": 0}, {"id": 2, "name": "B", "version": 0}], "groups": []}]}"#
        let json = Self.document(#"\#(first), {"type": "@", "values": [{"object": 4, "class": \#(chain), "groups": []}]}"#)
        for size in [3, 1 << 20] {
            do {
                _ = try Doc.bytesInPieces(json, size: size)
                Issue.record("accepted \(chain)")
            } catch let error as ArchiveJSONError {
                #expect(error.code == code, "\(chain): \(error)")
                #expect(error.path == path, "\(chain): \(error)")
            }
        }
    }

    @Test func aClassChainInAnyPlaceOfItsObjectGivesTheSameBytes() throws {
        let classes = #"[{"id": 1, "name": "A", "version": 3}, {"id": 2, "name": "B", "version": 0}]"#
        let orders = [
            #"{"object": 0, "class": \#(classes), "groups": [{"type": "i", "values": [5]}]}"#,
            #"{"object": 0, "groups": [{"type": "i", "values": [5]}], "class": \#(classes)}"#,
            #"{"class": \#(classes), "object": 0, "groups": [{"type": "i", "values": [5]}]}"#,
        ]
        let bytes = try orders.map { try Doc.bytes(Self.document(#"{"type": "@", "values": [\#($0)]}, {"type": "@", "values": [{"ref": 0}]}"#)) }
        #expect(bytes.allSatisfy { $0 == bytes[0] })
    }

    /// Numbers taken in place and across pieces are the same numbers, and a bad one is named
    /// at the same offset either way.
    @Test func numbersAtTheEndOfAPieceAreTakenWhole() throws {
        let values = ["0", "-0", "123456789", "-9223372036854775808", "18446744073709551615", "1.5", "-2.5e-3", "1E+2"]
        for text in values {
            let whole = try JSONValue.parse(Array("[\(text)]".utf8))
            #expect(whole == .array([.number(text)]))
            for size in 1...4 {
                var reader = JSONTextReader(maximumDepth: 8, refill: Self.pieces(of: "[\(text)]", size: size))
                #expect(try reader.value() == whole, "\(text) in pieces of \(size)")
            }
        }
        for bad in ["01", "-", "1.", "1e", "1e+", "-x"] {
            let offset = Self.syntaxOffset { var r = JSONTextReader(bytes: Array("[\(bad)]".utf8), maximumDepth: 8); _ = try r.value() }
            for size in 1...3 {
                let split = Self.syntaxOffset { var r = JSONTextReader(maximumDepth: 8, refill: Self.pieces(of: "[\(bad)]", size: size)); _ = try r.value() }
                #expect(split == offset && offset != nil, "\(bad) in pieces of \(size)")
            }
        }
    }

    @Test func stringsAsciiOrNotAndSpacesAcrossPieces() throws {
        let text = "[\"plain\",        \"caf\u{e9}\", \"\\u00e9\\n\",\n\t \"\u{1F600}x\"]"
        let whole = try JSONValue.parse(Array(text.utf8))
        #expect(whole == .array([.string("plain"), .string("café"), .string("é\n"), .string("😀x")]))
        for size in 1...9 {
            var reader = JSONTextReader(maximumDepth: 8, refill: Self.pieces(of: text, size: size))
            #expect(try reader.value() == whole, "pieces of \(size)")
        }
        // Invalid UTF-8 is refused at the string's opening quote, whole or split.
        var bytes = Array(#"["ok", "a?b"]"#.utf8)
        bytes[bytes.count - 4] = 0xFF
        for size in [1, 2, 100] {
            var at = 0
            var reader = JSONTextReader(maximumDepth: 8) { buffer in
                let end = min(bytes.count, at + size)
                buffer.append(contentsOf: bytes[at..<end])
                at = end
                return at == bytes.count
            }
            do {
                _ = try reader.value()
                Issue.record("accepted")
            } catch {
                #expect(error.code == .syntax && error.offset == 7)
            }
        }
    }

    /// A refill handing out `text` `size` bytes at a time.
    static func pieces(of text: String, size: Int) -> JSONTextReader.Refill {
        let bytes = Array(text.utf8)
        var at = 0
        return { buffer in
            let end = min(bytes.count, at + size)
            buffer.append(contentsOf: bytes[at..<end])
            at = end
            return at == bytes.count
        }
    }

    /// The offset of the syntax error `body` throws, if it throws one.
    static func syntaxOffset(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch let error as ArchiveJSONError {
            return error.code == .syntax ? error.offset : nil
        } catch {
            return nil
        }
    }
}
