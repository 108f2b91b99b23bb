import Testing
@testable import TypedStream

/// Groups share their head (type string, types, how it was written): a reader makes one per
/// shared string and way of writing it, yet every group stays a value of its own.
@Suite("Group heads")
struct GroupHeadTests {
    /// Every group of an archive's graph: the top level's, then those of every object reached
    /// from them (each object once).
    static func allGroups(of archive: Archive) -> [ArchivedGroup] {
        var groups = archive.groups
        var visited = Set<ObjectIdentifier>()
        var pending = archive.groups.flatMap(\.values)
        while let value = pending.popLast() {
            guard case .object(let object?, _) = value, visited.insert(ObjectIdentifier(object)).inserted else { continue }
            groups += object.groups
            pending += object.groups.flatMap(\.values)
        }
        return groups
    }

    /// In the graph of the samples, groups with the same type string written the same way share
    /// one head, and groups that differ in either never do.
    @Test func readGraphsShareOneHeadPerTypeStringAndDecision() throws {
        var shared = 0
        for file in Corpus.samples where !file.isMalformed && file.name.hasSuffix(".typedstream") {
            let groups = Self.allGroups(of: try ArchiveReader.read(file.bytes))
            var heads: [String: ObjectIdentifier] = [:]
            var owners: [ObjectIdentifier: String] = [:]
            for group in groups {
                let key = "\(group.typeText) \(String(describing: group.typeStringDecision))"
                let head = ObjectIdentifier(group.head)
                if let known = heads[key] {
                    #expect(known == head, "\(file): two heads for \(key)")
                    shared += 1
                } else {
                    heads[key] = head
                }
                #expect(owners[head, default: key] == key, "\(file): one head for \(key) and \(owners[head] ?? "")")
                owners[head] = key
            }
        }
        #expect(shared > 0, "the samples must repeat a type string")
    }

    /// Changing a group's type string, types or decision gives it a head of its own: a group
    /// that shared the head keeps what it had.
    @Test func changingAGroupLeavesTheOthersAlone() throws {
        let file = try #require(Corpus.samples.first { $0.name == "strings-array.typedstream" })
        let groups = Self.allGroups(of: try ArchiveReader.read(file.bytes))
        let pair = try #require(zip(groups.indices, groups.indices.dropFirst()).lazy.map { (groups[$0], groups[$1]) }
            .first { $0.0.head === $0.1.head })
        var (changed, kept) = pair
        let before = (kept.typeString.map(Array.init), kept.types, kept.typeStringDecision)

        changed.typeString = ArraySlice("i".utf8)
        #expect(changed.head !== kept.head)
        changed = pair.0
        changed.types = [.int]
        #expect(changed.types == [.int] && changed.typeString.map(Array.init) == before.0)
        changed = pair.0
        changed.typeStringDecision = .literal(length: .int16)
        #expect(changed.typeStringDecision == .literal(length: .int16))

        #expect(kept.typeString.map(Array.init) == before.0)
        #expect(kept.types == before.1)
        #expect(kept.typeStringDecision == before.2)
        kept = pair.1
        #expect(kept.head === pair.0.head)
    }
}
