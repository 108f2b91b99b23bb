import TypedStream
import ObjCTypeEncoding

/// A second coder, for tests: it keeps objects as a tree of nodes — class chain and groups of
/// ``ArchivedValue``s — with no bytes, no ``Unarchiver`` and no ``Archiver``. An object inside a
/// group is an ``ArchivedObject`` stand-in whose `sourceIndex` is its node's number, so sharing
/// and cycles survive. It conforms to ``ObjectEncoder`` and ``ObjectDecoder`` with only what
/// those protocols ask, which shows the class codecs need nothing more.
struct TreeArchive {
    /// One group: its type string, as the codec spelled it, and its values.
    struct Group {
        var typeString: String
        var values: [ArchivedValue]
        /// A streamer-3 group of one object written without a type string (``typeString`` is
        /// then `"@"`), kept so for writing back.
        var untyped = false
    }

    /// One object: its class chain and its groups.
    struct Node {
        var chain: [ArchiveClassLink]
        var groups: [Group] = []
    }

    /// The top-level groups.
    var groups: [Group] = []
    /// Every object, by number.
    var nodes: [Node] = []
}

/// Writes objects into a ``TreeArchive``.
final class TreeArchiver: ObjectEncoder {
    private(set) var tree = TreeArchive()
    /// The groups of the objects being written, innermost last (the top level first).
    private var open: [[TreeArchive.Group]] = [[]]
    /// The stand-in entry of every object met, by identity.
    private var entries: [ObjectIdentifier: ArchivedObject] = [:]
    /// The objects met, kept alive so their identities stay theirs.
    private var retained: [AnyObject] = []

    /// The tree, once the top-level calls are done.
    func finished() -> TreeArchive {
        tree.groups = open[0]
        return tree
    }

    func encodeValues(_ values: [ArchivedValue], ofObjCTypes typeString: String) throws(CoderError) {
        open[open.count - 1].append(TreeArchive.Group(typeString: typeString, values: values))
    }

    func encodeObject(_ object: AnyObject?) throws(CoderError) {
        try encodeValues([archivedValue(for: object)], ofObjCTypes: "@")
    }

    func archivedValue(for object: AnyObject?) throws(CoderError) -> ArchivedValue {
        guard let object else { return .object(nil, referenceWidth: nil) }
        if let entry = entries[ObjectIdentifier(object)] { return .object(entry, referenceWidth: nil) }
        if let reference = object as? ClassReference, let entry = reference.entry {
            return .objectSlotClass(entry, referenceWidth: nil)
        }
        guard let archivable = object as? ArchivableObject else {
            throw CoderError(.invalidValue, "\(type(of: object)) is not an ArchivableObject")
        }
        let number = tree.nodes.count
        let entry = ArchivedObject(archivedClass: ArchivedClass(name: Array((archivable.archiveClassChain.first?.name ?? "").utf8), version: 0))
        entry.sourceIndex = number
        entries[ObjectIdentifier(object)] = entry
        retained.append(object)
        tree.nodes.append(TreeArchive.Node(chain: archivable.archiveClassChain))
        open.append([])
        do {
            try archivable.encodeContents(with: self)
        } catch {
            open.removeLast()
            throw error as? CoderError ?? CoderError(.invalidValue, "\(error)")
        }
        tree.nodes[number].groups = open.removeLast()
        return .object(entry, referenceWidth: nil)
    }

    func cString(_ text: some Collection<UInt8>) -> ArchivedCString {
        ArchivedCString(text: text)
    }

    func encodeGroup(_ group: ArchivedGroup, objects decoded: [ObjectIdentifier: AnyObject]) throws(CoderError) {
        var values: [ArchivedValue] = []
        for value in group.values { values.append(try remap(value, decoded)) }
        open[open.count - 1].append(TreeArchive.Group(typeString: group.typeText, values: values, untyped: group.typeString == nil))
    }

    private func remap(_ value: ArchivedValue, _ decoded: [ObjectIdentifier: AnyObject]) throws(CoderError) -> ArchivedValue {
        try value.mappingLeaves { (leaf) throws(CoderError) -> ArchivedValue in
            guard case .object(let entry?, _) = leaf else { return leaf }
            guard let instance = decoded[ObjectIdentifier(entry)] else {
                throw CoderError(.invalidValue, "a group refers to an object that was not decoded")
            }
            return try archivedValue(for: instance)
        }
    }
}

/// Reads objects back from a ``TreeArchive`` with the codecs of a registry.
final class TreeUnarchiver: ObjectDecoder {
    private let tree: TreeArchive
    private let registry: ClassRegistry
    private struct Cursor {
        var groups: [TreeArchive.Group]
        var next = 0
        var chain: [ArchiveClassLink]
    }
    private var cursors: [Cursor]
    private var instances: [Int: AnyObject] = [:]
    private var seenChains: [[ArchiveClassLink]] = []

    init(_ tree: TreeArchive, registry: ClassRegistry) {
        self.tree = tree
        self.registry = registry
        cursors = [Cursor(groups: tree.groups, chain: [])]
    }

    var currentClassChain: [ArchiveClassLink] { cursors[cursors.count - 1].chain }

    func version(ofClass className: String) -> Int64? {
        for chain in [currentClassChain] + seenChains {
            if let link = chain.first(where: { $0.name == className }) { return link.version }
        }
        return nil
    }

    var hasMoreGroups: Bool {
        let cursor = cursors[cursors.count - 1]
        return cursor.next < cursor.groups.count
    }

    func requireGroups(_ needed: Int, for what: @autoclosure () -> String) throws(CoderError) {
        let available = cursors[cursors.count - 1].groups.count
        guard needed <= available else {
            throw CoderError(.badContents, "\(what()) needs \(needed) groups but the object holds only \(available)")
        }
    }

    func peekTypeString() -> String? {
        let cursor = cursors[cursors.count - 1]
        return cursor.next < cursor.groups.count ? cursor.groups[cursor.next].typeString : nil
    }

    private func take() throws(CoderError) -> TreeArchive.Group {
        let top = cursors.count - 1
        guard cursors[top].next < cursors[top].groups.count else {
            throw CoderError(.noMoreValues, "no groups left")
        }
        defer { cursors[top].next += 1 }
        return cursors[top].groups[cursors[top].next]
    }

    func decodeValues(ofObjCTypes typeString: String) throws(CoderError) -> [ArchivedValue] {
        guard let found = peekTypeString(), found == typeString else {
            if peekTypeString() == nil { throw CoderError(.noMoreValues, "expected type '\(typeString)', found the end") }
            throw CoderError(.typeMismatch, "expected type '\(typeString)', found '\(peekTypeString() ?? "")'")
        }
        return try take().values
    }

    func decodeValue(ofObjCType typeString: String) throws(CoderError) -> ArchivedValue {
        let values = try decodeValues(ofObjCTypes: typeString)
        guard values.count == 1 else { throw CoderError(.typeMismatch, "'\(typeString)' is not a single type") }
        return values[0]
    }

    func decodeGroup() throws(CoderError) -> ArchivedGroup {
        let group = try take()
        let types: [ObjCType]
        do { types = try ObjCType.parseGroup(group.typeString) } catch {
            throw CoderError(.invalidValue, "type string '\(group.typeString)' does not parse")
        }
        return ArchivedGroup(typeString: group.untyped ? nil : ArraySlice(group.typeString.utf8), types: types, values: group.values)
    }

    func decodeObject() throws(CoderError) -> AnyObject? {
        try object(for: decodeValue(ofObjCType: "@"))
    }

    func object(for entry: ArchivedObject) throws(CoderError) -> AnyObject {
        guard let number = entry.sourceIndex, tree.nodes.indices.contains(number) else {
            throw CoderError(.badContents, "an object that is not in the tree")
        }
        if let done = instances[number] { return done }
        let node = tree.nodes[number]
        seenChains.append(node.chain)
        let type = registry.type(forClassName: node.chain.first?.name ?? "") ?? GenericObject.self
        do {
            return try decode(number, as: type)
        } catch where error.code == .unsupportedVersion && type != GenericObject.self {
            return try decode(number, as: GenericObject.self)
        }
    }

    private func decode(_ number: Int, as type: any ArchivableObject.Type) throws(CoderError) -> AnyObject {
        let node = tree.nodes[number]
        let instance = type.init()
        instances[number] = instance
        cursors.append(Cursor(groups: node.groups, chain: node.chain))
        defer { cursors.removeLast() }
        do {
            try instance.decodeContents(with: self)
        } catch {
            instances[number] = nil
            throw error as? CoderError ?? CoderError(.badContents, "\(error)")
        }
        guard !hasMoreGroups else {
            throw CoderError(.unconsumedValues, "\(type) left groups of \(node.chain.first?.name ?? "?") undecoded")
        }
        return instance
    }
}
