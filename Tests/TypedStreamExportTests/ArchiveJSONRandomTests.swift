import Foundation
import Testing
import TypedStream
@testable import TypedStreamExport

/// Seeded random graphs: writing the graph, and writing what its JSON decodes to, give the same
/// bytes. The seed is printed; set RANDOM_SEED to replay one.
@Suite struct ArchiveJSONRandomTests {
    @Test func randomGraphsRoundTripThroughJSON() throws {
        let seed = ProcessInfo.processInfo.environment["RANDOM_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("randomGraphsRoundTripThroughJSON seed: \(seed) (replay with RANDOM_SEED=\(seed))")
        var seeds = SplitMix64(seed: seed)
        for iteration in 0..<300 {
            let archiveSeed = seeds.next()
            var builder = RandomArchive(seed: archiveSeed)
            let archive = builder.archive()
            let context = "iteration \(iteration), archive seed \(archiveSeed) (run seed \(seed))"
            let expected: [UInt8]
            do {
                expected = try ArchiveWriter.write(archive, policy: .recorded)
            } catch {
                Issue.record("\(context): the generator made an unwritable archive: \(error)")
                continue
            }
            let json = try ArchiveJSON.encode(archive, options: .init(pretty: iteration % 2 == 0))
            let decoded: Archive
            do {
                decoded = try ArchiveJSON.decode(json)
            } catch {
                Issue.record("\(context): \(error)\n\(String(decoding: json, as: UTF8.self))")
                continue
            }
            let written = try ArchiveWriter.write(decoded, policy: .recorded)
            #expect(written == expected, "\(context): bytes differ")
            #expect(try ArchiveJSON.encode(decoded, options: .init(pretty: iteration % 2 == 0)) == json, "\(context): JSON not stable")
            // The bytes read back also survive the JSON round trip.
            if let reread = try? ArchiveReader.read(expected) {
                #expect(try ArchiveWriter.write(ArchiveJSON.decode(ArchiveJSON.encode(reread))) == expected, "\(context): read → JSON → write differs")
            } else if archive.header.streamerVersion == 4 {
                Issue.record("\(context): a v4 archive the writer made does not read back")
            }
            if written != expected { break }
        }
    }

    @Test func everyFloatAndDoubleBitPatternKindSurvives() throws {
        let floats: [UInt32] = [0, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7FC0_0001, 0xFFC1_2345, 0x7F80_0001,
                                0x0000_0001, 0x807F_FFFF, 0x7F7F_FFFF, 0x3DCC_CCCD, 0x4B80_0000, 0x4F00_0000, 0xCF00_0000]
        let doubles: [UInt64] = [0, 0x8000_0000_0000_0000, 0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0000,
                                 0x7FF8_0000_0000_0001, 0x7FF0_0000_0000_0001, 0x0000_0000_0000_0001, 0x7FEF_FFFF_FFFF_FFFF,
                                 0x3FB9_9999_9999_999A, 0x41D4_A2F4_0000_0000, 0xC1CC_0E4A_4000_0000]
        var values: [ArchivedValue] = []
        var type = ""
        for bits in floats {
            for form in [nil, RealForm.ieee] {
                values.append(.float(Float(bitPattern: bits), form: form))
                type += "f"
            }
        }
        for bits in doubles {
            for form in [nil, RealForm.ieee] {
                values.append(.double(Double(bitPattern: bits), form: form))
                type += "d"
            }
        }
        let archive = Archive(groups: [SampleArchive.group(type, values)])
        let decoded = try ArchiveJSON.decode(ArchiveJSON.encode(archive))
        #expect(try ArchiveWriter.write(decoded) == ArchiveWriter.write(archive))
        for (a, b) in zip(archive.groups[0].values, decoded.groups[0].values) {
            switch (a, b) {
            case (.float(let x, _), .float(let y, _)): #expect(x.bitPattern == y.bitPattern)
            case (.double(let x, _), .double(let y, _)): #expect(x.bitPattern == y.bitPattern)
            default: Issue.record("value kind changed")
            }
        }
    }

    /// Objects nested `levels` deep.
    static func nested(_ levels: Int) -> Archive {
        let node = ArchivedClass(name: "Node".utf8, version: 0)
        var inner: ArchivedValue = .object(nil, referenceWidth: nil)
        for _ in 0..<levels {
            inner = .object(ArchivedObject(archivedClass: node, groups: [SampleArchive.group("@", [inner])]), referenceWidth: nil)
        }
        return Archive(groups: [SampleArchive.group("@", [inner])])
    }

    @Test func nestingUpToTheLimitRoundTripsAndBeyondIsRefused() throws {
        let limit = ArchiveJSON.defaultMaximumNesting
        let deepest = Self.nested(limit)
        let bytes = try ArchiveWriter.write(deepest)
        #expect(try ArchiveWriter.write(ArchiveJSON.decode(ArchiveJSON.encode(deepest))) == bytes)
        #expect(throws: Never.self) { try PlainJSON.encode(deepest) }

        let deeper = Self.nested(limit + 1)
        #expect(throws: ArchiveJSONError(.limitExceeded, "")) { try ArchiveJSON.encode(deeper) }
        #expect(throws: ArchiveJSONError(.limitExceeded, "")) { try PlainJSON.encode(deeper) }
        // With raised limits on both sides it goes through.
        let json = try ArchiveJSON.encode(deeper, options: .init(maximumNesting: limit + 1))
        #expect(throws: ArchiveJSONError(.limitExceeded, "")) { try ArchiveJSON.decode(json) }
        let back = try ArchiveJSON.decode(json, options: .init(maximumNesting: limit + 1))
        #expect(try ArchiveWriter.write(back) == ArchiveWriter.write(deeper))
    }
}
