import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation
import TestSupport

/// Seeded random object graphs of every Foundation codec, with shared references (the same
/// instance used more than once): Archiver → bytes → Unarchiver must give the same natural values,
/// and re-encoding the decoded graph must give the same bytes. Set `TYPEDSTREAM_SEED` to replay.
@Suite("Random Foundation graphs")
struct RandomGraphTests {
    struct Maker {
        var rng: SplitMix64
        /// Finished objects that may be used again (never an ancestor, so no cycles).
        var pool: [AnyObject] = []
        var dictionaries: [DictionaryObject] = []

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

        static let pieces = ["a", "Z", " ", "é", "e\u{301}", "👍🏽", "🇫🇷", "漢", "\u{FFFC}", "\n"]

        mutating func text() -> String {
            (0..<int(0...6)).map { _ in Self.pieces[int(0...Self.pieces.count - 1)] }.joined()
        }

        mutating func real() -> Double {
            switch int(0...4) {
            case 0: Double(int(-40000...40000))
            case 1: Double(int(-1000...1000)) / 8
            case 2: Double.random(in: -1e12...1e12, using: &rng)
            case 3: [0.1, -0.0, 1e300, -.infinity, 2147483648.0][int(0...4)]
            default: Double(int(0...3_000_000_000))
            }
        }

        mutating func number() -> NumberObject {
            switch int(0...5) {
            case 0: return NumberObject(bool: chance(50))
            case 1:
                let type = ["s", "i", "l", "q"][int(0...3)]
                let bits = ["s": 15, "i": 31, "l": 31, "q": 62][type]!
                let v = Int64.random(in: -(1 << bits)...(1 << bits), using: &rng)
                return (try? NumberObject(.int(v), objCType: type)) ?? NumberObject(int: v)
            case 2:
                let type = ["C", "S", "I", "L", "Q"][int(0...4)]
                let bits = ["C": 8, "S": 16, "I": 32, "L": 32, "Q": 64][type]!
                let v = bits == 64 ? UInt64.random(in: 0...UInt64.max, using: &rng) : UInt64.random(in: 0...((1 << UInt64(bits)) - 1), using: &rng)
                return (try? NumberObject(.uint(v), objCType: type)) ?? NumberObject(.uint(v))
            case 3: return NumberObject(.float(Float(real())))
            case 4: return (try? NumberObject(.int(Int64(int(2...127)) * (chance(50) ? 1 : -1)), objCType: "c")) ?? NumberObject(int: 2)
            default: return NumberObject(double: real())
            }
        }

        mutating func geometry() -> ValueObject {
            let encoding: GeometryEncoding = chance(50) ? .cgFloat64 : .nsFloat32
            // Values exact in both float and double, so the 32-bit form loses nothing.
            func exact(_ m: inout Maker) -> Double { Double(m.int(-4096...4096)) / 4 }
            switch int(0...3) {
            case 0: return ValueObject(.point(x: exact(&self), y: exact(&self)), encoding: encoding)
            case 1: return ValueObject(.size(width: exact(&self), height: exact(&self)), encoding: encoding)
            case 2: return ValueObject(.rect(x: exact(&self), y: exact(&self), width: exact(&self), height: exact(&self)), encoding: encoding)
            default:
                let limit: UInt64 = encoding == .cgFloat64 ? .max : UInt64(UInt32.max)
                return ValueObject(.range(location: UInt64.random(in: 0...limit, using: &rng), length: UInt64(int(0...70000))), encoding: encoding)
            }
        }

        mutating func url() -> URLObject {
            let absolute = URLObject(string: "https://example.com/\(int(0...99))/")
            guard chance(40) else { return absolute }
            let base = chance(50) ? absolute : (pool.lazy.compactMap { $0 as? URLObject }.first ?? absolute)
            return URLObject(string: "p\(int(0...9)).html?q=\(int(0...9))", base: base)
        }

        mutating func leaf() -> AnyObject {
            switch int(0...8) {
            case 0, 1: return StringObject(text(), mutable: chance(30))
            case 2: return number()
            case 3: return DataObject((0..<int(0...40)).map { _ in UInt8(int(0...255)) }, mutable: chance(40))
            case 4: return DateObject(timeIntervalSinceReferenceDate: real())
            case 5: return NullObject()
            case 6: return geometry()
            case 7: return url()
            default: return number()
            }
        }

        mutating func attributes() -> DictionaryObject {
            if !dictionaries.isEmpty, chance(40) { return dictionaries[int(0...dictionaries.count - 1)] }
            let dictionary = DictionaryObject((0..<int(0...3)).map { _ in (StringObject("attr\(int(0...5))") as AnyObject, leaf()) }, mutable: chance(20))
            dictionaries.append(dictionary)
            return dictionary
        }

        mutating func attributedString() -> AttributedStringObject {
            let string = text()
            var remaining = string.utf16.count
            var runs: [AttributedStringObject.Run] = []
            while remaining > 0 {
                let length = int(1...remaining)
                runs.append(.init(length: length, attributes: attributes()))
                remaining -= length
            }
            return AttributedStringObject(string, runs: runs, mutable: chance(40))
        }

        mutating func element(depth: Int) -> AnyObject? {
            if chance(3) { return nil }
            return object(depth: depth)
        }

        mutating func object(depth: Int) -> AnyObject {
            if depth > 0, !pool.isEmpty, chance(25) { return pool[int(0...pool.count - 1)] }
            let made: AnyObject
            // The root is always a container; leaves take over below depth 4.
            switch depth == 0 ? int(0...5) : depth >= 4 ? 9 : int(0...12) {
            case 0, 1: made = ArrayObject((0..<int(0...5)).map { _ in element(depth: depth + 1) }, mutable: chance(40))
            case 2: made = SetObject((0..<int(0...3)).map { _ in element(depth: depth + 1) }, mutable: chance(40))
            case 3, 4:
                let count = int(0...3)
                let dictionary = DictionaryObject()
                for _ in 0..<count {
                    let key: AnyObject? = chance(80) ? StringObject("k\(int(0...4))") : element(depth: depth + 1)
                    dictionary.entries.append(.init(key: key, value: element(depth: depth + 1)))
                }
                if chance(40) { dictionary.archiveClassChain = DictionaryObject.mutableChain }
                made = dictionary
            case 5: made = attributedString()
            default: made = leaf()
            }
            pool.append(made)
            return made
        }
    }

    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["TYPEDSTREAM_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }

    @Test func randomGraphsRoundTrip() throws {
        let seed = Self.seed()
        print("RandomGraphTests seed: \(seed) (replay with TYPEDSTREAM_SEED=\(seed))")
        var maker = Maker(rng: SplitMix64(seed: seed))
        var sharedReferences = 0
        for iteration in 0..<150 {
            maker.pool = []
            maker.dictionaries = []
            let root = maker.object(depth: 0)
            let expected = naturalValue(of: root)
            let bytes = try archived(root)
            let decoded = try decodedRoot(bytes)
            #expect(naturalValue(of: decoded) == expected, "seed \(seed), graph \(iteration)")
            let again = try archived(decoded)
            #expect(again == bytes, "seed \(seed), graph \(iteration): first difference at \(firstDifference(again, bytes) ?? -1)")
            #expect(try reencoded(bytes) == bytes, "seed \(seed), graph \(iteration)")
            // Back from the natural value alone: the same natural value.
            if case .nilObject = expected {} else {
                let rebuilt = try archived(FoundationBuilder.object(from: expected))
                #expect(naturalValue(of: try decodedRoot(rebuilt)) == expected, "seed \(seed), graph \(iteration) (builder)")
            }
            let stats = try ArchiveStatistics.compute(bytes: bytes)
            #expect(stats.generic == 0, "seed \(seed), graph \(iteration)")
            sharedReferences += try ArchiveReader.read(bytes).referenceCount
        }
        print("RandomGraphTests: 150 graphs, \(sharedReferences) object references")
        #expect(sharedReferences > 0)
    }
}

extension Archive {
    /// How many `@` values refer back to an object already written (shared references).
    var referenceCount: Int {
        var seen: Set<ObjectIdentifier> = []
        var references = 0
        var pending = groups.flatMap(\.values)
        while let value = pending.popLast() {
            switch value {
            case .object(let entry?, _):
                if !seen.insert(ObjectIdentifier(entry)).inserted { references += 1; continue }
                pending += entry.groups.flatMap(\.values)
            case .array(let values), .structure(let values):
                pending += values
            default:
                break
            }
        }
        return references
    }
}
