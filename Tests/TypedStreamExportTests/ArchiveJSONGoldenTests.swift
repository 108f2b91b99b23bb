import Foundation
import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// Exact JSON for the hand-made sample archive, compared with files under `Golden/`.
///
/// Regenerate after an intended change, then review the diff:
///
///     TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter TypedStreamExportTests.ArchiveJSONGoldenTests
@Suite struct ArchiveJSONGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Compares `actual` with the golden file `name`, or rewrites it when ``Golden/isRegenerating``.
    func checkGolden(_ actual: [UInt8], _ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        if Golden.isRegenerating {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(actual).write(to: url)
            print("regenerated \(url.path)")
            return
        }
        guard let expected = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing golden file \(name); run \(Golden.howToRegenerate(filter: "TypedStreamExportTests.ArchiveJSONGoldenTests"))")
            return
        }
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(name) differs from the golden file")
    }

    @Test func losslessJSONMatchesGolden() throws {
        try checkGolden(ArchiveJSON.encode(SampleArchive.make()), "sample-archive.json")
    }

    @Test func plainJSONMatchesGolden() throws {
        try checkGolden(PlainJSON.encode(SampleArchive.make()), "sample-archive.plain.json")
    }

    @Test func goldenJSONDecodesToTheSameBytes() throws {
        let archive = SampleArchive.make()
        let expected = try ArchiveWriter.write(archive, policy: .recorded)
        let url = Self.folder.appendingPathComponent("sample-archive.json")
        let golden = try #require(FileManager.default.contents(atPath: url.path))
        let decoded = try ArchiveJSON.decode([UInt8](golden))
        #expect(try ArchiveWriter.write(decoded, policy: .recorded) == expected)
        // Reading the written bytes and exporting again gives the golden text.
        #expect(try ArchiveJSON.encode(ArchiveReader.read(expected)) == [UInt8](golden))
    }

    @Test func compactJSONIsOneLineAndDecodesAlike() throws {
        let archive = SampleArchive.make()
        let compact = try ArchiveJSON.encode(archive, options: .init(pretty: false))
        #expect(compact.filter { $0 == 0x0A }.count == 1)  // only the final newline
        #expect(compact.starts(with: Array(#"{"format":"typedstream-json","formatVersion":1,"header":{"#.utf8)))
        #expect(try ArchiveWriter.write(ArchiveJSON.decode(compact)) == ArchiveWriter.write(archive))
    }

    @Test func unwritableArchivesAreRefusedWithAPath() throws {
        var archive = SampleArchive.make()
        archive.groups[2].values[1] = .byte(1)  // an 'S' holding a byte
        do {
            _ = try ArchiveJSON.encode(archive)
            Issue.record("expected unwritable")
        } catch {
            #expect(error.code == .unwritable)
            #expect(error.path == "groups[2].values[1]")
        }
        archive = SampleArchive.make()
        archive.header.streamerVersion = 5
        #expect(throws: ArchiveJSONError(.unwritable, "")) { try ArchiveJSON.encode(archive) }
    }

    @Test func byteOrderEditedInJSONMatchesTheWriter() throws {
        let archive = SampleArchive.make()
        let json = try ArchiveJSON.encodeString(archive)
        let edited = json.replacingOccurrences(of: #""byteOrder": "little""#, with: #""byteOrder": "big""#)
        #expect(edited != json)
        let converted = try ArchiveWriter.write(ArchiveJSON.decode(Array(edited.utf8)), policy: .recorded)
        #expect(converted == (try ArchiveWriter.write(archive, policy: .recorded, byteOrder: .big)))
        #expect((try ArchiveReader.read(converted)).header.byteOrder == .big)
    }

    @Test func defaultsAreLeftOutAndDecisionsKept() throws {
        let json = try ArchiveJSON.encodeString(SampleArchive.make(), options: .init(pretty: false))
        // Non-default decisions of the sample appear …
        for fragment in [
            #"{"ref":3,"width":"int16"}"#, #"{"value":5,"width":"int32"}"#, #"{"raw":3000000000}"#,
            #"{"f32bits":"0x7fc00001"}"#, #"{"value":-0.0,"form":"ieee"}"#, #"{"value":3.0,"form":"ieee"}"#,
            #"{"hex":"fffe41","width":"int16"}"#, #"{"text":"NSArray","wire":{"literal":"inline"}}"#,
            #""versionWidth":"int32""#, #""typeWire":{"literal":"int16"}"#, #"{"f64bits":"0xfff0000000000000"}"#,
            #"65535"#, #"4294967295"#, #"18446744073709551614"#, #"-9000000000"#, #"21692800.0"#,
        ] {
            #expect(json.contains(fragment), "missing \(fragment)")
        }
        // … and NSArchiver's own choices do not.
        let plain = try ArchiveJSON.encodeString(ArchiveReader.read(ArchiveWriter.write(SampleArchive.make(), policy: .archiver)))
        for key in ["Wire", "\"width\"", "\"form\""] {
            #expect(!plain.contains(key), "an NSArchiver-decided archive should not mention \(key)")
        }
    }
}
