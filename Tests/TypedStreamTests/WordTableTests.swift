import Testing
@testable import TypedStream
import TestSupport

/// `WordTable`, the map of the `Unarchiver`'s decoded instances (by identity) and of the
/// readers' compiled type strings (by hash), against a standard dictionary under random sets
/// and lookups: growth, replacement, misses, keys that share their low bits.
@Suite("Word table")
struct WordTableTests {
    final class Box {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func agreesWithADictionary() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WordTableTests seed \(seed)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        for startingCapacity in [0, 1, 7, 100] {
            // Words of three shapes: random, multiples of 4 096 (only high bits differ), small.
            let words: [UInt64] = (0..<2_000).map { index in
                switch index % 3 {
                case 0: return random.next() | 1
                case 1: return UInt64(index + 1) << 12
                default: return UInt64(index + 1)
                }
            }
            var table = WordTable<Int>(capacity: startingCapacity)
            var model: [UInt64: Int] = [:]
            for step in 0..<20_000 {
                let word = words[Int(random.next() % UInt64(step < 5_000 ? 300 : words.count))]
                switch random.next() % 6 {
                case 0, 1:
                    table.set(step, for: word)
                    model[word] = step
                case 2:
                    table.setIfAbsent(step, for: word)
                    if model[word] == nil { model[word] = step }
                default:
                    #expect(table[word] == model[word])
                }
                #expect(table.count == model.count)
            }
            for word in words { #expect(table[word] == model[word]) }
        }
    }

    @Test func findsObjectsByIdentity() {
        // The boxes live as long as the table: a freed object's address could be reused.
        let boxes = (0..<500).map { Box($0) }
        var table = WordTable<Box>()
        #expect(table[ObjectIdentifier(boxes[0])] == nil)
        for box in boxes where box.number % 2 == 0 { table.set(box, for: ObjectIdentifier(box)) }
        #expect(table.count == 250)
        for box in boxes {
            let found = table[ObjectIdentifier(box)]
            #expect(box.number % 2 == 0 ? found === box : found == nil)
        }
    }
}
