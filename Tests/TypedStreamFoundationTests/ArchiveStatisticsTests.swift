import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

@Suite("Archive statistics")
struct ArchiveStatisticsTests {
    @Test func countsTypedAndGenericObjects() throws {
        let thing = GenericObject()
        thing.archiveClassChain = [ArchiveClassLink("MyThing", version: 3), .nsObject]
        let shared = StringObject("s")
        let bytes = try archived(ArrayObject([shared, thing, NumberObject(int: 1), shared, thing]))
        let stats = try ArchiveStatistics.compute(bytes: bytes)
        #expect(stats.objects == 4)
        #expect(stats.typed == 3)
        #expect(stats.generic == 1)
        #expect(stats.typedShare == 0.75)
        #expect(stats.perClass == [
            "NSArray": .init(typed: 1), "NSString": .init(typed: 1), "NSNumber": .init(typed: 1), "MyThing": .init(generic: 1),
        ])
        #expect(stats.warnings.isEmpty)
        // With an empty registry everything is generic.
        let bare = try ArchiveStatistics.compute(bytes: bytes, registry: ClassRegistry())
        #expect(bare.typed == 0 && bare.generic == 4)
    }

    @Test func unsupportedVersionIsGenericWithAWarning() throws {
        let bytes = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSDate", 0x07, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "d", 0x01, 0x86,
        ])
        let stats = try ArchiveStatistics.compute(bytes: bytes)
        #expect(stats.objects == 1 && stats.generic == 1)
        #expect(stats.perClass["NSDate"] == .init(generic: 1))
        #expect(stats.warnings.count == 1)
    }

    @Test func emptyAndMalformedArchives() throws {
        let empty = try ArchiveStatistics.compute(bytes: wire(appleHeader))
        #expect(empty.objects == 0 && empty.typedShare == 1)
        #expect(throws: CoderError(.malformed, "")) { try ArchiveStatistics.compute(bytes: [0x04, 0x0B]) }
    }
}

/// The statistics counted from the streaming decode equal those counted over the graph.
@Suite("Archive statistics, streaming against graph")
struct ArchiveStatisticsAgreementTests {
    static func agree(_ bytes: [UInt8], _ name: String) {
        let streamed = Result { try ArchiveStatistics.compute(bytes: bytes) }
        let graphed = Result { () throws -> ArchiveStatistics in
            let archive: Archive
            do { archive = try ArchiveReader.read(bytes) } catch let error as WireError { throw CoderError(error) }
            return try ArchiveStatistics.compute(archive: archive)
        }
        switch (streamed, graphed) {
        case (.success(let a), .success(let b)):
            #expect(a.objects == b.objects && a.typed == b.typed && a.generic == b.generic, "\(name)")
            #expect(a.perClass == b.perClass, "\(name)")
            #expect(a.warnings == b.warnings, "\(name)")
        case (.failure(let a), .failure(let b)):
            let offsets = ((a as? CoderError)?.offset, (b as? CoderError)?.offset)
            #expect(offsets.0 == offsets.1, "\(name)")
        default:
            Issue.record("\(name): one way failed, the other did not: \(streamed) / \(graphed)")
        }
    }

    @Test func onGeneratedArchives() throws {
        let thing = GenericObject()
        thing.archiveClassChain = [ArchiveClassLink("MyThing", version: 3), .nsObject]
        let shared = StringObject("s")
        let root = ArrayObject([shared, thing, NumberObject(int: 1), shared, thing, ArrayObject([StringObject("t"), shared])])
        Self.agree(try archived(root), "generated")
    }

    @Test(.needsCorpus)
    func onTheCorpus() throws {
        let files = try #require(FoundationCorpusTests.corpusFiles())
        for (name, bytes) in files { Self.agree(bytes, name) }
    }
}
