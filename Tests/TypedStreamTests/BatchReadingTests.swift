import Testing
import TypedStream
import TestSupport

/// ``TokenReader/forEachCompact(_:)`` and ``TokenReader/nextCompact(into:count:)`` give exactly
/// the tokens and the error of ``TokenReader/nextCompact()``.
@Suite("Batch and closure reading agree with the pull reader")
struct BatchReadingTests {
    typealias Outcome = FastPathTests.Outcome

    static func forEach(_ bytes: [UInt8]) -> Outcome {
        var reader = TokenReader(bytes: bytes)
        var tokens: [CompactToken] = []
        do {
            try reader.forEachCompact { tokens.append($0) }
            return .success(tokens)
        } catch {
            return .failure(error)
        }
    }

    static func batched(_ bytes: [UInt8], count: Int) -> Outcome {
        var reader = TokenReader(bytes: bytes)
        var tokens: [CompactToken] = []
        do {
            while true {
                let before = tokens.count
                try reader.nextCompact(into: &tokens, count: count)
                #expect(tokens.count - before <= count)
                if tokens.count - before < count { break }
            }
            // At the end a batch is empty.
            var none: [CompactToken] = []
            try reader.nextCompact(into: &none, count: count)
            #expect(none.isEmpty)
            return .success(tokens)
        } catch {
            return .failure(error)
        }
    }

    /// Samples and their prefixes (truncation lands in every kind of item): same tokens or same
    /// error, for batches of 1, 3 and 512 tokens.
    @Test func samplesAndPrefixesAgree() {
        let samples = Corpus.samples.filter { $0.bytes.count < 4_000 }.prefix(12)
        #expect(!samples.isEmpty)
        for file in samples {
            for length in stride(from: 1, through: file.bytes.count, by: 7) + [file.bytes.count] {
                let prefix = Array(file.bytes[..<length])
                let pulled = FastPathTests.pulled(prefix)
                #expect(Self.forEach(prefix) == pulled, "\(file) cut at \(length)")
                for count in [1, 3, 512] {
                    #expect(Self.batched(prefix, count: count) == pulled, "\(file) cut at \(length), batches of \(count)")
                }
            }
        }
    }
}
