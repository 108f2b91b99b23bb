import Testing
@testable import TypedStream

/// The readers reserve the object table from a count of `0x84` bytes made sixteen bytes at a time; it
/// must equal the plain count for every length and alignment.
@Suite("Counting 0x84 bytes")
struct NewTagCountTests {
    @Test func wordCountEqualsThePlainCount() {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("0x84 count: seed \(seed)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        for length in 0..<300 {
            // Mostly 0x84 and its near neighbours (0x04, 0x80, 0x85, 0xC4), which a faulty mask
            // would confuse with it.
            let alphabet: [UInt8] = [0x84, 0x84, 0x04, 0x80, 0x85, 0xC4, 0x00, 0xFF]
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let plain = bytes.count(where: { $0 == HeadByte.new })
            #expect(TokenReader.countNewTags(bytes) == plain, "length \(length), seed \(seed)")
        }
        // Long runs: every lane full for many words (the lane sums are flushed every 255 words).
        for length in [1_001, 2_040, 2_047, 2_048, 2_049, 100_003] {
            #expect(TokenReader.countNewTags(Array(repeating: 0x84, count: length)) == length)
        }
    }
}
