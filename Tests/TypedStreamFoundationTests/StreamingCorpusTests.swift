import Foundation
import Testing
@testable import TypedStream
@testable import TypedStreamFoundation

/// The streaming decode against the graph decode, on every real archive of `../shared/corpus`
/// and every sample of `Samples/`: the same typed objects (re-encoded to the same bytes), the
/// same warnings, the same error where decoding fails — and every streamer-4 archive streams
/// from start to end without the graph.
@Suite("Streaming decode: corpus")
struct StreamingCorpusTests {
    /// What decoding `bytes` with the Foundation codecs gives: the typed top-level items
    /// re-encoded, the warnings, whether the decode streamed to the end; or the error.
    static func outcome(_ bytes: [UInt8], streaming: Bool) -> (result: Result<([UInt8], [String]), CoderError>, streamed: Bool) {
        var options = Unarchiver.Options()
        options.streaming = streaming
        do {
            let decoder = try Unarchiver(bytes: bytes, registry: .foundation, options: options)
            let items = try decoder.decodeTopLevelItems()
            let encoder = Archiver(header: decoder.archive.header)
            try encoder.encodeTopLevelItems(items)
            return (.success((try encoder.encodedBytes(), decoder.warnings)), decoder.isStreaming)
        } catch {
            return (.failure(error), false)
        }
    }

    static func sampleFiles() throws -> [(name: String, bytes: [UInt8])] {
        let directory = SamplesTests.root + "/Samples"
        var files: [(String, [UInt8])] = []
        let walker = FileManager.default.enumerator(atPath: directory)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".typedstream") || path.hasSuffix(".bin") else { continue }
            files.append(("Samples/" + path, try FileShim.read(directory + "/" + path)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func streamingGivesWhatTheGraphGives() throws {
        var files = try Self.sampleFiles()
        if let corpus = FoundationCorpusTests.corpusFiles() { files += corpus.map { ("corpus/" + $0.name, $0.bytes) } }
        #expect(files.count > 100)
        var streamedToTheEnd = 0, decoded = 0, decodedStreamer4 = 0
        for (name, bytes) in files {
            let streamed = Self.outcome(bytes, streaming: true)
            let graphed = Self.outcome(bytes, streaming: false)
            switch (streamed.result, graphed.result) {
            case (.success(let a), .success(let b)):
                decoded += 1
                #expect(a.0 == b.0, "\(name): re-encoded bytes differ at \(firstDifference(a.0, b.0) ?? -1)")
                #expect(a.1 == b.1, "\(name): warnings differ")
                if streamed.streamed { streamedToTheEnd += 1 }
                if bytes.first == 4 { decodedStreamer4 += 1 }
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(name)")
            default:
                Issue.record("\(name): streaming \(streamed.result), graph \(graphed.result)")
            }
        }
        print("streaming: \(files.count) files, \(decoded) decoded, \(streamedToTheEnd) of them streamed to the end without the graph")
        // Every streamer-4 archive the codecs decode streams to its end (streamer 3 goes over
        // the graph), generic objects, class values and objects inside groups included.
        #expect(streamedToTheEnd == decodedStreamer4)
    }
}
