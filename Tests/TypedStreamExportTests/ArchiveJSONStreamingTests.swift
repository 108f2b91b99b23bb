import Testing
import TypedStream
@testable import TypedStreamExport

/// Lossless JSON read front to back: piece by piece gives the same bytes as whole, and members
/// in any order still describe the same archive.
@Suite struct ArchiveJSONStreamingTests {
    static let header = #"{"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}"#

    /// An array of two strings (the second a reference to a shared string written first), with
    /// a nested object and a struct of objects: every container the reader walks as it comes.
    static let canonical = #"""
    {"format": "typedstream-json", "formatVersion": 1, "header": \#(header), "groups": [
      {"type": "@", "values": [
        {"object": 0, "class": [{"id": 1, "name": "Holder", "version": 2}, {"id": 2, "name": "NSObject", "version": 0}], "groups": [
          {"type": "i%", "values": [7, "shared"]},
          {"type": "{a=@@}", "values": [[{"object": 3, "class": [{"ref": 1}], "groups": [{"type": "%", "values": ["shared"]}]}, {"ref": 3}]]},
          {"type": "[2@]", "values": [[null, {"ref": 0}]]}
        ]}
      ]}
    ]}
    """#

    static func bytes(_ json: String) throws -> [UInt8] {
        try ArchiveWriter.write(ArchiveJSON.decode(Array(json.utf8)))
    }

    /// Decodes `json` handed out `size` bytes at a time.
    static func bytesInPieces(_ json: String, size: Int) throws -> [UInt8] {
        let text = Array(json.utf8)
        var at = 0
        let archive = try ArchiveJSON.decode { buffer in
            let end = min(text.count, at + size)
            buffer.append(contentsOf: text[at..<end])
            at = end
            return at == text.count
        }
        return try ArchiveWriter.write(archive)
    }

    @Test func piecesOfAnySizeGiveTheSameBytes() throws {
        let whole = try Self.bytes(Self.canonical)
        #expect(whole.count > 40)
        for size in [1, 2, 3, 7, 64, 1 << 20] {
            #expect(try Self.bytesInPieces(Self.canonical, size: size) == whole, "pieces of \(size)")
        }
        // And the document read through a parsed value.
        let value = try JSONValue.parse(Array(Self.canonical.utf8))
        #expect(try ArchiveWriter.write(ArchiveJSON.decode(value)) == whole)
    }

    @Test func errorsInPiecesKeepTheirPathAndOffset() throws {
        let bad = Self.canonical.replacing(#""version": 2"#, with: #""version": "two""#)
        for size in [1, 5, 1 << 20] {
            do {
                _ = try Self.bytesInPieces(bad, size: size)
                Issue.record("accepted")
            } catch let error as ArchiveJSONError {
                #expect(error.code == .wrongShape)
                #expect(error.path == "groups[0].values[0].class[0].version")
            }
        }
        let truncated = String(Self.canonical.dropLast(20))
        do {
            _ = try Self.bytesInPieces(truncated, size: 3)
            Issue.record("accepted")
        } catch let error as ArchiveJSONError {
            #expect(error.code == .syntax && error.offset == truncated.utf8.count)
        }
    }

    @Test func aFailingReadIsThrownAsItself() throws {
        struct Broken: Error {}
        #expect(throws: Broken.self) {
            _ = try ArchiveJSON.decode { (_: inout [UInt8]) throws -> Bool in throw Broken() }
        }
    }

    @Test func membersInAnyOrderDescribeTheSameArchive() throws {
        let whole = try Self.bytes(Self.canonical)
        // Groups before the class, values before the type, the header last.
        let reordered = #"""
        {"groups": [
          {"values": [
            {"groups": [
              {"values": [7, "shared"], "type": "i%"},
              {"type": "{a=@@}", "values": [[{"groups": [{"values": ["shared"], "type": "%"}], "class": [{"ref": 1}], "object": 3}, {"ref": 3}]]},
              {"values": [[null, {"ref": 0}]], "type": "[2@]"}
            ], "class": [{"version": 2, "name": "Holder", "id": 1}, {"id": 2, "name": "NSObject", "version": 0}], "object": 0}
          ], "type": "@"}
        ], "formatVersion": 1, "format": "typedstream-json", "header": \#(Self.header)}
        """#
        #expect(try Self.bytes(reordered) == whole)
        #expect(try Self.bytesInPieces(reordered, size: 4) == whole)
    }

    @Test func aTypeWireAfterTheValuesMayChangeOnlyItsWidth() throws {
        func doc(_ group: String) -> String {
            #"{"format": "typedstream-json", "formatVersion": 1, "header": \#(Self.header), "groups": [\#(group)]}"#
        }
        let before = try Self.bytes(doc(#"{"type": "i", "typeWire": {"literal": "int16"}, "values": [1]}"#))
        let after = try Self.bytes(doc(#"{"type": "i", "values": [1], "typeWire": {"literal": "int16"}}"#))
        #expect(after == before)
        // A reference where NSArchiver writes a literal would renumber what the values took.
        let json = Array(doc(#"{"type": "i", "values": [1], "typeWire": {"reference": 0}}"#).utf8)
        do {
            _ = try ArchiveJSON.decode(json)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .badValue && error.path == "groups[0].typeWire")
        }
        // Given twice, in either place, it is a duplicate.
        #expect(throws: ArchiveJSONError(.duplicateField, "")) {
            try ArchiveJSON.decode(Array(doc(#"{"type": "i", "typeWire": {"literal": "inline"}, "values": [1], "typeWire": {"literal": "inline"}}"#).utf8))
        }
    }

    @Test func anObjectThatTurnsOutToBeAReferenceIsRefusedAsOne() throws {
        let json = #"{"format": "typedstream-json", "formatVersion": 1, "header": \#(Self.header), "groups": [{"type": "@", "values": [{"object": 0, "ref": 0}]}]}"#
        do {
            _ = try ArchiveJSON.decode(Array(json.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .unknownField && error.path == "groups[0].values[0].object")
        }
    }
}
