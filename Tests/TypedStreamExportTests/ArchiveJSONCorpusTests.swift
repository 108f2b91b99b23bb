import Testing
import TypedStream
@testable import TypedStreamExport

/// Lossless JSON over every well-formed corpus archive.
@Suite(.needsCorpus) struct ArchiveJSONCorpusTests {
    @Test func everyCorpusFileRoundTripsThroughJSON() throws {
        let files = Corpus.wellFormedFiles()
        try #require(!files.isEmpty)
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let json = try ArchiveJSON.encode(archive)
            let back = try ArchiveJSON.decode(json)
            #expect(try ArchiveWriter.write(back, policy: .recorded) == bytes, "\(name): JSON round trip changed the bytes")
            #expect(try ArchiveJSON.encode(back) == json, "\(name): the JSON of the decoded archive differs")
            // No copy of the input: not even the hex of the file's first 32 bytes appears.
            let prefixHex = bytes.prefix(32).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(String(decoding: json, as: UTF8.self).firstRange(of: prefixHex) == nil, "\(name): the JSON holds the file's bytes")
        }
        print("lossless JSON round trip: \(files.count) corpus files byte-identical")
        #expect(files.count > 90)
    }

    @Test func byteOrderChangedInJSONMatchesTheWriter() throws {
        let files = Corpus.wellFormedFiles()
        try #require(!files.isEmpty)
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let other: ByteOrder = archive.header.byteOrder == .big ? .little : .big
            let json = String(decoding: try ArchiveJSON.encode(archive, options: .init(pretty: false)), as: UTF8.self)
            let from = #""byteOrder":"\#(archive.header.byteOrder.rawValue)""#
            guard let range = json.firstRange(of: from) else {
                Issue.record("\(name): header byte order not found")
                continue
            }
            let edited = json.replacingCharacters(in: range, with: #""byteOrder":"\#(other.rawValue)""#)
            let converted = try ArchiveWriter.write(ArchiveJSON.decode(Array(edited.utf8)), policy: .recorded)
            let expected = try ArchiveWriter.write(archive, policy: .recorded, byteOrder: other)
            #expect(converted == expected, "\(name): byte-order conversion through JSON differs from the writer's")
        }
    }

    @Test func plainJSONParsesForEveryCorpusFile() throws {
        let files = Corpus.wellFormedFiles()
        try #require(!files.isEmpty)
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let parsed = try JSONValue.parse(PlainJSON.encode(archive))
            guard case .array(let values)? = parsed["values"] else {
                Issue.record("\(name): plain JSON has no values array")
                continue
            }
            #expect(values.count == archive.groups.reduce(0) { $0 + $1.values.count }, "\(name)")
        }
    }
}
