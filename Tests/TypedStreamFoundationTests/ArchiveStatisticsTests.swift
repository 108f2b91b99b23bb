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
