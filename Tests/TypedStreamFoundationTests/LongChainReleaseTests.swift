import Testing
import TypedStream
@testable import TypedStreamFoundation

/// A valid archive may hold a chain of 100 000 objects, each referring to the one before:
/// freeing what it decodes to must not recurse once per link (a stack overflow, signal 11).
@Suite("Long chains are freed without recursion")
struct LongChainReleaseTests {
    static let links = 100_000

    /// An array of `links` arrays, array n holding array n − 1: a chain that only teardown walks.
    static func chainArchive() throws -> [UInt8] {
        var arrays: [AnyObject?] = []
        var previous: ArrayObject? = nil
        for _ in 0..<links {
            let next = ArrayObject(previous.map { [$0] } ?? [])
            arrays.append(next)
            previous = next
        }
        return try Archiver.archivedBytes(withRootObject: ArrayObject(arrays))
    }

    @Test func typedAndGenericChainsAreFreed() throws {
        let bytes = try Self.chainArchive()
        for registry in [ClassRegistry.foundation, ClassRegistry()] {
            var root: AnyObject? = try Unarchiver(bytes: bytes, registry: registry).decodeRootObject()
            let elements = (root as? ArrayObject)?.elements.count ?? (root as? GenericObject)?.objects.count
            #expect(elements == Self.links)
            root = nil  // freed here: a recursive teardown would overflow the stack
        }
    }

    @Test func graphChainIsFreed() throws {
        var archive: Archive? = try ArchiveReader.read(try Self.chainArchive())
        #expect(archive?.groups.count == 1)
        archive = nil
        // A graph made by hand, owned by nobody: each entry refers to the one before.
        let chainClass = ArchivedClass(name: Array("Link".utf8), version: 0)
        var head: ArchivedObject? = nil
        for _ in 0..<Self.links {
            let next = ArchivedObject(archivedClass: chainClass)
            next.groups = [ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [.object(head, referenceWidth: nil)])]
            head = next
        }
        var superclass: ArchivedClass? = nil
        for _ in 0..<Self.links { superclass = ArchivedClass(name: Array("C".utf8), version: 0, superclass: superclass) }
        #expect(head != nil && superclass != nil)
        head = nil
        superclass = nil
    }

    @Test func everyHolderHandsOverItsObjects() {
        // One chain through every kind of holder, repeated: each must hand its objects over.
        var tail: AnyObject = StringObject("end")
        for _ in 0..<(Self.links / 6) {
            tail = ArrayObject([tail])
            tail = SetObject([tail])
            tail = DictionaryObject([(StringObject("k"), tail)])
            tail = ListObject([tail])
            let table = HashTableObject()
            table.entries = [.init(key: .integer(1), value: .object(tail))]
            let storage = StorageObject()
            storage.elementType = Array("@".utf8)
            storage.elements = [.structure([.object(table)])]
            tail = storage
        }
        #expect(tail is StorageObject)
    }
}
