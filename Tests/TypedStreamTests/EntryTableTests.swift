import Testing
@testable import TypedStream
import TestSupport

/// `EntryTable` against a plain dictionary, operation by operation, with source slots of every
/// sort (missing, negative, huge, repeated, out of order).
@Suite("Entry table")
struct EntryTableTests {
    final class Entry {}

    @Test func agreesWithADictionary() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("EntryTableTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        for round in 0..<50 {
            let entries = (0..<Int(random.next() % 300 + 1)).map { _ in Entry() }
            let sources: [Int?] = entries.indices.map { n in
                switch random.next() % 8 {
                case 0: nil
                case 1: -1 - Int(random.next() % 5)
                case 2: Int.max - Int(random.next() % 5)
                case 3: Int(random.next() % 5000)
                case 4: Int(random.next() % 8)  // crowded: places taken
                default: n
                }
            }
            var table = EntryTable()
            var model: [ObjectIdentifier: Int] = [:]
            for step in 0..<(entries.count * 3) {
                let n = Int(random.next() % UInt64(entries.count))
                let entry = entries[n]
                if random.next() % 2 == 0 {
                    table.record(step, for: entry, source: sources[n])
                    model[ObjectIdentifier(entry)] = step
                }
                let probe = Int(random.next() % UInt64(entries.count))
                #expect(table.value(for: entries[probe], source: sources[probe]) == model[ObjectIdentifier(entries[probe])],
                        "seed \(seed), round \(round), step \(step)")
            }
            for (n, entry) in entries.enumerated() {
                #expect(table.value(for: entry, source: sources[n]) == model[ObjectIdentifier(entry)], "seed \(seed), round \(round)")
            }
        }
    }
}

/// The writer finds the slots it gave objects, classes and C strings by identity, through an
/// `EntryTable` at their source slot numbers (`sourceIndex`). Whatever those numbers say —
/// missing, negative, huge, repeated, from another archive — the bytes written must be the same.
@Suite("Written slots")
struct WrittenSlotsTests {
    /// Every object, class and C-string entry reachable from `archive`, each once.
    static func entries(of archive: Archive) -> [AnyObject] {
        var seen = Set<ObjectIdentifier>()
        var found: [AnyObject] = []
        var pending: [ArchivedValue] = archive.groups.flatMap(\.values)
        func add(_ entry: AnyObject) -> Bool {
            guard seen.insert(ObjectIdentifier(entry)).inserted else { return false }
            found.append(entry)
            return true
        }
        func addChain(_ first: ArchivedClass?) {
            var link = first
            while let entry = link, add(entry) { link = entry.superclass }
        }
        while let value = pending.popLast() {
            switch value {
            case .object(let object?, _):
                if add(object) {
                    addChain(object.archivedClass)
                    pending += object.groups.flatMap(\.values)
                }
            case .objectSlotClass(let entry, _), .classObject(let entry?, _):
                addChain(entry)
            case .cString(let entry?, _):
                _ = add(entry)
            case .array(let values), .structure(let values):
                pending += values
            default:
                break
            }
        }
        return found
    }

    /// Sets the source slot of every entry with `pick`.
    static func renumber(_ entries: [AnyObject], _ pick: (Int) -> Int?) {
        for (n, entry) in entries.enumerated() {
            switch entry {
            case let object as ArchivedObject: object.sourceIndex = pick(n)
            case let entry as ArchivedClass: entry.sourceIndex = pick(n)
            case let entry as ArchivedCString: entry.sourceIndex = pick(n)
            default: Issue.record("unexpected entry \(entry)")
            }
        }
    }

    /// Archives with objects, shared classes, references and C strings: the corpus when it is
    /// there, and always the package's samples.
    static var inputs: [Corpus.File] {
        ((Corpus.files ?? []) + Corpus.samples).filter { !$0.isMalformed && !$0.isGNUstep && $0.name.hasSuffix(".typedstream") }
    }

    @Test func sourceSlotsNeverChangeTheBytes() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WrittenSlotsTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        let inputs = Self.inputs
        #expect(inputs.count >= 3)
        for file in inputs {
            let archive = try ArchiveReader.read(file.bytes)
            let entries = Self.entries(of: archive)
            for policy in [ArchiveWriter.Policy.recorded, .archiver] {
                let expected = try ArchiveWriter.write(archive, policy: policy)
                if policy == .recorded { #expect(expected == file.bytes, "\(file)") }
                let original = entries.map { ($0 as? ArchivedObject)?.sourceIndex ?? ($0 as? ArchivedClass)?.sourceIndex ?? ($0 as? ArchivedCString)?.sourceIndex }
                let schemes: [(String, (Int) -> Int?)] = [
                    ("none", { _ in nil }),
                    ("all the same", { _ in 0 }),
                    ("reversed", { entries.count - 1 - $0 }),
                    ("negative", { -1 - $0 }),
                    ("huge", { Int.max - $0 }),
                    ("random", { _ in
                        switch random.next() % 5 {
                        case 0: nil
                        case 1: Int(truncatingIfNeeded: random.next())
                        default: Int(random.next() % UInt64(entries.count + 4))
                        }
                    }),
                ]
                for (name, pick) in schemes {
                    Self.renumber(entries, pick)
                    #expect(try ArchiveWriter.write(archive, policy: policy) == expected, "\(file), \(policy), \(name), seed \(seed)")
                }
                Self.renumber(entries) { original[$0] }
            }
        }
    }

    /// Objects of two archives, whose source slots coincide, written into one.
    @Test func objectsOfTwoArchivesInOne() throws {
        let inputs = Self.inputs
        guard inputs.count >= 2 else { Issue.record("needs two inputs"); return }
        for (a, b) in zip(inputs, inputs.dropFirst()) {
            let first = try ArchiveReader.read(a.bytes)
            let second = try ArchiveReader.read(b.bytes)
            guard first.header.byteOrder == second.header.byteOrder, first.header.streamerVersion == 4, second.header.streamerVersion == 4 else { continue }
            let both = Archive(header: first.header, groups: first.groups + second.groups + first.groups)
            let written = try ArchiveWriter.write(both, policy: .archiver)
            // The same graph with no source slots at all goes through the dictionary alone.
            let entries = Self.entries(of: both)
            Self.renumber(entries) { _ in nil }
            #expect(try ArchiveWriter.write(both, policy: .archiver) == written, "\(a) + \(b)")
            // And it reads back: the second copy of the first archive's groups is references.
            let again = try ArchiveReader.read(written)
            #expect(again.groups.count == both.groups.count)
        }
    }
}
