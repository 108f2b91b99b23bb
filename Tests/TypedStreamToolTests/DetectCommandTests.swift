import Foundation
import Testing
@testable import TypedStreamTool

/// Little-endian 32-bit words, for old NeXT binary property lists.
private func words(_ values: Int...) -> [UInt8] {
    values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}

/// A detection row: bytes, the expected kind and the expected "summary — reason" line.
struct DetectRow: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let kind: Detection.Kind
    let line: String
    let location: SourceLocation

    init(_ name: String, _ bytes: [UInt8], _ kind: Detection.Kind, _ line: String, _ location: SourceLocation = #_sourceLocation) {
        self.name = name
        self.bytes = bytes
        self.kind = kind
        self.line = line
        self.location = location
    }

    var testDescription: String { name }
}

@Suite("detect")
struct DetectCommandTests {
    static func plist(_ value: Any, _ format: PropertyListSerialization.PropertyListFormat) -> [UInt8] {
        Array((try? PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)) ?? Data())
    }

    static var keyed: [String: Any] { ["$archiver": "NSKeyedArchiver", "$version": 100000, "$objects": ["$null"], "$top": ["root": 1]] }

    /// `{"Font": "Hi" (UTF-16)}` as an old NeXT binary property list (40 bytes).
    static let nextDictionary: [UInt8] = words(7, 1) + words(5, 4) + Array("Font".utf8) + words(16)
        + words(6, 6) + [0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00, 0x00, 0x00]

    static let rows: [DetectRow] = [
        DetectRow("apple", Samples.appleHeader, .typedStream,
                  "typedstream (streamer version 4, little-endian, system version 1000) — header 04 0b \"streamtyped\" 81 e8 03"),
        DetectRow("next big-endian", [0x04, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03, 0xA2], .typedStream,
                  "typedstream (streamer version 4, big-endian, system version 930) — header 04 0b \"typedstream\" 81 03 a2"),
        DetectRow("streamer 3", [0x03, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03, 0x85, 0x85], .typedStream,
                  "typedstream (streamer version 3, big-endian, system version 901) — header 03 0b \"typedstream\" 81 03 85"),
        DetectRow("streamer 5", [0x05, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03], .typedStream,
                  "typedstream (unsupported streamer version 5) — signature \"streamtyped\", but only streamer versions 3 and 4 exist"),
        DetectRow("cut header", [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8], .typedStream,
                  "typedstream (damaged header) — signature \"streamtyped\", but offset 0xe: expected 2 bytes of system version, found 1"),
        DetectRow("keyed binary", plist(keyed, .binary), .keyedArchive,
                  "keyed archive (NSKeyedArchiver, version 100000, binary property list) — bplist00 whose top-level dictionary has the key \"$archiver\""),
        DetectRow("plain binary", plist(["a": 1], .binary), .binaryPropertyList,
                  "binary property list (top level: dictionary of 1) — header \"bplist00\"; no top-level \"$archiver\" key"),
        DetectRow("damaged binary", Array("bplist00".utf8) + [0xFF, 0xFF, 0x00], .binaryPropertyList,
                  "binary property list (damaged) — header \"bplist00\", but it does not parse (offset 0x0 (0): binary property list: no 'bplist0' header and trailer)"),
        DetectRow("bplist15", Array("bplist15".utf8) + [0x00], .binaryPropertyList,
                  "binary property list (format 15) — header \"bplist15\"; only bplist00 is checked further"),
        DetectRow("keyed xml", plist(keyed, .xml), .keyedArchive,
                  "keyed archive (XML property list) — XML property list with the key \"$archiver\""),
        DetectRow("plain xml", plist(["a": 1], .xml), .xmlPropertyList,
                  "XML property list — XML prolog and a <plist> element; no \"$archiver\" key"),
        DetectRow("other xml", Array("<?xml version=\"1.0\"?>\n<svg/>".utf8), .unknown,
                  "unknown (XML, not a property list) — starts with an XML prolog but has no <plist> element near the start"),
        DetectRow("gnustep", Array("GNUstep archive00002c25:00000003:00000003:00000000:".utf8) + [0x01], .gnustepArchive,
                  "GNUstep archive (system version 11301) — starts with \"GNUstep archive\"; GNUstep's own format, not a typedstream"),
        DetectRow("next dictionary", nextDictionary, .nextBinaryPropertyList,
                  "old NeXT binary property list (dictionary, 1 entry) — 4-byte little-endian type codes; every length, padding and table checks out and the data ends with the root value"),
        DetectRow("next array", words(2, 2, 4, 16) + words(8) + words(4, 5) + [1, 2, 3, 4, 5, 0, 0, 0], .nextBinaryPropertyList,
                  "old NeXT binary property list (array, 2 elements) — 4-byte little-endian type codes; every length, padding and table checks out and the data ends with the root value"),
        DetectRow("next, wrong length table", words(2, 1, 12) + words(8), .unknown,
                  "unknown — no known signature; first bytes 02 00 00 00 01 00 00 00"),
        DetectRow("next, trailing bytes", nextDictionary + [0], .unknown,
                  "unknown — no known signature; first bytes 07 00 00 00 01 00 00 00"),
        DetectRow("lone nil", words(8, 0, 0), .unknown, "unknown — no known signature; first bytes 08 00 00 00 00 00 00 00"),
        DetectRow("empty", [], .empty, "empty — the file has no bytes"),
        DetectRow("elf", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00], .unknown, "unknown — no known signature; first bytes 7f 45 4c 46 02 01 01 00"),
        DetectRow("text", Array("hello, world\nsecond line".utf8), .unknown, "unknown — looks like text: \"hello, world\""),
    ]

    @Test("formats", arguments: rows)
    func detect(row: DetectRow) {
        let detection = FormatDetector.detect(row.bytes)
        #expect(detection.kind == row.kind, sourceLocation: row.location)
        #expect(detection.line == row.line, sourceLocation: row.location)
        // The batches' quick question agrees with the full answer.
        #expect(FormatDetector.isTypedStream(row.bytes) == (row.kind == .typedStream), sourceLocation: row.location)
        let result = run(["detect", "-"], stdin: row.bytes)
        #expect(result.exitCode == .success, sourceLocation: row.location)
        #expect(result.standardOutput == "<stdin>: \(row.line)\n", sourceLocation: row.location)
    }

    @Test func unreadableFileFailsButOthersAreReported() throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("x.typedstream", Samples.arrayWithBool)
        let result = run(["detect", "/nonexistent/typedstream-tool-test", good])
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "error: cannot read '/nonexistent/typedstream-tool-test': No such file or directory\n")
        #expect(result.standardOutput.hasPrefix("\(good): typedstream (streamer version 4, little-endian"))
    }

    @Test func nextPropertyListChecks() throws {
        #expect(NeXTPropertyListShape(Self.nextDictionary) == .init(kind: "dictionary", count: 1))
        #expect(NeXTPropertyListShape(words(6, 4) + [0xFE, 0xFF, 0x00, 0x41]) == .init(kind: "UTF-16 string", count: 4))
        var badPadding = Self.nextDictionary
        badPadding[badPadding.count - 1] = 1
        #expect(NeXTPropertyListShape(badPadding) == nil)
        // Read by the library, but not as any writer leaves it: UTF-16 without a byte-order
        // mark, a data key, a lone nil.
        #expect(NeXTPropertyListShape(words(6, 4) + [0x41, 0x00, 0x42, 0x00]) == nil)
        #expect(NeXTPropertyListShape(words(7, 1) + words(4, 0) + words(4) + words(8)) == nil)
        #expect(NeXTPropertyListShape(words(8)) == nil)
        // Every truncated prefix is refused without trapping.
        for length in 0..<Self.nextDictionary.count {
            #expect(NeXTPropertyListShape(Array(Self.nextDictionary.prefix(length))) == nil)
        }
        // A count far beyond the data is refused before anything is allocated.
        #expect(NeXTPropertyListShape(words(2, 0x7FFF_FFFF)) == nil)
    }
}
