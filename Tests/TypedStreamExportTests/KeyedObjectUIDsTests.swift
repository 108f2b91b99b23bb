import Testing
import TestSupport
@testable import TypedStreamExport

/// ``KeyedObjectUIDs``: the UID of every object noted, through growth, and none for objects
/// never noted, as a dictionary by identity would give them.
@Suite struct KeyedObjectUIDsTests {
    final class Object {}

    @Test func uidsMatchADictionary() {
        let seed = TestSeed.resolve("TYPEDSTREAM_SEED", label: "KeyedObjectUIDsTests")
        var generator = SplitMix64(seed: seed)
        // Kept alive for the whole test, so no address is reused.
        let objects = (0..<20_000).map { _ in Object() }
        var table = KeyedObjectUIDs()
        var expected: [ObjectIdentifier: UInt32] = [:]
        #expect(table[ObjectIdentifier(objects[0])] == nil)
        for (step, object) in objects.enumerated() {
            let id = ObjectIdentifier(object)
            // About two objects in three are noted, in the order they come.
            if UInt8.random(in: 0..<3, using: &generator) != 0 {
                let uid = UInt32.random(in: 0...UInt32.max, using: &generator)
                table.insert(id, uid: uid)
                expected[id] = uid
            }
            // A few earlier objects, noted or not, are looked up again as the table grows.
            let earlier = ObjectIdentifier(objects[Int.random(in: 0...step, using: &generator)])
            #expect(table[earlier] == expected[earlier], "seed \(seed), step \(step)")
        }
        for object in objects {
            let id = ObjectIdentifier(object)
            #expect(table[id] == expected[id], "seed \(seed)")
        }
    }
}
