import Testing
import TypedStream
import TestSupport

/// Seeded single-byte mutations of every corpus typedstream: each mutated file must either
/// read — and then write back to the same bytes — or throw ``WireError`` with an offset inside
/// the file. Never trap.
///
/// The seed is printed; repeat a run with `TYPEDSTREAM_MUTATION_SEED=<seed>`. The number of
/// mutations per file is `TYPEDSTREAM_MUTATIONS` (default 12, which keeps a debug run short).
struct MutationTests {
    @Test(.needsCorpus) func singleByteMutationsOfTheCorpus() throws {
        let files = RobustnessSupport.corpusFiles()
        let root = try #require(RobustnessSupport.corpusDirectory)
        try #require(!files.isEmpty, "no files in \(root)")
        let environment = RobustnessSupport.environment
        let seed = environment["TYPEDSTREAM_MUTATION_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let perFile = environment["TYPEDSTREAM_MUTATIONS"].flatMap { Int($0) } ?? 12
        print("MutationTests: seed \(seed), \(perFile) mutations per file, \(files.count) files (TYPEDSTREAM_MUTATION_SEED=\(seed) repeats this run)")
        var generator = SplitMix64(seed: seed)
        var read = 0, refused = 0
        for file in files {
            let original = try RobustnessSupport.read(root + "/" + file)
            guard !original.isEmpty else { continue }
            for _ in 0..<perFile {
                var bytes = original
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                let value = UInt8.random(in: 1...255, using: &generator)
                bytes[position] ^= value  // always a different byte
                switch RobustnessSupport.readAll(bytes) {
                case .success(let tokens):
                    read += 1
                    var writer = TokenWriter(capacity: bytes.count)
                    #expect(throws: Never.self, "seed \(seed): \(file) with byte \(position) ^ \(value): the writer refused the tokens") {
                        try writer.write(tokens)
                    }
                    #expect(writer.bytes == bytes, "seed \(seed): \(file) with byte \(position) ^ \(value) reads but does not write back the same bytes")
                case .failure(let error):
                    refused += 1
                    #expect(error.offset >= 0 && error.offset <= bytes.count && !error.reason.isEmpty,
                            "seed \(seed): \(file) with byte \(position) ^ \(value): \(error)")
                }
            }
        }
        print("MutationTests: \(read) mutated files still read, \(refused) refused with a WireError")
        #expect(read + refused == files.count * perFile)
    }
}
