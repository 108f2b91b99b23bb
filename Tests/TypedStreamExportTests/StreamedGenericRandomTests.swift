import Foundation
import Testing
@testable import TypedStream
import TypedStreamFoundation
import TestSupport

/// Seeded random graphs of classes nobody registered — generic objects whose groups hold class
/// values, objects inside several-value groups, arrays and structs of objects, `@` slots naming
/// classes, C strings — decoded streaming and over the graph: the same objects (re-encoded to
/// the same bytes), the same warnings or the same error. The seed is printed; set RANDOM_SEED
/// to replay one.
@Suite struct StreamedGenericRandomTests {
    /// The re-encoded top-level items and warnings of a decode, whether it streamed to the end,
    /// or its error.
    static func outcome(_ bytes: [UInt8], streaming: Bool) -> (result: Result<([UInt8], [String]), CoderError>, streamed: Bool) {
        var options = Unarchiver.Options()
        options.streaming = streaming
        do {
            let decoder = try Unarchiver(bytes: bytes, registry: ClassRegistry(), options: options)
            let items = try decoder.decodeTopLevelItems()
            let encoder = Archiver(header: decoder.archive.header)
            try encoder.encodeTopLevelItems(items)
            return (.success((try encoder.encodedBytes(), decoder.warnings)), decoder.isStreaming)
        } catch {
            return (.failure(error), false)
        }
    }

    @Test func genericObjectsStreamAsTheGraphDecodesThem() throws {
        let seed = ProcessInfo.processInfo.environment["RANDOM_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("genericObjectsStreamAsTheGraphDecodesThem seed: \(seed) (replay with RANDOM_SEED=\(seed))")
        var seeds = SplitMix64(seed: seed)
        var compared = 0, streamedToTheEnd = 0
        for iteration in 0..<300 {
            let archiveSeed = seeds.next()
            var builder = RandomArchive(seed: archiveSeed)
            guard let bytes = try? ArchiveWriter.write(builder.archive(), policy: .recorded), bytes.first == 4 else { continue }
            let streamed = Self.outcome(bytes, streaming: true)
            let graphed = Self.outcome(bytes, streaming: false)
            let context = "iteration \(iteration), archive seed \(archiveSeed) (run seed \(seed))"
            switch (streamed.result, graphed.result) {
            case (.success(let a), .success(let b)):
                #expect(a.0 == b.0, "\(context): re-encoded bytes differ")
                #expect(a.1 == b.1, "\(context): warnings differ")
                compared += 1
                if streamed.streamed { streamedToTheEnd += 1 }
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(context)")
            default:
                Issue.record("\(context): streaming \(streamed.result), graph \(graphed.result)")
            }
        }
        print("genericObjectsStreamAsTheGraphDecodesThem: \(compared) compared, \(streamedToTheEnd) streamed to the end")
        #expect(compared > 100)
        #expect(streamedToTheEnd > compared / 2)
    }
}
