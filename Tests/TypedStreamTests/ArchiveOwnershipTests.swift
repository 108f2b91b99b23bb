import ObjCTypeEncoding
import Testing
@testable import TypedStream

/// An archive read by ``ArchiveReader`` owns its objects: its end frees cyclic graphs, and an
/// object kept past it is detached — loudly, never as an object that seems to hold nothing.
@Suite("Archives own their objects")
struct ArchiveOwnershipTests {
    static let objectType: [ObjCType] = [.object(className: nil)]

    /// A `"@"` group holding `object`.
    static func group(_ object: ArchivedObject?) -> ArchivedGroup {
        ArchivedGroup(typeString: ArraySlice("@".utf8), types: objectType, values: [.object(object, referenceWidth: nil)])
    }

    /// The bytes of a root `Box` holding `links` `Link` objects, one group each, link n
    /// referring to link n − 1 (link 0 to nil).
    static func chainBytes(links: Int) throws -> [UInt8] {
        let linkClass = ArchivedClass(name: Array("Link".utf8), version: 0)
        let root = ArchivedObject(archivedClass: ArchivedClass(name: Array("Box".utf8), version: 0))
        var previous: ArchivedObject? = nil
        var groups: [ArchivedGroup] = []
        for _ in 0..<links {
            let link = ArchivedObject(archivedClass: linkClass, groups: [group(previous)])
            groups.append(group(link))
            previous = link
        }
        root.groups = groups
        return try ArchiveWriter.write(Archive(groups: [group(root)]))
    }

    /// The bytes of an object whose only group refers to itself.
    static func selfLoopBytes() throws -> [UInt8] {
        let loop = ArchivedObject(archivedClass: ArchivedClass(name: Array("Loop".utf8), version: 0))
        loop.groups = [group(loop)]
        defer { loop.groups = [] }  // the hand-made cycle, broken by hand
        return try ArchiveWriter.write(Archive(groups: [group(loop)]))
    }

    /// The root object of `archive`.
    static func root(of archive: Archive) -> ArchivedObject? {
        guard case .object(let root?, _) = archive.groups.first?.value(at: 0) else { return nil }
        return root
    }

    @Test("A cyclic archive is freed with its last copy")
    func cyclesAreFreed() throws {
        let bytes = try Self.selfLoopBytes()
        weak var weakLoop: ArchivedObject?
        do {
            let archive = try ArchiveReader.read(bytes)
            let loop = try #require(Self.root(of: archive))
            guard case .object(let inner?, _) = loop.groups.first?.value(at: 0) else { Issue.record("no self-reference"); return }
            #expect(inner === loop)
            weakLoop = loop
        }
        #expect(weakLoop == nil)
    }

    @Test("An object kept past its archive is detached: class and slot kept, groups refused")
    func keptObjectIsDetached() throws {
        let bytes = try Self.chainBytes(links: 3)
        var archive: Archive? = try ArchiveReader.read(bytes)
        let root = try #require(archive.flatMap(Self.root))
        #expect(!root.isDetached)
        #expect(root.groups.count == 3)
        archive = nil
        #expect(root.isDetached)
        #expect(root.className == "Box")
        #expect(root.sourceIndex == 0)
        #expect(root.storedGroups.isEmpty)
        // Giving it groups of its own makes it whole again.
        root.groups = [Self.group(nil)]
        #expect(!root.isDetached)
        #expect(root.groups.count == 1)
    }

    @Test("Reading the groups of a detached object stops the program")
    func detachedReadTraps() async {
        await #expect(processExitsWith: .failure) {
            let bytes = try ArchiveOwnershipTests.chainBytes(links: 2)
            var archive: Archive? = try ArchiveReader.read(bytes)
            let root = archive.flatMap(ArchiveOwnershipTests.root)
            archive = nil
            _ = root?.groups.count
        }
    }

    @Test("A graph kept alive by its archive is whole, however long its reference chain")
    func longChainIsWholeAndFreed() throws {
        let links = 40_000
        let bytes = try Self.chainBytes(links: links)
        weak var weakRoot: ArchivedObject?
        weak var weakFirst: ArchivedObject?
        do {
            let archive = try ArchiveReader.read(bytes)
            let root = try #require(Self.root(of: archive))
            #expect(root.groups.count == links)
            guard case .object(let last?, _) = root.groups[links - 1].value(at: 0),
                  case .object(let first?, _) = root.groups[0].value(at: 0) else { Issue.record("no links"); return }
            guard case .object(let before?, _) = last.groups[0].value(at: 0) else { Issue.record("no link before"); return }
            #expect(before.sourceIndex == last.sourceIndex! - 1)
            weakRoot = root
            weakFirst = first
            // The archive is written back the same, byte for byte.
            #expect(try ArchiveWriter.write(archive) == bytes)
        }
        // Freed here, by a loop: a recursive teardown of 40 000 links would overflow the stack.
        #expect(weakRoot == nil)
        #expect(weakFirst == nil)
    }

    @Test("A link kept from a long chain is detached, and the rest is freed")
    func keptLinkOfLongChain() throws {
        let bytes = try Self.chainBytes(links: 40_000)
        var archive: Archive? = try ArchiveReader.read(bytes)
        weak var weakRoot: ArchivedObject?
        var keptLink: ArchivedObject?
        do {
            let root = try #require(archive.flatMap(Self.root))
            if case .object(let link?, _) = root.groups[20_000].value(at: 0) { keptLink = link }
            weakRoot = root
        }
        archive = nil
        let kept = try #require(keptLink)
        #expect(weakRoot == nil)
        #expect(kept.isDetached)
        #expect(kept.className == "Link")
    }
}
