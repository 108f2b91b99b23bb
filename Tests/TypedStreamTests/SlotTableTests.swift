import Testing
@testable import TypedStream
import TestSupport

/// `SlotTable`, the reader's object table: an array's copy semantics with appends of its own,
/// checked against plain arrays; and archives with more slots than the readers reserve.
@Suite("Object table")
struct SlotTableTests {
    typealias Entry = TokenReader.SlotEntry

    /// Random appends, changes, reservations and copies, each copy checked against an array
    /// that had the same operations: no copy ever sees another's changes.
    @Test func behavesLikeAnArrayUnderCopies() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("SlotTableTests seed \(seed)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        var tables: [SlotTable] = [SlotTable()]
        var models: [[Entry]] = [[]]
        for step in 0..<20_000 {
            let which = Int(random.next() % UInt64(tables.count))
            switch random.next() % 10 {
            case 0 where tables.count < 8:
                // A copy, which then lives on beside the original.
                tables.append(tables[which])
                models.append(models[which])
            case 1:
                let capacity = Int(random.next() % 300)
                tables[which].reserveCapacity(capacity)
            case 2 where !models[which].isEmpty:
                let index = Int(random.next() % UInt64(models[which].count))
                let entry = Entry(packed: Int32(truncatingIfNeeded: random.next()), offset: UInt32(step))
                tables[which][index] = entry
                models[which][index] = entry
            case 4:
                // The walk's way: made unique once, then appended to without the test.
                tables[which].makeUnique()
                for _ in 0..<Int(random.next() % 40) {
                    let entry = Entry(packed: Int32(truncatingIfNeeded: random.next()), offset: UInt32(step))
                    tables[which].appendToUnique(entry)
                    models[which].append(entry)
                }
            case 3 where tables.count > 1:
                // A copy goes away (its memory may be shared with others).
                tables.remove(at: which)
                models.remove(at: which)
            default:
                let entry = Entry(packed: Int32(truncatingIfNeeded: random.next()), offset: UInt32(step))
                tables[which].append(entry)
                models[which].append(entry)
            }
        }
        for (copy, (table, model)) in zip(tables, models).enumerated() {
            #expect(table.count == model.count, "seed \(seed), copy \(copy)")
            // The first entry that differs, if any (the whole tables would flood the log).
            let differing = zip(table.indices, model).first { table[$0].packed != $1.packed || table[$0].offset != $1.offset }
            #expect(differing == nil, "seed \(seed), copy \(copy): slot \(differing?.0 ?? -1) differs")
        }
    }

    /// Readers start with an empty table whose memory every empty table shares, and a copy of a
    /// reader shares its table: the walk makes the table its own before it appends without
    /// testing (a debug build traps in `appendToUnique` otherwise), so copies keep theirs.
    @Test func theWalkAppendsOnlyToATableOfItsOwn() throws {
        let bytes = Self.topLevelObjects(100)
        var walked = TokenReader(bytes: bytes)
        let copy = walked
        #expect(try walked.scanToEnd().objects == 100)
        #expect(walked.slotEntries.count == 101)  // NSObject and the objects
        #expect(copy.slotEntries.count == 0)
        var again = copy
        #expect(try again.scanToEnd().objects == 100)
        #expect(again.slotEntries.indices.map { again.slotEntries[$0].offset } == walked.slotEntries.indices.map { walked.slotEntries[$0].offset })
        #expect(TokenReader(bytes: bytes).slotEntries.count == 0)
    }

    /// An archive of `count` top-level objects of class NSObject: the first written in full
    /// (type string `"@"` and class literally), then four bytes each (type string #0, a new
    /// object, class #1, end).
    static func topLevelObjects(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        bytes += [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00, 0x85, 0x86]
        for _ in 1..<count { bytes += [0x92, 0x84, 0x93, 0x86] }
        return bytes
    }

    /// The readers reserve one slot per eight bytes; an archive of top-level objects of four
    /// bytes each has two per eight, so the table must grow, and every reader must still agree.
    @Test func archivesDenserThanTheReservationStillRead() throws {
        let count = TokenReader.reservationThreshold / 2  // 2 slots per 8 bytes: a reserved table, outgrown
        let bytes = Self.topLevelObjects(count)
        #expect(bytes.count >= TokenReader.reservationThreshold, "the table must be reserved")
        #expect(count + 1 > bytes.count / 8, "the archive must outgrow the reservation")

        var scanner = TokenReader(bytes: bytes)
        let summary = try scanner.scanToEnd()
        #expect(summary.objects == count)
        #expect(scanner.slotEntries.count == count + 1)

        let index = try ArchiveIndex(bytes: bytes)
        #expect(index.slotCount == count + 1)
        var pull = TokenReader(bytes: bytes)
        #expect(try pull.readAll().count == summary.tokens)
        #expect(pull.objectSlots == scanner.objectSlots)
    }
}
