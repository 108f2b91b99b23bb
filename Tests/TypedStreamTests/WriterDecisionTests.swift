import Testing
@testable import TypedStream

/// The writer's default wire decisions, stated once (``IntegerPlace``, ``SharedStringTable``,
/// ``ArchiveWriter/archiverForm(_:)``) and followed by ``ArchiveWriter``.
@Suite struct WriterDecisionTests {
    @Test func integerPlaces() {
        #expect(IntegerPlace.short.archiverChoice(for: -32768) == .int16)
        #expect(IntegerPlace.integer.archiverChoice(for: -32768) == .int32)
        #expect(IntegerPlace.counted.archiverChoice(for: 127) == .inline)
        #expect(IntegerPlace.counted.archiverChoice(for: 128) == .int16)
        #expect(!IntegerPlace.short.allows(.int32))
        #expect(!IntegerPlace.counted.allows(.int64))
        #expect(IntegerPlace.integer.allows(.int64))
        // Recorded: kept when allowed and big enough, else NSArchiver's choice.
        #expect(IntegerPlace.integer.width(recorded: .int32, for: 5) == .int32)
        #expect(IntegerPlace.short.width(recorded: .int32, for: 5) == .inline)
        #expect(IntegerPlace.counted.width(recorded: .int64, for: 5) == .inline)
        #expect(IntegerPlace.integer.width(recorded: .inline, for: 300) == .int16)
        #expect(IntegerWidth.archiverChoice(forReferenceTo: 0) == .inline)        // label −110
        #expect(IntegerWidth.archiverChoice(forReferenceTo: 237) == .inline)      // label 127
        #expect(IntegerWidth.archiverChoice(forReferenceTo: 238) == .int16)
        #expect(IntegerPlace.referenceWidth(recorded: .int32, slot: 3) == .int32)
        #expect(IntegerWidth(name: "int16") == .int16)
        #expect(IntegerWidth(name: "int8") == nil)
    }

    @Test func sharedStringsAsTheWriterDecides() {
        var table = SharedStringTable()
        let a = ArraySlice("NSString".utf8), b = ArraySlice("@".utf8)
        #expect(table.decision(for: a, recorded: nil) == .literal(length: .inline))
        table.record(a, .literal(length: .inline))
        #expect(table.decision(for: a, recorded: nil) == .reference(index: 0, width: .inline))
        // A recorded literal of a text seen before is followed; its slot is new.
        #expect(table.decision(for: a, recorded: .literal(length: .int16)) == .literal(length: .int16))
        table.record(a, .literal(length: .int16))
        #expect(table.firstSlot(sameAs: 1) == 0)
        #expect(table.archiverDecision(forTextOf: 1) == .reference(index: 0, width: .inline))
        // A recorded reference to a slot of other text, or a width readers refuse, is not.
        #expect(table.decision(for: b, recorded: .reference(index: 0, width: .inline)) == .literal(length: .inline))
        #expect(table.decision(for: a, recorded: .reference(index: 1, width: .int64)) == .reference(index: 1, width: .inline))
        #expect(table.decision(for: a, recorded: .reference(index: -1, width: .inline)) == .reference(index: 0, width: .inline))
        #expect(table.decision(for: a, recorded: .literal(length: .int64)) == .literal(length: .inline))
        // Past the searched texts the table hashes, with the same answers.
        for n in 0..<40 { table.record(ArraySlice("t\(n)".utf8), .literal(length: .inline)) }
        table.record(ArraySlice("t7".utf8), .literal(length: .inline))
        #expect(table.firstSlot(sameAs: 42) == 9)
        #expect(table.firstSlot(of: ArraySlice("t7".utf8)) == 9)
        #expect(table.decision(for: ArraySlice("t39".utf8), recorded: nil) == .reference(index: 41, width: .inline))
    }

    @Test func realForms() {
        #expect(ArchiveWriter.archiverForm(Float(3)) == .integral(.inline))
        #expect(ArchiveWriter.archiverForm(Float(0.5)) == .ieee)
        #expect(ArchiveWriter.archiverForm(3e9 as Double, systemVersion: 1000) == .ieee)
        #expect(ArchiveWriter.followedForm(.integral(.inline), integral: 300, fallback: .ieee) == .integral(.int16))
        #expect(ArchiveWriter.followedForm(.integral(.int32), integral: nil, fallback: .ieee) == .ieee)
        #expect(ArchiveWriter.followedForm(nil, integral: 3, fallback: .integral(.inline)) == .integral(.inline))
    }

    /// A recorded width readers would refuse in its place is not written: the archive reads back.
    @Test func theWriterDoesNotWriteWidthsReadersRefuse() throws {
        let group = ArchivedGroup(typeString: ArraySlice("si".utf8), types: [.short, .int],
                                  values: [.integer(7, width: .int32), .integer(7, width: .int32)])
        let bytes = try ArchiveWriter.write(Archive(groups: [group]))
        let values = try #require(ArchiveReader.read(bytes).groups.first).values
        guard case .integer(7, .inline?) = values[0], case .integer(7, .int32?) = values[1] else {
            Issue.record("read back \(values)")
            return
        }
    }
}
