import Testing
@testable import TypedStream

/// A class whose codec asks for its graph entry (``Unarchiver/currentObject``, which only the
/// unarchiver offers), which only the graph has: decoding one makes a streaming decode go over
/// the graph.
final class GraphPeeker: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("GraphPeeker", version: 0), .nsObject] }
    var child: Node?
    var sawEntry = false
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {
        sawEntry = (decoder as? Unarchiver)?.currentObject != nil
        child = try decoder.decodeObject(of: Node.self)
    }
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeObject(child)
    }
}

/// Writes a short (`"s"`); read back it asks for an int (`"i"`).
final class ShortWriter: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("ShortWriter", version: 0), .nsObject] }
    var value: Int32 = 0
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws { value = try decoder.decode() }
    func encodeContents(with encoder: some ObjectEncoder) throws { try encoder.encode(Int16(truncatingIfNeeded: value)) }
}

/// Holds C strings (one named twice, so the second is a reference, and a NULL) and structs of
/// scalars, plain and nested: what `NSValue` and `NSNumber` codecs and rect fields ask for.
final class TypeNamesAndRects: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("TypeNamesAndRects", version: 0), .nsObject] }
    var names: [String?] = []
    var rect: ArchivedValue = .ignored
    var nested: ArchivedValue = .ignored
    var pair: [ArchivedValue] = []
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {
        names = [try decoder.decodeCString(), try decoder.decodeCString(), try decoder.decodeCString()]
        rect = try decoder.decodeValue(ofObjCType: "{?=ffff}")
        nested = try decoder.decodeValue(ofObjCType: "{?={?=ii}f{?=cc}}")
        pair = try decoder.decodeValues(ofObjCTypes: "{?=ii}f")
    }
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeValue(.cString(encoder.cString(Array("q".utf8)), referenceWidth: nil), ofObjCType: "*")
        try encoder.encodeValue(.cString(encoder.cString(Array("q".utf8)), referenceWidth: nil), ofObjCType: "*")
        try encoder.encodeValue(.cString(nil, referenceWidth: nil), ofObjCType: "*")
        try encoder.encodeValue(.structure([.float(1.5, form: nil), .float(2, form: nil), .float(-3, form: nil), .float(4.25, form: nil)]), ofObjCType: "{?=ffff}")
        try encoder.encodeValue(.structure([.structure([.integer(7, width: nil), .integer(-8, width: nil)]), .float(0.5, form: nil),
                                            .structure([.byte(1), .byte(2)])]), ofObjCType: "{?={?=ii}f{?=cc}}")
        try encoder.encodeValues([.structure([.integer(1, width: nil), .integer(2, width: nil)]), .float(9, form: nil)], ofObjCTypes: "{?=ii}f")
    }
}

/// The streaming decode (``Unarchiver/Options/streaming``): it reads without the graph when
/// codecs ask only for values and objects, goes over the graph for the rest, and gives the same
/// results, warnings and errors either way.
struct StreamingTests {
    static var registry: ClassRegistry {
        var registry = CoderTests.registry
        registry.register(GraphPeeker.self, forClassName: "GraphPeeker")
        registry.register(ShortWriter.self, forClassName: "ShortWriter")
        return registry
    }

    static func options(streaming: Bool, lenient: Bool = false) -> Unarchiver.Options {
        var options = Unarchiver.Options()
        options.streaming = streaming
        options.lenientIntegers = lenient
        return options
    }

    @Test func valuesAndObjectsStreamWithoutTheGraph() throws {
        let a = Node("a"), b = Node("b")
        a.child = b
        b.child = a
        b.weak = b
        a.extra = -7
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        let decoder = try Unarchiver(bytes: bytes, registry: Self.registry)
        let root = try #require(try decoder.decodeRootObject() as? Node)
        #expect(decoder.isStreaming)
        #expect(root.label == Array("a".utf8) && root.extra == -7)
        #expect(root.child?.child === root)
        #expect(root.child?.weak === root.child)
        #expect(decoder.currentObjectOffset == nil)
    }

    @Test func cStringsAndStructsStreamAsTheGraphGivesThem() throws {
        var registry = ClassRegistry()
        registry.register(TypeNamesAndRects.self, forClassName: "TypeNamesAndRects")
        let bytes = try Archiver.archivedBytes(withRootObject: TypeNamesAndRects())
        var results: [TypeNamesAndRects] = []
        for streaming in [true, false] {
            let decoder = try Unarchiver(bytes: bytes, registry: registry, options: Self.options(streaming: streaming))
            results.append(try #require(try decoder.decodeRootObject() as? TypeNamesAndRects))
            #expect(decoder.isStreaming == streaming)
        }
        let (streamed, graphed) = (results[0], results[1])
        #expect(streamed.names == ["q", "q", nil] && streamed.names == graphed.names)
        // Values compared by their full descriptions (wire forms and widths included).
        #expect("\(streamed.rect)" == "\(graphed.rect)" && "\(streamed.nested)" == "\(graphed.nested)")
        #expect("\(streamed.pair)" == "\(graphed.pair)" && streamed.pair.count == 2)
        let members = try streamed.rect.members(4)
        #expect(try members.map { (member) throws(CoderError) in try Float(archivedValue: member) } == [1.5, 2, -3, 4.25])
        let nested = try streamed.nested.members(3)
        #expect(try nested[0].members(2).map { (member) throws(CoderError) in try member.integerValue() } == [7, -8])
        // The same archive read back with the same bytes.
        #expect(try Archiver.archivedBytes(withRootObject: streamed) == bytes)
    }

    @Test func aCallThatNeedsTheGraphIsDoneAgainThereKeepingEarlierInstances() throws {
        // Top level: a Node, then a GraphPeeker whose child is that same Node.
        let shared = Node("shared")
        let peeker = GraphPeeker()
        peeker.child = shared
        let encoder = Archiver()
        try encoder.encodeObject(shared)
        try encoder.encodeObject(peeker)
        try encoder.encode(Int32(42))
        let bytes = try encoder.encodedBytes()

        let decoder = try Unarchiver(bytes: bytes, registry: Self.registry)
        let first = try #require(try decoder.decodeObject() as? Node)
        #expect(decoder.isStreaming)
        let second = try #require(try decoder.decodeObject() as? GraphPeeker)
        #expect(!decoder.isStreaming)
        #expect(second.sawEntry)  // done again over the graph, where the entry exists
        #expect(second.child === first)  // the instance decoded while streaming, found by slot
        let last: Int32 = try decoder.decode()
        #expect(last == 42)
        #expect(!decoder.hasMoreGroups)
    }

    @Test func lenientConversionsAreNotedOnce() throws {
        let object = ShortWriter()
        object.value = 300
        let bytes = try Archiver.archivedBytes(withRootObject: object)
        for streaming in [true, false] {
            let decoder = try Unarchiver(bytes: bytes, registry: Self.registry, options: Self.options(streaming: streaming, lenient: true))
            let root = try #require(try decoder.decodeRootObject() as? ShortWriter)
            #expect(root.value == 300)
            #expect(decoder.warnings.count == 1, "streaming \(streaming): \(decoder.warnings)")
        }
        // Without leniency both throw the same error.
        #expect(try errorText(bytes, streaming: true) == errorText(bytes, streaming: false))
        #expect(try errorText(bytes, streaming: true)?.contains("expected type 'i', found 's'") == true)
    }

    @Test func unknownClassesAndMismatchesGiveTheGraphsResults() throws {
        let a = Node("a"), b = Node("b")
        a.child = b
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        // No codec for Node: generic objects, over the graph.
        for streaming in [true, false] {
            let decoder = try Unarchiver(bytes: bytes, options: Self.options(streaming: streaming))
            let root = try #require(try decoder.decodeRootObject() as? GenericObject)
            #expect(root.archiveClassChain.first?.name == "Node")
            #expect(root.groups.count == 4 && (root.source != nil) == !streaming)
            #expect(root.endOffset == bytes.count - 1)
        }
        // A codec that reads the wrong type: the same error, with the same offset.
        var wrong = ClassRegistry()
        wrong.register(ShortWriter.self, forClassName: "Node")
        let streamed = try errorText(bytes, streaming: true, registry: wrong)
        #expect(streamed != nil)
        #expect(streamed == (try errorText(bytes, streaming: false, registry: wrong)))
    }

    @Test func everyPrefixFailsAlikeStreamingOrNot() throws {
        let a = Node("prefix"), b = Node("b")
        a.child = b
        b.weak = a
        let bytes = try Archiver.archivedBytes(withRootObject: a)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let streamed = try errorText(prefix, streaming: true)
            #expect(streamed != nil, "prefix of \(length) bytes decoded")
            #expect(streamed == (try errorText(prefix, streaming: false)), "prefix of \(length) bytes")
        }
    }

    /// The error of decoding `bytes`'s root (made or decoded), or nil when it decodes.
    func errorText(_ bytes: [UInt8], streaming: Bool, registry: ClassRegistry = StreamingTests.registry) throws -> String? {
        do {
            let decoder = try Unarchiver(bytes: bytes, registry: registry, options: Self.options(streaming: streaming))
            _ = try decoder.decodeRootObject()
            return nil
        } catch {
            return error.description
        }
    }
}

/// Writes what generic objects hold in every shape: objects of its own and shared, a cycle,
/// C strings and structs (through ``TypeNamesAndRects``), objects in a group of several values
/// and in an array, and a class value. Decoded without codecs, so every object is generic.
final class EveryShapeHolder: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("EveryShapeHolder", version: 1), .nsObject] }
    let names = TypeNamesAndRects()
    let node = Node("cycle")
    let other = Node("other")
    init() {
        names.names = ["i", "i", nil]
        node.child = other
        other.weak = node
    }
    func decodeContents(with decoder: some ObjectDecoder) throws {}
    func encodeContents(with encoder: some ObjectEncoder) throws {
        guard let archiver = encoder as? Archiver else { return }
        try archiver.encodeObject(names)
        try archiver.encodeObject(node)
        try archiver.encodeValues([archiver.archivedValue(for: node), archiver.archivedValue(for: other), .integer(5, width: nil)], ofObjCTypes: "@@i")
        try archiver.encodeValue(.array([archiver.archivedValue(for: other), .object(nil, referenceWidth: nil)]), ofObjCType: "[2@]")
        let root = ArchivedClass(name: Array("NSObject".utf8), version: 0)
        try archiver.encodeValue(.classObject(ArchivedClass(name: Array("Widget".utf8), version: 3, superclass: root), referenceWidth: nil), ofObjCType: "#")
        try archiver.encodeObject(TypeNamesAndRects())  // its C strings refer to those of `names`
    }
}

extension StreamingTests {
    /// The groups of every generic object of a decode, described value by value, each object a
    /// group refers to by its slot, class, and whether the object maps it to the instance the
    /// decode made for that slot.
    static func genericGroups(_ bytes: [UInt8], streaming: Bool, registry: ClassRegistry = ClassRegistry(),
                              withoutKeeping: Bool = false) throws -> [String] {
        let decoder = try Unarchiver(bytes: bytes, registry: registry, options: options(streaming: streaming))
        _ = try decoder.decodeRootObject()
        var instances: [Int: AnyObject] = [:]
        decoder.forEachDecodedObjectInSlot { slot, _, instance in instances[slot] = instance }
        var described: [String] = []
        for slot in instances.keys.sorted() {
            guard let generic = instances[slot] as? GenericObject else { continue }
            func describe(_ value: ArchivedValue) -> String {
                switch value {
                case .object(let entry?, let width):
                    let same = entry.sourceIndex.flatMap { instances[$0] }.map { $0 === object(for: entry) } ?? false
                    return "@#\(entry.sourceIndex ?? -1) \(entry.className) at \(entry.sourceOffset ?? -1) \(String(describing: width)) same \(same)"
                case .objectSlotClass(let entry, let width):
                    return "@class \(entry.links) \(String(describing: width))"
                case .classObject(let entry, let width):
                    return "#\(entry?.links ?? []) \(entry?.nameDecision.map { "\($0)" } ?? "-") \(String(describing: width))"
                case .cString(let entry, let width):
                    return "*\(entry?.string ?? "NULL") #\(entry?.sourceIndex ?? -1) \(entry?.textDecision.map { "\($0)" } ?? "-") \(String(describing: width))"
                case .array(let values):
                    return "[" + values.map(describe).joined(separator: ", ") + "]"
                case .structure(let values):
                    return "{" + values.map(describe).joined(separator: ", ") + "}"
                default:
                    return "\(value)"
                }
            }
            let read = withoutKeeping ? generic.groupsAndObjects : (groups: generic.groups, objects: generic.objects)
            func object(for entry: ArchivedObject) -> AnyObject? { read.objects[ObjectIdentifier(entry)] }
            let groups = read.groups.map { group in
                "\(group.typeText) \(group.typeStringDecision.map { "\($0)" } ?? "-") at \(group.offset ?? -1): " + group.values.map(describe).joined(separator: "; ")
            }
            described.append("#\(slot) \(generic.archiveClassChain) end \(generic.endOffset ?? -1) objects \(Set(read.objects.values.map(ObjectIdentifier.init)).count)\n  " + groups.joined(separator: "\n  "))
        }
        return described
    }

    @Test func genericObjectsKeptCompactGiveTheGraphsGroups() throws {
        let bytes = try Archiver.archivedBytes(withRootObject: EveryShapeHolder())
        let streamed = try Self.genericGroups(bytes, streaming: true)
        let graphed = try Self.genericGroups(bytes, streaming: false)
        #expect(streamed.count == 5)
        #expect(streamed == graphed)
        #expect(streamed.joined().contains("Widget"))
        #expect(streamed.joined().contains("same false") == false)
    }

    /// Objects nested deep, generic and typed in turn: reading a generic object's groups again
    /// passes over each nested object to its end-of-object marker, and gives what the graph
    /// gives, kept or not.
    @Test func nestedObjectsArePassedOverAsTheGraphReadsThem() throws {
        var typed = ClassRegistry()
        typed.register(TypeNamesAndRects.self, forClassName: "TypeNamesAndRects")
        let nodes = (0..<40).map { Node("n\($0)") }
        for (outer, inner) in zip(nodes, nodes.dropFirst()) {
            outer.child = inner
            inner.weak = outer
        }
        let holder = EveryShapeHolder()
        nodes[39].child = holder.node
        let bytes = try Archiver.archivedBytes(withRootObject: nodes[0])
        for registry in [ClassRegistry(), typed] {
            let graphed = try Self.genericGroups(bytes, streaming: false, registry: registry)
            #expect(graphed.count >= 42)
            #expect(try Self.genericGroups(bytes, streaming: true, registry: registry) == graphed)
            #expect(try Self.genericGroups(bytes, streaming: true, registry: registry, withoutKeeping: true) == graphed)
        }
        let holderBytes = try Archiver.archivedBytes(withRootObject: holder)
        let graphed = try Self.genericGroups(holderBytes, streaming: false, registry: typed)
        #expect(try Self.genericGroups(holderBytes, streaming: true, registry: typed) == graphed)
        #expect(try Self.genericGroups(holderBytes, streaming: true, registry: typed, withoutKeeping: true) == graphed)
    }
}

/// An object that writes no groups at all (its `@` value is followed at once by its
/// end-of-object marker).
final class GrouplessObject: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("Groupless", version: 2), .nsObject] }
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {}
    func encodeContents(with encoder: some ObjectEncoder) throws {}
}

/// Groupless objects, new and referred to again, between a node and a number.
final class GrouplessHolder: ArchivableObject {
    var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("GrouplessHolder", version: 0), .nsObject] }
    let first = GrouplessObject(), second = GrouplessObject()
    init() {}
    func decodeContents(with decoder: some ObjectDecoder) throws {}
    func encodeContents(with encoder: some ObjectEncoder) throws {
        try encoder.encodeObject(first)
        try encoder.encodeObject(Node("between"))
        try encoder.encodeObject(second)
        try encoder.encodeObject(first)
        try encoder.encode(Int32(7))
    }
}

extension StreamingTests {
    /// A generic object without groups keeps nothing to read again: streamed, its groups,
    /// objects and end offset are what the graph gives, and writing it back gives the bytes.
    @Test func grouplessGenericObjectsMatchTheGraph() throws {
        let bytes = try Archiver.archivedBytes(withRootObject: GrouplessHolder())
        let graphed = try Self.genericGroups(bytes, streaming: false)
        #expect(graphed.count == 4)  // the holder, two groupless objects, the node
        #expect(try Self.genericGroups(bytes, streaming: true) == graphed)
        #expect(try Self.genericGroups(bytes, streaming: true, withoutKeeping: true) == graphed)
        let decoder = try Unarchiver(bytes: bytes, options: Self.options(streaming: true))
        let root = try #require(try decoder.decodeRootObject() as? GenericObject)
        var groupless: [ObjectIdentifier: GenericObject] = [:]
        for case let object as GenericObject in root.groupsAndObjects.objects.values where object.archiveClassChain.first?.name == "Groupless" {
            groupless[ObjectIdentifier(object)] = object
        }
        #expect(groupless.count == 2)
        for object in groupless.values {
            #expect(object.groups.isEmpty && object.objects.isEmpty)
            let end = try #require(object.endOffset)
            #expect(bytes[end] == HeadByte.endOfObject)
        }
        #expect(try Archiver.archivedBytes(withRootObject: root) == bytes)
    }
}
