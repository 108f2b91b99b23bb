import Foundation
import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// Seeded random graphs: writing the graph, and writing what its JSON decodes to, give the same
/// bytes. The seed is printed; set RANDOM_SEED to replay one.
@Suite struct ArchiveJSONRandomTests {
    /// The token encoder (what `decode --json` streams) writes what the graph encoder writes.
    @Test func tokenEncoderMatchesTheGraphEncoder() throws {
        let seed = ProcessInfo.processInfo.environment["RANDOM_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("tokenEncoderMatchesTheGraphEncoder seed: \(seed) (replay with RANDOM_SEED=\(seed))")
        var seeds = SplitMix64(seed: seed)
        var compared = 0
        for iteration in 0..<300 {
            let archiveSeed = seeds.next()
            var builder = RandomArchive(seed: archiveSeed)
            guard let bytes = try? ArchiveWriter.write(builder.archive(), policy: .recorded),
                  let index = try? ArchiveIndex(bytes: bytes), let graph = try? ArchiveReader.read(bytes) else { continue }
            for pretty in [true, false] {
                let capture = CapturedOutput()
                var out = OutputWriter(sink: capture, capacity: 300)
                try ArchiveJSON.write(index, options: .init(pretty: pretty), to: &out)
                out.flush()
                #expect(capture.bytes == (try ArchiveJSON.encode(graph, options: .init(pretty: pretty))),
                        "iteration \(iteration), archive seed \(archiveSeed) (run seed \(seed)), pretty \(pretty)")
            }
            compared += 1
        }
        #expect(compared > 200)
    }

    @Test func randomGraphsRoundTripThroughJSON() throws {
        let seed = ProcessInfo.processInfo.environment["RANDOM_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("randomGraphsRoundTripThroughJSON seed: \(seed) (replay with RANDOM_SEED=\(seed))")
        var seeds = SplitMix64(seed: seed)
        // Every kind of recorded decision must have been exercised by the end.
        let features = ["Wire\"", "{\"literal\"", "\"width\"", "\"form\"", "\"raw\"", "\"f32bits\"", "\"f64bits\"", "\"hex\"", "\"size\"", "\"type\":null", "\"versionWidth\"", "\"systemVersionWidth\""]
        var seen = Set<String>()
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
            let compactText = String(decoding: try ArchiveJSON.encode(archive, options: .init(pretty: false)), as: UTF8.self)
            for feature in features where compactText.firstRange(of: feature) != nil { seen.insert(feature) }
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
        #expect(seen == Set(features), "never exercised: \(Set(features).subtracting(seen).sorted())")
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

    /// Makes every shared-string decision of a graph that was read from bytes non-default but
    /// still writable: references get int32 labels, literals int16 lengths.
    final class Perturber {
        var visited = Set<ObjectIdentifier>()

        func decision(_ d: SharedStringDecision?) -> SharedStringDecision? {
            switch d {
            case .reference(let index, _)?: .reference(index: index, width: .int32)
            case .literal?: .literal(length: .int16)
            case nil: nil
            }
        }

        func chain(_ first: ArchivedClass?) {
            var current = first
            while let c = current, visited.insert(ObjectIdentifier(c)).inserted {
                c.nameDecision = decision(c.nameDecision)
                current = c.superclass
            }
        }

        func groups(_ groups: [ArchivedGroup]) -> [ArchivedGroup] {
            groups.map { group in
                var group = group
                group.typeStringDecision = decision(group.typeStringDecision)
                group.values = group.values.map(value)
                return group
            }
        }

        func value(_ v: ArchivedValue) -> ArchivedValue {
            switch v {
            case .sharedString(let text, let d): return .sharedString(text, decision: decision(d))
            case .cString(let entry?, _):
                if visited.insert(ObjectIdentifier(entry)).inserted { entry.textDecision = decision(entry.textDecision) }
                return v
            case .object(let object?, _):
                if visited.insert(ObjectIdentifier(object)).inserted {
                    chain(object.archivedClass)
                    object.groups = groups(object.groups)
                }
                return v
            case .classObject(let entry, _): chain(entry); return v
            case .array(let values): return .array(values.map(value))
            case .structure(let values): return .structure(values.map(value))
            default: return v
            }
        }
    }

    @Test func sharedStringReferenceDecisionsSurvive() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("sharedStringReferenceDecisionsSurvive seed: \(seed)")
        var seeds = SplitMix64(seed: seed)
        var archives = [SampleArchive.make()]
        for _ in 0..<60 { var b = RandomArchive(seed: seeds.next()); archives.append(b.archive()) }
        var references = 0
        for (i, original) in archives.enumerated() where original.header.streamerVersion == 4 {
            var archive = try ArchiveReader.read(ArchiveWriter.write(original))
            archive.groups = Perturber().groups(archive.groups)
            let expected = try ArchiveWriter.write(archive, policy: .recorded)
            let json = try ArchiveJSON.encode(archive, options: .init(pretty: false))
            references += String(decoding: json, as: UTF8.self).ranges(of: #"{"reference":"#).count
            #expect(try ArchiveWriter.write(ArchiveJSON.decode(json)) == expected, "archive \(i) (seed \(seed))")
        }
        #expect(references > 0)
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
        var raised = DecodingLimits()
        raised.maximumNesting = limit + 1
        let back = try ArchiveJSON.decode(json, options: .init(limits: raised))
        // The writer, like readers, refuses it with the default limits.
        #expect(throws: WireError(.limitExceeded, at: 0, "")) { try ArchiveWriter.write(back) }
        let written = try ArchiveWriter.write(back, limits: raised)
        #expect(written == (try ArchiveWriter.write(deeper, limits: raised)))
        #expect(try ArchiveReader.read(written, limits: raised).groups.count == 1)
    }
}
