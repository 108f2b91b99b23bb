import Testing
import TestSupport
@testable import TypedStream

/// ``ByteStringIndex``: the first slot of each text, as a dictionary from text to first slot
/// would give it, through growth, empty texts and texts that share prefixes.
@Suite struct ByteStringIndexTests {
    @Test func firstSlotsMatchADictionary() {
        let seed = TestSeed.resolve("TYPEDSTREAM_SEED", label: "ByteStringIndexTests")
        var generator = SplitMix64(seed: seed)
        var texts: [ArraySlice<UInt8>] = []
        var index = ByteStringIndex()
        var expected: [ArraySlice<UInt8>: Int] = [:]
        for slot in 0..<5_000 {
            // Short texts over a small alphabet, so many repeat; some are empty.
            let length = Int.random(in: 0...4, using: &generator)
            let text = ArraySlice((0..<length).map { _ in UInt8.random(in: 97...100, using: &generator) })
            let known = texts
            #expect(index.slot(of: text) { known[$0] } == expected[text], "seed \(seed), slot \(slot)")
            let first = index.firstSlot(of: text, filing: slot) { known[$0] }
            #expect(first == expected[text, default: slot], "seed \(seed), slot \(slot)")
            expected[text] = expected[text, default: slot]
            texts.append(text)
        }
        #expect(index.count == expected.count)
    }

    @Test func slicesOfOneBufferAreComparedByContent() {
        let bytes = Array("abcabcab".utf8)
        let texts = [bytes[0..<3], bytes[3..<6], bytes[6..<8], bytes[0..<2]]
        var index = ByteStringIndex()
        let firsts = texts.indices.map { slot in index.firstSlot(of: texts[slot], filing: slot) { texts[$0] } }
        #expect(firsts == [0, 0, 2, 2])
        #expect(index.slot(of: ArraySlice("abc".utf8)) { texts[$0] } == 0)
        #expect(index.slot(of: ArraySlice("abcd".utf8)) { texts[$0] } == nil)
        #expect(ByteStringIndex().slot(of: []) { texts[$0] } == nil)
    }
}
