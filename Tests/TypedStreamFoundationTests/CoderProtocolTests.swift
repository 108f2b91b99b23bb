import Testing
import TypedStream
@testable import TypedStreamFoundation

/// The class codecs run on any ``ObjectDecoder`` / ``ObjectEncoder``: through ``TreeArchiver``
/// and ``TreeUnarchiver`` (a coder with no bytes, no ``Unarchiver`` and no ``Archiver``), objects
/// come back that the ``Archiver`` writes to the very bytes it writes for the originals.
@Suite("Coder protocols: a second coder")
struct CoderProtocolTests {
    /// A root reaching most Foundation codecs, with a shared string and a shared dictionary.
    static func sampleRoot() throws -> ArrayObject {
        let shared = StringObject("shared")
        let attributes = DictionaryObject(stringKeys: [("bold", NumberObject(bool: true)), ("size", NumberObject(double: 12.5))])
        let attributed = AttributedStringObject("héllo world", runs: [.init(length: 6, attributes: attributes), .init(length: 5, attributes: attributes)], mutable: true)
        let point = ValueObject(objCType: "{?=ii}", value: .structure([.integer(3, width: nil), .integer(-4, width: nil)]))
        return ArrayObject([
            shared, shared, attributed, attributes,
            DataObject([0, 1, 2, 255]), DateObject(timeIntervalSinceReferenceDate: 1234.5), point,
            NullObject(), nil, SetObject(strings: ["a", "b"]), URLObject(string: "https://example.com/x"),
            try NumberObject(.int(-7), objCType: "s"),
        ], mutable: true)
    }

    /// Writes `root` into a tree and reads it back with the Foundation codecs.
    static func throughTheTree(_ root: AnyObject?) throws -> AnyObject? {
        let encoder = TreeArchiver()
        try encoder.encodeObject(root)
        let decoder = TreeUnarchiver(encoder.finished(), registry: .foundation)
        let back = try decoder.decodeObject()
        #expect(!decoder.hasMoreGroups)
        return back
    }

    @Test func foundationCodecsRoundTripThroughTheTree() throws {
        let root = try Self.sampleRoot()
        let expected = try Archiver.archivedBytes(withRootObject: root)
        let back = try #require(try Self.throughTheTree(root) as? ArrayObject)
        #expect(back !== root)
        #expect(try Archiver.archivedBytes(withRootObject: back) == expected)
        // Shared instances stay shared, and every element is typed again.
        #expect(back.elements[0] === back.elements[1])
        let attributed = try #require(back.elements[2] as? AttributedStringObject)
        #expect(attributed.attributeRuns.map(\.length) == [6, 5])
        #expect(attributed.attributeRuns[0].attributes === attributed.attributeRuns[1].attributes)
        #expect(attributed.attributeRuns[0].attributes === back.elements[3])
        #expect((back.elements[4] as? DataObject)?.bytes == [0, 1, 2, 255])
        #expect((back.elements[11] as? NumberObject)?.objCType == "s")
        #expect(back.elements[8] == nil)
    }

    @Test func codecErrorsComeThroughTheSecondCoder() throws {
        let encoder = TreeArchiver()
        try encoder.encodeObject(StringObject("text"))
        var tree = encoder.finished()
        tree.nodes[0].groups[0].typeString = "i"   // the string's "+" group made an int
        tree.nodes[0].groups[0].values = [.integer(1, width: nil)]
        let decoder = TreeUnarchiver(tree, registry: .foundation)
        #expect(throws: CoderError.self) { try decoder.decodeObject() }
        do { _ = try TreeUnarchiver(tree, registry: .foundation).decodeObject() } catch {
            #expect(error.code == .typeMismatch)
        }
        // A count larger than the groups is refused before anything is allocated.
        let array = TreeArchiver()
        try array.encodeObject(ArrayObject(strings: ["one"]))
        var counted = array.finished()
        counted.nodes[0].groups[0].values = [.integer(1_000_000, width: nil)]
        do { _ = try TreeUnarchiver(counted, registry: .foundation).decodeObject(); Issue.record("decoded") } catch {
            #expect(error.code == .badContents)
        }
    }

    @Test(.needsCorpus) func corpusArchivesRoundTripThroughTheTree() throws {
        var files = try StreamingCorpusTests.sampleFiles()
        files += try #require(FoundationCorpusTests.corpusFiles()).map { ("corpus/" + $0.name, $0.bytes) }
        var compared = 0
        for (name, bytes) in files {
            // What the concrete coders give: the typed items, written back.
            guard let decoder = try? Unarchiver(bytes: bytes, registry: .foundation),
                  let items = try? decoder.decodeTopLevelItems() else { continue }
            let header = decoder.archive.header
            let direct = Archiver(header: header)
            guard (try? direct.encodeTopLevelItems(items)) != nil, let expected = try? direct.encodedBytes() else { continue }
            // The same items through the tree coder, then written back.
            let tree = TreeArchiver()
            for item in items {
                switch item {
                case .object(let object): try tree.encodeObject(object)
                case .group(let group, let objects): try tree.encodeGroup(group, objects: objects)
                }
            }
            let again = try TreeUnarchiver(tree.finished(), registry: .foundation).decodeTopLevelItems()
            let encoder = Archiver(header: header)
            try encoder.encodeTopLevelItems(again)
            #expect(try encoder.encodedBytes() == expected, "\(name)")
            compared += 1
        }
        #expect(compared > 100)
    }
}
