import Testing
@testable import TypedStream

/// The encoder's own tables: identity → number (open addressing) and the small map that
/// searches before it hashes.
struct EncoderTablesTests {
    final class Thing {}

    @Test func identityTableFindsEveryObjectThroughGrowth() {
        let things = (0..<5_000).map { _ in Thing() }
        var table = IdentityTable()
        for (index, thing) in things.enumerated() {
            #expect(table[ObjectIdentifier(thing)] == nil)
            table.record(index, for: ObjectIdentifier(thing))
        }
        #expect(table.count == things.count)
        for (index, thing) in things.enumerated() where table[ObjectIdentifier(thing)] != index {
            Issue.record("object \(index) found as \(table[ObjectIdentifier(thing)].map(String.init) ?? "nothing")")
        }
        // Replacing keeps the count; an object never recorded is not found.
        table.record(-1, for: ObjectIdentifier(things[42]))
        #expect(table[ObjectIdentifier(things[42])] == -1)
        #expect(table.count == things.count)
        let stranger = Thing()
        #expect(table[ObjectIdentifier(stranger)] == nil)
        // A copy is a value: changing it leaves the original as it was.
        var copy = table
        copy.record(7, for: ObjectIdentifier(stranger))
        #expect(copy[ObjectIdentifier(stranger)] == 7)
        #expect(table[ObjectIdentifier(stranger)] == nil)
    }

    @Test func smallMapFindsKeysBeforeAndAfterItStartsHashing() {
        var map = SmallMap<String, Int>()
        let count = SmallMap<String, Int>.searchedCount * 3
        for index in 0..<count { map.insert(index, for: "key \(index)") }
        for index in 0..<count { #expect(map["key \(index)"] == index) }
        #expect(map["absent"] == nil)
    }
}
