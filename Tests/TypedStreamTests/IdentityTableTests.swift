import Testing
@testable import TypedStream

/// `IdentityTable`, the `Unarchiver`'s map from graph entries to decoded instances, against a
/// standard dictionary under random sets and lookups (growth, replacement, misses).
@Suite("Identity table")
struct IdentityTableTests {
    final class Box {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func agreesWithADictionary() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("IdentityTableTests seed \(seed)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        for startingCapacity in [0, 1, 7, 100] {
            // The keys live as long as the table: identities of freed objects could be reused.
            let keys = (0..<2_000).map { Box($0) }
            var table = IdentityTable<Int>(capacity: startingCapacity)
            var model: [ObjectIdentifier: Int] = [:]
            for step in 0..<20_000 {
                let key = ObjectIdentifier(keys[Int(random.next() % UInt64(step < 5_000 ? 300 : keys.count))])
                if random.next() % 3 == 0 {
                    table.set(step, for: key)
                    model[key] = step
                } else {
                    #expect(table[key] == model[key])
                }
                #expect(table.count == model.count)
            }
            for key in keys.map(ObjectIdentifier.init) { #expect(table[key] == model[key]) }
        }
    }

    @Test func anEmptyTableFindsNothing() {
        let box = Box(1)
        let table = IdentityTable<Box>()
        #expect(table[ObjectIdentifier(box)] == nil)
        #expect(table.count == 0)
    }
}
