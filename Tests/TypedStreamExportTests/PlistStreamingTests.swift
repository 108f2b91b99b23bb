import Foundation
import Testing
import TestSupport
import TypedStream
@testable import TypedStreamExport

/// The keyed export keeps `$objects` packed (``KeyedObjectTable``) and writes the binary plist
/// from it in two passes; the result must be the bytes of the plist written from the whole tree.
struct PlistStreamingTests {
    /// Identical scalars are stored once (strings by their bytes, reals by bit pattern: 0.0 and
    /// -0.0 are two objects, two NaNs of the same bits one), UIDs once per number, and
    /// dictionary keys share objects with equal strings.
    @Test func scalarsAreSharedAsBefore() throws {
        let value: PlistValue = .array([
            .real(0), .real(-0.0), .real(.nan), .real(.nan), .string("a"), .string("a"), .uid(1), .uid(1),
            .dictionary([PlistEntry("a", .integer(7))]), .integer(7), .string("e\u{301}"), .string("\u{e9}"),
        ])
        let bytes = BinaryPlistWriter.write(value)
        // Trailer: the object count is the 8 bytes after the two size bytes.
        let count = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        // array, 0.0, -0.0, NaN, "a", uid 1, dictionary, 7, "e\u{301}", "\u{e9}"
        #expect(count == 10)
        let parsed = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [Any])
        #expect(parsed.count == 12)
        #expect((parsed[0] as? Double).map { $0 == 0 && $0.sign == .plus } == true)
        #expect((parsed[1] as? Double).map { $0 == 0 && $0.sign == .minus } == true)
        #expect((parsed[10] as? String).map { Array($0.utf8) } == Array("e\u{301}".utf8))
        #expect((parsed[11] as? String).map { Array($0.utf8) } == Array("\u{e9}".utf8))
        #expect((parsed[3] as? Double)?.isNaN == true)
    }

    /// The packed table gives back the values it was given.
    @Test func packedEntriesComeBack() throws {
        var table = KeyedObjectTable()
        let values: [PlistValue] = [
            .string("$null"), .integer(-1), .real(2.5), .bool(true), .data([1, 2, 3]), .date(-3), .uid(70000),
            .dictionary([PlistEntry("k", .array([.array([]), .dictionary([]), .string("ü")]))]),
        ]
        for value in values { table.append(value) }
        table.appendPlaceholder()
        table.setObject(8, classReference: .uid(3), fields: [PlistEntry("NS.string", .string("x"))])
        #expect(table.values == values + [.dictionary([PlistEntry("$class", .uid(3)), PlistEntry("NS.string", .string("x"))])])
        // The XML written from the packed code (nested, empty and filled collections among the
        // entries) is the XML of the same archive as a tree.
        let top = [PlistEntry("root", .uid(1))]
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try XMLPlistWriter.writeKeyedArchive(version: 100000, top: top, objects: table, to: &out)
        out.flush()
        let tree: PlistValue = .dictionary([
            PlistEntry("$version", .integer(100000)), PlistEntry("$archiver", .string("NSKeyedArchiver")),
            PlistEntry("$top", .dictionary(top)), PlistEntry("$objects", .array(table.values)),
        ])
        #expect(capture.text == (try XMLPlistWriter.write(tree)))
    }

    /// A long string many objects hold inline (a type string shared by every top-level group)
    /// is packed once, the repeats as copies; the binary and XML plists are those of the tree,
    /// with the string one binary object.
    @Test func longInlineStringsArePackedOnce() throws {
        let type = Array("{".utf8) + Array(repeating: UInt8(ascii: "N"), count: 1996) + Array("=c}".utf8)
        var archive: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        archive += [0x84, 0x81, UInt8(type.count & 0xFF), UInt8(type.count >> 8)] + type + [0x01]
        let groups = 40
        for value in 2...groups { archive += [0x92, UInt8(value)] }
        let tree = try KeyedArchiveExporter.export(typedstream: archive)
        let (_, table) = try KeyedArchiveExporter.encode(typedstream: archive, registry: .foundation, options: .init())
        // One copy of the text, not forty.
        #expect(table.code.count < 2 * type.count)
        guard case .dictionary(let top) = tree, case .array(let objects)? = top.first(where: { $0.key == "$objects" })?.value else {
            Issue.record("no $objects in \(tree)")
            return
        }
        #expect(table.values == objects)
        let binary = try KeyedArchiveExporter.binary(typedstream: archive)
        #expect(binary == BinaryPlistWriter.write(tree))
        let typeText = String(decoding: type, as: UTF8.self)
        let parsed = try #require(try PropertyListSerialization.propertyList(from: Data(binary), format: nil) as? [String: Any])
        let parsedObjects = try #require(parsed["$objects"] as? [Any])
        #expect(parsedObjects.count(where: { ($0 as? [String: Any])?.values.contains(where: { $0 as? String == typeText }) == true }) == groups)
        #expect(try KeyedArchiveExporter.xml(typedstream: archive) == XMLPlistWriter.write(tree))
    }

    /// The streamed keyed archive of every sample and corpus file, binary and XML, is the plist
    /// of its tree.
    @Test func streamedKeyedArchivesAreTheTreesBytes() throws {
        let samples = PackageRoot.samples
        var files = Corpus.wellFormedFiles()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? [] where name.hasSuffix(".typedstream") {
            if let data = FileManager.default.contents(atPath: samples.appendingPathComponent(name).path) { files.append((name, [UInt8](data))) }
        }
        #expect(files.count > 10)
        var compared = 0
        for (name, bytes) in files {
            guard let tree = try? KeyedArchiveExporter.export(typedstream: bytes) else { continue }
            let streamed = try KeyedArchiveExporter.binary(typedstream: bytes)
            #expect(streamed == BinaryPlistWriter.write(tree), "\(name)")
            if let xml = try? XMLPlistWriter.write(tree) {
                #expect(try KeyedArchiveExporter.xml(typedstream: bytes) == xml, "\(name)")
            }
            compared += 1
        }
        #expect(compared > 10)
    }
}
