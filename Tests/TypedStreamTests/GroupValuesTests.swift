import Testing
@testable import TypedStream

/// A group keeps a single value in place (``GroupValues/one``) and any other number in an array;
/// the public ``ArchivedGroup/values`` reads and writes the same either way.
@Suite("Group values")
struct GroupValuesTests {
    static var values: [ArchivedValue] { [.integer(7, width: .inline), .byte(3), .sharedString(ArraySlice("a".utf8), decision: nil)] }

    /// Every count from none to three, set through the initializer and through `values`, read
    /// back through `values`, `valueCount` and `value(at:)`.
    @Test func everyCountReadsBackTheSame() {
        for count in 0...Self.values.count {
            let wanted = Array(Self.values.prefix(count))
            var group = ArchivedGroup(typeString: nil, types: [], values: wanted)
            for candidate in [group, { var g = ArchivedGroup(typeString: nil, types: [], values: [.ignored, .ignored]); g.values = wanted; return g }()] {
                #expect(candidate.valueCount == count)
                #expect(candidate.values.map(Self.describe) == wanted.map(Self.describe))
                #expect((0..<count).map { Self.describe(candidate.value(at: $0)) } == wanted.map(Self.describe))
                if case .one = candidate.storage { #expect(count == 1) } else { #expect(count != 1) }
            }
            // Changing the values in place (get, change, set) leaves a group of one more value.
            group.values.append(.ignored)
            #expect(group.valueCount == count + 1)
            #expect(Self.describe(group.value(at: count)) == Self.describe(.ignored))
        }
    }

    /// A graph read from disk keeps every single value in place; the samples still write back
    /// byte for byte (the corpus does so in the round-trip tests).
    @Test func readGraphsKeepSingleValuesInPlace() throws {
        for file in Corpus.samples where !file.isMalformed && file.name.hasSuffix(".typedstream") {
            let archive = try ArchiveReader.read(file.bytes)
            var seen = 0
            for group in GroupHeadTests.allGroups(of: archive) {
                if case .one = group.storage { seen += 1 } else { #expect(group.valueCount != 1, "\(file)") }
            }
            #expect(seen > 0, "\(file): no group of one value")
            #expect(try ArchiveWriter.write(archive) == file.bytes, "\(file)")
        }
    }

    private static func describe(_ value: ArchivedValue) -> String { String(describing: value) }
}
