import Foundation
import Testing
@testable import TypedStream
import TestSupport

/// A test object with any number of links, each unconditional or conditional, in a set order
/// (a `Node` has one of each, unconditional first, which cannot put a conditional link before
/// the place its target is written).
final class Bag: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("Bag", version: 1), .nsObject] }
    var name: Int32 = 0
    var links: [(target: Bag?, conditional: Bool)] = []
    init() {}
    init(_ name: Int32) { self.name = name }

    func decodeContents(with decoder: some ObjectDecoder) throws {
        name = try decoder.decode()
        let count: Int32 = try decoder.decode()
        for _ in 0..<count {
            let conditional: UInt8 = try decoder.decode()
            links.append((try decoder.decodeObject(of: Bag.self), conditional != 0))
        }
    }

    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encode(name)
        try encoder.encode(Int32(links.count))
        for link in links {
            try encoder.encode(UInt8(link.conditional ? 1 : 0))
            if link.conditional { try encoder.encodeConditionalObject(link.target) } else { try encoder.encodeObject(link.target) }
        }
    }
}

/// A codec that fails after writing part of its contents.
final class FailingHalfway: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("FailingHalfway", version: 0), .nsObject] }
    struct Failure: Error {}
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {}
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encode(Int32(1))
        throw Failure()
    }
}

/// The `Archiver` writes as it goes: one pass for a root object unless a conditional object
/// comes before it is written, the same bytes either way, and an encode that fails part-way
/// through an object leaves the encoder refusing.
struct ArchiverStreamingTests {
    static let registry: ClassRegistry = {
        var registry = ClassRegistry()
        registry.register(Bag.self, forClassName: "Bag")
        return registry
    }()

    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["TYPEDSTREAM_SEED"], let value = UInt64(text) { return value }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }()

    /// Random graphs of bags with conditional and unconditional links (cycles included): a
    /// conditional link decodes to its target exactly when the target is reachable from the
    /// root by unconditional links (NSArchiver's rule, which the single pass must keep when it
    /// falls back to two passes), every unconditional link to its target, and the bytes read
    /// back and written again are the same.
    @Test func randomGraphsKeepTheConditionalRule() throws {
        print("ArchiverStreamingTests seed \(Self.seed) (TYPEDSTREAM_SEED=\(Self.seed) replays)")
        var generator = SplitMix64(seed: Self.seed)
        var withConditionals = 0, withoutConditionals = 0
        for round in 0..<300 {
            let count = Int.random(in: 1...12, using: &generator)
            let bags = (0..<count).map { Bag(Int32($0)) }
            for bag in bags {
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    let target = Int.random(in: 0...count, using: &generator)
                    bag.links.append((target == count ? nil : bags[target], Bool.random(using: &generator)))
                }
            }
            // Reachable from the root by unconditional links.
            var reached: Set<Int32> = [0]
            var stack = [bags[0]]
            while let bag = stack.popLast() {
                for link in bag.links where !link.conditional {
                    if let target = link.target, reached.insert(target.name).inserted { stack.append(target) }
                }
            }
            let bytes = try Archiver.archivedBytes(withRootObject: bags[0])
            let root = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? Bag, "round \(round)")
            // Walk both graphs side by side.
            var decodedByName: [Int32: Bag] = [:]
            var pending: [(Bag, Bag)] = [(bags[0], root)]
            while let (original, decoded) = pending.popLast() {
                if let seen = decodedByName[original.name] {
                    #expect(seen === decoded, "round \(round): bag \(original.name) decoded twice")
                    continue
                }
                decodedByName[original.name] = decoded
                #expect(decoded.name == original.name, "round \(round)")
                #expect(decoded.links.count == original.links.count, "round \(round)")
                for (link, again) in zip(original.links, decoded.links) {
                    #expect(again.conditional == link.conditional, "round \(round)")
                    if let target = link.target, !link.conditional || reached.contains(target.name) {
                        let decodedTarget = try #require(again.target, "round \(round): link to \(target.name) lost")
                        pending.append((target, decodedTarget))
                    } else {
                        #expect(again.target == nil, "round \(round): a conditional link to an unreached bag was kept")
                    }
                }
            }
            #expect(Set(decodedByName.keys) == reached, "round \(round)")
            #expect(try ArchiveWriter.write(ArchiveReader.read(bytes)) == bytes, "round \(round)")
            if bags.contains(where: { $0.links.contains { $0.conditional && $0.target != nil } }) { withConditionals += 1 } else { withoutConditionals += 1 }
        }
        #expect(withConditionals > 0 && withoutConditionals > 0)
    }

    /// The bytes of a small graph whose conditional link comes before its target is written,
    /// so the single pass falls back: the target is written in full at the conditional link,
    /// and the later unconditional link refers to it.
    @Test func conditionalBeforeItsTargetIsWrittenInFullThere() throws {
        let root = Bag(0), early = Bag(1), target = Bag(2)
        root.links = [(early, false), (target, false)]
        early.links = [(target, true)]
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        let decoded = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? Bag)
        let decodedEarly = try #require(decoded.links[0].target)
        let decodedTarget = try #require(decodedEarly.links[0].target)
        #expect(decodedTarget.name == 2)
        #expect(decoded.links[1].target === decodedTarget)
        // The target's bytes come inside `early`'s contents, before the root's second link.
        let reader = try ArchiveReader.read(bytes)
        guard case .object(let rootEntry?, _) = reader.groups[0].values[0],
              case .object(let earlyEntry?, _) = rootEntry.groups[3].values[0],
              case .object(let targetEntry?, _) = earlyEntry.groups[3].values[0] else {
            Issue.record("unexpected graph shape")
            return
        }
        #expect(targetEntry.groups.count == 2)  // written in full (name, count of links)
        guard case .object(let reference?, _) = rootEntry.groups[5].values[0] else {
            Issue.record("expected the second link")
            return
        }
        #expect(reference === targetEntry)
    }

    /// A conditional link met while an object is built as a graph entry (its codec's values
    /// go into the entry's groups, not the bytes) to an object already written by the stream:
    /// a reference inside the entry.
    @Test func conditionalToAStreamedObjectInsideAGraphEntry() throws {
        let early = Bag(1), inner = Bag(2)
        inner.links = [(early, true)]
        let rootHolder = RootHolder(early: early, holder: PairHolder(inner))
        let bytes = try Archiver.archivedBytes(withRootObject: rootHolder)
        var registry = Self.registry
        registry.register(PairHolder.self, forClassName: "PairHolder")
        registry.register(RootHolder.self, forClassName: "RootHolder")
        let decoded = try #require(try Unarchiver(bytes: bytes, registry: registry).decodeRootObject() as? RootHolder)
        let decodedEarly = try #require(decoded.early)
        let decodedInner = try #require(decoded.holder?.inner)
        #expect(decodedInner.name == 2)
        #expect(decodedInner.links.first?.target === decodedEarly)
        #expect(try ArchiveWriter.write(ArchiveReader.read(bytes)) == bytes)
    }

    @Test func aCodecFailingPartWayLeavesTheEncoderRefusing() throws {
        let encoder = Archiver()
        try encoder.encode(Int32(7))
        #expect(throws: CoderError.self) { try encoder.encodeObject(FailingHalfway()) }
        // Every later call, and the bytes, give that error.
        #expect(throws: CoderError.self) { try encoder.encode(Int32(8)) }
        #expect(throws: CoderError.self) { _ = try encoder.encodedBytes() }
        // The graph holds what was complete.
        #expect(encoder.archive.groups.count == 1)
    }

    @Test func aRootWhoseCodecFailsLeavesTheEncoderAsItWas() throws {
        let encoder = Archiver()
        try encoder.encode(Int32(7))
        let root = Bag(1)
        root.links = [(Bag(2), false)]
        let holder = FailingHolder(root)
        #expect(throws: CoderError.self) { try encoder.encodeRootObject(holder) }
        // Nothing of the failed root was kept: the same bag written now is written in full.
        try encoder.encodeRootObject(root)
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes(), registry: Self.registry)
        #expect(try decoder.decode(Int32.self) == 7)
        let decoded = try #require(try decoder.decodeObject(of: Bag.self))
        #expect(decoded.name == 1)
        #expect(decoded.links.first?.target?.name == 2)
    }

    @Test func anErrorBeforeAnythingIsWrittenLeavesTheEncoderUsable() throws {
        let encoder = Archiver()
        try encoder.encode(Int32(7))
        #expect(throws: CoderError(.invalidValue, "")) { try encoder.encodeValue(.float(1, form: nil), ofObjCType: "i") }
        #expect(throws: CoderError(.invalidValue, "")) { try encoder.encodeValues([.integer(1, width: nil)], ofObjCTypes: "ii") }
        #expect(throws: CoderError(.invalidValue, "")) { try encoder.encodeObject(NotArchivable()) }
        try encoder.encode(Int32(8))
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes())
        #expect(try decoder.decode(Int32.self) == 7)
        #expect(try decoder.decode(Int32.self) == 8)
    }

    @Test func archiveIsTheGraphOfTheBytesWritten() throws {
        let encoder = Archiver()
        try encoder.encode(Int32(7))
        let bag = Bag(3)
        bag.links = [(bag, false)]
        try encoder.encodeObject(bag)
        try encoder.encodeValues([.integer(1, width: nil), try encoder.archivedValue(for: Bag(4))], ofObjCTypes: "i@")
        let archive = encoder.archive
        #expect(archive.groups.count == 3)
        #expect(try ArchiveWriter.write(archive) == encoder.encodedBytes())
    }

    @Test func byteSlicesAreWrittenAsCountedBytes() throws {
        let bytes: [UInt8] = Array("hello, slices".utf8)
        let slice = bytes[7...]
        let first = Archiver(), second = Archiver()
        try first.encodeByteSlice(slice)
        try first.encodeByteSlice(nil)
        try second.encodeBytes(Array(slice))
        try second.encodeBytes(nil)
        #expect(try first.encodedBytes() == second.encodedBytes())
        let decoder = try Unarchiver(bytes: try first.encodedBytes())
        #expect(try decoder.decodeByteSlice().map(Array.init) == Array(slice))
        #expect(try decoder.decodeByteSlice() == nil)
    }
}

/// Not an `ArchivableObject`.
final class NotArchivable {}

/// Holds a bag it encodes as a value of a two-value group (`archivedValue(for:)`: the bag is
/// built as a graph entry before its group is written).
final class PairHolder: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("PairHolder", version: 0), .nsObject] }
    var inner: Bag?
    init() {}
    init(_ inner: Bag) { self.inner = inner }
    func decodeContents(with decoder: some ObjectDecoder) throws {
        let values = try decoder.decodeValues(ofObjCTypes: "@i")
        guard case .object(let entry?, _) = values[0] else { return }
        inner = try decoder.object(for: entry) as? Bag
    }
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeValues([encoder.archivedValue(for: inner), .integer(7, width: nil)], ofObjCTypes: "@i")
    }
}

/// Writes `early` by the stream, then a `PairHolder`.
final class RootHolder: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("RootHolder", version: 0), .nsObject] }
    var early: Bag?
    var holder: PairHolder?
    init() {}
    init(early: Bag, holder: PairHolder) { self.early = early; self.holder = holder }
    func decodeContents(with decoder: some ObjectDecoder) throws {
        early = try decoder.decodeObject(of: Bag.self)
        holder = try decoder.decodeObject(of: PairHolder.self)
    }
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeObject(early)
        try encoder.encodeObject(holder)
    }
}

/// Encodes a bag, then fails.
final class FailingHolder: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("FailingHolder", version: 0), .nsObject] }
    let bag: Bag?
    init() { bag = nil }
    init(_ bag: Bag) { self.bag = bag }
    func decodeContents(with decoder: some ObjectDecoder) throws {}
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeObject(bag)
        throw FailingHalfway.Failure()
    }
}
