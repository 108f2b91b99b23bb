/// An object of a class nobody registered: it keeps its class chain and every group exactly, and
/// writes them back as they were. Nested objects are decoded (typed where registered) and
/// re-encoded through the archiver, so shared references stay shared.
public final class GenericObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// The class chain as read, most derived first.
    @exclusivity(unchecked) public var archiveClassChain: [ArchiveClassLink] = []
    /// The groups as read (values keep their recorded wire decisions).
    ///
    /// An object a streaming decode read is kept compact — its slot and the instances it refers
    /// to — and its groups are read again from the archive the first time this (or
    /// ``objects``) is asked for: the graph-style entries they refer to are shared by the
    /// generic objects of one decode, as the graph reader shares them, so like those entries
    /// the objects of one decode are for one thread at a time.
    public var groups: [ArchivedGroup] {
        get {
            if compact != nil { expand() }
            return storedGroups
        }
        set {
            if compact != nil { expand() }
            storedGroups = newValue
        }
        _modify {
            if compact != nil { expand() }
            yield &storedGroups
        }
    }
    /// The decoded instances of the objects the groups refer to, by the identity of their
    /// ``ArchivedObject``.
    public var objects: [ObjectIdentifier: AnyObject] {
        get {
            if compact != nil { expand() }
            return storedObjects
        }
        set {
            if compact != nil { expand() }
            storedObjects = newValue
        }
        _modify {
            if compact != nil { expand() }
            yield &storedObjects
        }
    }
    /// ``groups`` and ``objects`` without keeping them: an object a streaming decode kept
    /// compact reads them again from the archive and stays compact, so that a pass that visits
    /// each object once (an export) holds one object's groups at a time, not every object's.
    /// The entries its values refer to objects by may then be made for this read alone (one per
    /// value, not one per object), each mapped in `objects` to the instance it stands for.
    public var groupsAndObjects: (groups: [ArchivedGroup], objects: [ObjectIdentifier: AnyObject]) {
        guard let kept = compact else { return (storedGroups, storedObjects) }
        return kept.source.contents(ofObject: Int(kept.slot), held: kept.held, nestedEnds: kept.nestedEnds, keepingEntries: false)
    }
    /// The graph entry this object was decoded from, when it was decoded over the graph (`nil`
    /// when a streaming decode read it straight from the bytes).
    @exclusivity(unchecked) public private(set) var source: ArchivedObject?
    /// The byte offset of the object's end-of-object marker in the archive it was read from.
    public var endOffset: Int? { storedEndOffset < 0 ? nil : storedEndOffset }

    @exclusivity(unchecked) private var storedGroups: [ArchivedGroup] = []
    @exclusivity(unchecked) private var storedObjects: [ObjectIdentifier: AnyObject] = [:]
    /// What a streaming decode kept instead of the groups, until they are asked for.
    @exclusivity(unchecked) private var compact: CompactGenericContents?
    /// ``endOffset``, −1 for none: an optional would take a byte more, and with its padding
    /// a size class more per object (an archive can hold millions of generic objects).
    @exclusivity(unchecked) private var storedEndOffset = -1

    /// Creates an empty generic object.
    public init() {}

    /// Hands over the decoded instances (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        if compact != nil {
            pending.append(contentsOf: compact?.held ?? [])
            compact?.held = []
        }
        pending.appendObjects(of: &storedObjects)
    }

    deinit { releaseHeldObjects(of: self) }

    /// Reads the groups kept compact from the archive (see ``groups``).
    private func expand() {
        guard let kept = compact else { return }
        compact = nil
        let contents = kept.source.contents(ofObject: Int(kept.slot), held: kept.held, nestedEnds: kept.nestedEnds)
        storedGroups = contents.groups
        storedObjects = contents.objects
    }

    /// Takes every remaining group of the object.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        source = decoder.currentGraphObject
        // Streaming: the groups are walked (nested objects decoded where they stand) and kept
        // compact, to be read again only if asked for.
        if let unarchiver = decoder as? Unarchiver, let kept = try unarchiver.streamGenericContents() {
            compact = kept.contents
            storedEndOffset = kept.endOffset
            return
        }
        // Gathered in locals and stored once (also when a group fails): a stored property
        // appended to per group costs a uniqueness check and an access each time.
        var groups = self.storedGroups
        var objects = self.storedObjects
        self.storedGroups = []
        self.storedObjects = [:]
        defer {
            self.storedGroups = groups
            self.storedObjects = objects
        }
        while decoder.hasMoreGroups {
            let group = try decoder.decodeGroup()
            // Room is made at the first group, not before: many objects hold none.
            if groups.isEmpty { groups.reserveCapacity(Self.usualGroupCount) }
            for index in 0..<group.valueCount { try Self.collect(group.value(at: index), decoder, into: &objects) }
            groups.append(group)
        }
        storedEndOffset = decoder.currentObjectEndOffset ?? -1
    }

    /// Room made for groups when the first is read: most objects that hold any hold a handful,
    /// and an array grown from nothing reallocates at each doubling.
    private static let usualGroupCount = 4

    private static func collect(_ value: ArchivedValue, _ decoder: some ObjectDecoder, into objects: inout [ObjectIdentifier: AnyObject]) throws(CoderError) {
        switch value {
        case .object(let entry?, _):
            objects[ObjectIdentifier(entry)] = try decoder.object(for: entry)
        case .array(let values), .structure(let values):
            for v in values { try collect(v, decoder, into: &objects) }
        default:
            break
        }
    }

    /// Writes the groups back.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        for group in groups {
            try encoder.encodeGroup(group, objects: objects)
        }
    }

    /// The value of the object `entry` refers to, if decoded.
    public func object(for entry: ArchivedObject) -> AnyObject? { objects[ObjectIdentifier(entry)] }

    /// "GenericObject(MyView v3 : NSView v41 : …)".
    public var description: String {
        "GenericObject(\(archiveClassChain.map(\.description).joined(separator: " : ")), \(groups.count) groups)"
    }
}

/// A generic object as a streaming decode keeps it (see ``GenericObject/groups``): where its
/// groups are read again, its object-table slot, the instances its `@` values stand for, in
/// wire order, and the offsets of the end-of-object markers of the new objects among them that
/// are not generic objects (which know their own, ``GenericObject/endOffset``), in wire order:
/// reading the groups again passes over each nested object in one step.
struct CompactGenericContents {
    let source: GenericObjectSource
    var held: [AnyObject]
    let nestedEnds: [UInt32]
    // Last: no padding after it inside the object that holds these.
    let slot: UInt32
}

/// What an `@` slot holds when it refers to a *class* rather than an object (NeXTSTEP nibs).
public final class ClassReference: ArchivableObject {
    /// The class chain referred to.
    public var archiveClassChain: [ArchiveClassLink] = []
    /// The graph entry.
    public var entry: ArchivedClass?

    /// Creates an empty reference.
    public init() {}
    /// Creates a reference to `entry`.
    public init(_ entry: ArchivedClass) {
        self.entry = entry
        archiveClassChain = entry.links
    }
    /// Never called: class references have no contents.
    public func decodeContents(with decoder: some ObjectDecoder) throws {}
    /// Never called: class references have no contents.
    public func encodeContents(with encoder: some ObjectEncoder) throws {}
}
