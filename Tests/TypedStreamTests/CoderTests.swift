import Testing
@testable import TypedStream

/// A node of a test graph: a name (as counted bytes), an optional child, a conditional link.
final class Node: ArchivableObject {
    /// The class version this instance writes (decoded instances branch on the archived one).
    var writeVersion: Int64 = 2
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("Node", version: writeVersion), .nsObject] }
    var label: [UInt8] = []
    var child: Node?
    var weak: Node?
    var extra: Int32 = 0
    init() {}
    init(_ label: String) { self.label = Array(label.utf8) }

    func decodeContents(with decoder: some ObjectDecoder) throws {
        label = try decoder.decodeBytes() ?? []
        child = try decoder.decodeObject(of: Node.self)
        weak = try decoder.decodeObject(of: Node.self)
        // Version branching: version 1 archives have no `extra`.
        if (decoder.version(ofClass: "Node") ?? 0) >= 2 { extra = try decoder.decode() }
    }

    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeBytes(label)
        try encoder.encodeObject(child)
        try encoder.encodeConditionalObject(weak)
        if writeVersion >= 2 { try encoder.encode(extra) }
    }
}

/// A subclass that decodes its superclass's part first.
final class LabeledPoint: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("LabeledPoint", version: 0), ArchiveClassLink("Point", version: 3), .nsObject] }
    var x: Int32 = 0
    var name: [UInt8]? = nil
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {
        #expect(decoder.version(ofClass: "Point") == 3)
        x = try decoder.decode()                 // the Point part
        name = try decoder.decodeBytes()          // the LabeledPoint part
    }
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encode(x)
        try encoder.encodeBytes(name)
    }
}

struct CoderTests {
    static var registry: ClassRegistry {
        var registry = ClassRegistry()
        registry.register(Node.self, forClassName: "Node")
        registry.register(LabeledPoint.self, forClassName: "LabeledPoint")
        return registry
    }

    @Test func cyclesAndSharedReferencesDecodeToTheSameInstances() throws {
        let a = Node("a"), b = Node("b")
        a.child = b
        b.child = a            // a cycle
        b.weak = b             // conditional, and encoded unconditionally elsewhere: kept
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        let root = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? Node)
        #expect(root.label == Array("a".utf8))
        #expect(root.child?.child === root)
        #expect(root.child?.weak === root.child)
        // Graph level: re-encoding gives the same bytes.
        #expect(try ArchiveWriter.write(ArchiveReader.read(bytes)) == bytes)
    }

    /// The two-pass rule: a conditional object that nothing encodes unconditionally is nil.
    @Test func conditionalObjectsOnlyWhenReachedUnconditionally() throws {
        let a = Node("a"), orphan = Node("orphan")
        a.weak = orphan
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        let root = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? Node)
        #expect(root.weak == nil)
        #expect(!bytes.contains(subsequence: Array("orphan".utf8)))

        // Reached later in the graph: the conditional reference is written in full where it
        // comes first, and the later unconditional encoding refers to it.
        let c = Node("c"), d = Node("d")
        c.weak = d
        c.child = d
        let second = try Archiver.archivedBytes(withRootObject: c)
        let decoded = try #require(try Unarchiver(bytes: second, registry: Self.registry).decodeRootObject() as? Node)
        #expect(decoded.weak === decoded.child)
        #expect(decoded.child?.label == Array("d".utf8))
    }

    @Test func classVersionBranching() throws {
        let old = Node("old")
        old.writeVersion = 1
        old.extra = 99
        let bytes = try Archiver.archivedBytes(withRootObject: old)
        let decoded = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? Node)
        #expect(decoded.extra == 0)  // version 1 had no `extra`
        #expect(decoded.label == Array("old".utf8))
    }

    @Test func superclassPartFirst() throws {
        let p = LabeledPoint()
        p.x = -7
        p.name = Array("p".utf8)
        let bytes = try Archiver.archivedBytes(withRootObject: p)
        let decoded = try #require(try Unarchiver(bytes: bytes, registry: Self.registry).decodeRootObject() as? LabeledPoint)
        #expect(decoded.x == -7)
        #expect(decoded.name == Array("p".utf8))
    }

    /// Decoding in a different order than encoding names the offset, expected and found types.
    @Test func orderMismatchIsAClearError() throws {
        let encoder = Archiver()
        try encoder.encode(Int32(5))
        try encoder.encode(Float(1.5))
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes())
        #expect(throws: CoderError.self) { _ = try decoder.decode(Float.self) }
        do {
            _ = try decoder.decode(Float.self)
            Issue.record("expected a type mismatch")
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.offset == 16)
            #expect(error.description == "offset 0x10 (16): expected type 'f', found 'i'")
        }
        #expect(try decoder.decode(Int32.self) == 5)
        #expect(try decoder.decode(Float.self) == 1.5)
        #expect(throws: CoderError(.noMoreValues, "")) { _ = try decoder.decode(Int32.self) }
    }

    /// A group matches the type string spelled exactly as it carries it (compared as bytes,
    /// unparsed) and any other spelling of the same types (`<…>` for `{…}`); a string that
    /// differs from it, asked right after one that matched, still throws, and a string that
    /// does not parse throws `invalidValue` whatever the group holds.
    @Test func typeStringsMatchByBytesOrByTypes() throws {
        let encoder = Archiver()
        for _ in 0..<3 { try encoder.encodeValues([.structure([.integer(1, width: nil), .integer(2, width: nil)])], ofObjCTypes: "{?=ii}") }
        try encoder.encode(Int32(7))
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes())
        #expect(try decoder.decodeValues(ofObjCTypes: "{?=ii}").count == 1)
        #expect(try decoder.decodeValues(ofObjCTypes: "<?=ii>").count == 1)
        #expect(throws: CoderError(.typeMismatch, "")) { _ = try decoder.decodeValues(ofObjCTypes: "{?=iI}") }
        #expect(throws: CoderError(.invalidValue, "")) { _ = try decoder.decodeValues(ofObjCTypes: "{?=ii") }
        #expect(try decoder.decodeValues(ofObjCTypes: "{?=ii}").count == 1)
        #expect(throws: CoderError(.typeMismatch, "")) { _ = try decoder.decode(UInt32.self) }
        #expect(try decoder.decode(Int32.self) == 7)
    }

    @Test func lenientModeConvertsIntegerWidthsAndSaysSo() throws {
        let encoder = Archiver()
        try encoder.encode(Int16(300))
        var options = Unarchiver.Options()
        #expect(throws: CoderError(.typeMismatch, "")) { _ = try Unarchiver(bytes: try encoder.encodedBytes()).decode(Int32.self) }
        options.lenientIntegers = true
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes(), options: options)
        #expect(try decoder.decode(Int32.self) == 300)
        #expect(decoder.warnings.count == 1)
        #expect(decoder.warnings[0].contains("read 's' as 'i'"))
    }

    @Test func unknownClassesStayGenericAndRoundTrip() throws {
        let a = Node("a")
        a.child = Node("b")
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        // Without a registry nothing is instantiated: everything is generic.
        let decoder = try Unarchiver(bytes: bytes)
        let root = try #require(try decoder.decodeRootObject() as? GenericObject)
        #expect(root.archiveClassChain == [ArchiveClassLink("Node", version: 2), .nsObject])
        #expect(root.groups.map(\.typeText) == ["+", "@", "@", "i"])
        #expect(try Archiver.archivedBytes(withRootObject: root) == bytes)
    }

    @Test func classNameSubstitutionBothWays() throws {
        let encoder = Archiver()
        encoder.classNameSubstitutions = ["Node": "MyOldNode"]
        try encoder.encodeRootObject(Node("x"))
        let bytes = try encoder.encodedBytes()
        #expect(bytes.contains(subsequence: Array("MyOldNode".utf8)))
        let decoder = try Unarchiver(bytes: bytes, registry: Self.registry)
        decoder.classSubstitutions = ["MyOldNode": "Node"]
        let node = try #require(try decoder.decodeRootObject() as? Node)
        #expect(node.label == Array("x".utf8))
    }

    /// After the root is decoded, `version(ofClass:)` at the top level answers from the classes
    /// met (the first of a name), also under a substituted name, and `nil` for others.
    @Test func versionsOfClassesMetBefore() throws {
        let point = LabeledPoint()
        point.x = 7
        let bytes = try Archiver.archivedBytes(withRootObject: point)
        let decoder = try Unarchiver(bytes: bytes, registry: Self.registry)
        #expect(decoder.version(ofClass: "Point") == nil)
        _ = try decoder.decodeRootObject()
        #expect(decoder.version(ofClass: "LabeledPoint") == 0)
        #expect(decoder.version(ofClass: "Point") == 3)
        #expect(decoder.version(ofClass: "NSObject") == 0)
        #expect(decoder.version(ofClass: "Node") == nil)
        decoder.classSubstitutions = ["Point": "OldPoint"]
        #expect(decoder.version(ofClass: "OldPoint") == 3)
    }

    /// More distinct type strings than the decoder keeps as recent ones, asked for in turn
    /// twice over: each is matched (or refused) by its own text.
    @Test func manyTypeStringsInTurn() throws {
        let types = (1...12).map { "{?=" + String(repeating: "i", count: $0) + "}" } + ["i", "I", "s", "@"]
        let encoder = Archiver()
        for _ in 0..<2 {
            for type in types where type != "@" {
                let fields = type.hasPrefix("{") ? type.count - 4 : 1
                let values = (0..<fields).map { ArchivedValue.integer(Int64($0 + 1), width: nil) }
                try encoder.encodeValues(type.hasPrefix("{") ? [.structure(values)] : values, ofObjCTypes: type)
            }
            try encoder.encodeObject(nil)
        }
        let decoder = try Unarchiver(bytes: try encoder.encodedBytes())
        for _ in 0..<2 {
            for type in types where type != "@" {
                #expect(throws: CoderError(.typeMismatch, "")) { _ = try decoder.decodeValues(ofObjCTypes: type == "i" ? "I" : "i") }
                let values = try decoder.decodeValues(ofObjCTypes: type)
                if type.hasPrefix("{") {
                    guard case .structure(let fields) = values.first else { Issue.record("\(type): \(values)"); continue }
                    #expect(fields.count == type.count - 4, "\(type)")
                } else {
                    #expect(values.count == 1, "\(type)")
                }
            }
            #expect(try decoder.decodeObject() == nil)
        }
        #expect(!decoder.hasMoreGroups)
    }

    @Test func trailingValuesAfterTheRootAreReported() throws {
        let encoder = Archiver()
        try encoder.encodeRootObject(Node("x"))
        try encoder.encode(Int32(1))
        #expect(throws: CoderError(.trailingValues, "")) {
            _ = try Unarchiver(bytes: try encoder.encodedBytes(), registry: Self.registry).decodeRootObject()
        }
    }

    @Test func codecThatLeavesGroupsIsAnError() throws {
        final class Greedy: ArchivableObject {
            var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("Node", version: 2), .nsObject] }
            init() {}
            func decodeContents(with decoder: some ObjectDecoder) throws { _ = try decoder.decodeBytes() }
            func encodeContents(with encoder: some ObjectEncoder) throws {}
        }
        var registry = ClassRegistry()
        registry.register(Greedy.self, forClassName: "Node")
        let bytes = try Archiver.archivedBytes(withRootObject: Node("x"))
        #expect(throws: CoderError(.unconsumedValues, "")) { _ = try Unarchiver(bytes: bytes, registry: registry).decodeRootObject() }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<$0 + subsequence.count].elementsEqual(subsequence) }
    }
}
