import Testing
import TypedStream
@testable import TypedStreamExport

/// Lossless JSON over every well-formed corpus archive.
@Suite struct ArchiveJSONCorpusTests {
    @Test func everyCorpusFileRoundTripsThroughJSON() throws {
        let files = Corpus.wellFormedFiles()
        guard !files.isEmpty else { return }
        var checked = 0
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            for pretty in [true, false] {
                let json = try ArchiveJSON.encode(archive, options: .init(pretty: pretty))
                let back = try ArchiveJSON.decode(json)
                let written = try ArchiveWriter.write(back, policy: .recorded)
                #expect(written == bytes, "\(name) (pretty: \(pretty)): JSON round trip changed the bytes")
                // The decoded archive encodes to the same JSON again.
                #expect(try ArchiveJSON.encode(back, options: .init(pretty: pretty)) == json, "\(name): JSON not stable")
            }
            checked += 1
        }
        print("lossless JSON round trip: \(checked) corpus files byte-identical")
        #expect(checked > 90)
    }

    @Test func byteOrderChangedInJSONMatchesTheWriter() throws {
        let files = Corpus.wellFormedFiles()
        guard !files.isEmpty else { return }
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let other: ByteOrder = archive.header.byteOrder == .big ? .little : .big
            let json = String(decoding: try ArchiveJSON.encode(archive), as: UTF8.self)
            let from = "\"byteOrder\": \"\(archive.header.byteOrder.rawValue)\""
            #expect(json.contains(from), "\(name): header byte order not found")
            let edited = json.replacingOccurrences(of: from, with: "\"byteOrder\": \"\(other.rawValue)\"")
            let converted = try ArchiveWriter.write(ArchiveJSON.decode(Array(edited.utf8)), policy: .recorded)
            let expected = try ArchiveWriter.write(archive, policy: .recorded, byteOrder: other)
            #expect(converted == expected, "\(name): byte-order conversion through JSON differs from the writer's")
        }
    }

    @Test func jsonHoldsNoRawCopyOfTheInput() throws {
        let files = Corpus.wellFormedFiles()
        guard !files.isEmpty else { return }
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let json = try ArchiveJSON.encode(archive)
            // A hex or base64 copy of the whole file would be at least this long.
            let hexOfFile = bytes.map { String($0, radix: 16) }.joined()
            #expect(!String(decoding: json, as: UTF8.self).contains(hexOfFile.prefix(64)), "\(name): the JSON contains the file's bytes")
        }
    }

    @Test func plainJSONParsesForEveryCorpusFile() throws {
        let files = Corpus.wellFormedFiles()
        guard !files.isEmpty else { return }
        for (name, bytes) in files {
            let archive = try ArchiveReader.read(bytes)
            let text = try PlainJSON.encode(archive)
            let parsed = try JSONValue.parse(text)
            guard case .array(let values)? = parsed["values"] else {
                Issue.record("\(name): plain JSON has no values array")
                continue
            }
            #expect(values.count == archive.groups.reduce(0) { $0 + $1.values.count }, "\(name)")
        }
    }
}
