import ObjCTypeEncoding
import TypedStream

/// What a ``PlainJSON/NaturalValue`` hook may ask about the archive beyond one object: other
/// objects (``object(_:)``) and the typed object a class codec decodes (``typedObject(_:registry:)``).
///
/// It reads what it is asked for again from the archive's bytes. A typed object is decoded from
/// a graph of just the object and what it refers to, made for the occasion and dropped after.
public final class PlainJSONContext: @unchecked Sendable {
    /// The archive.
    public let index: ArchiveIndex
    /// Per class slot: its version and superclass slot (−1: none).
    private var classes: [Int: (version: Int64, superclass: Int)] = [:]
    /// Object slots that a reference inside their own contents points back to.
    private(set) var selfReferenced: Set<Int> = []
    /// Per object-table slot: whether some reference points to it (only those are repeated).
    private(set) var referenced: [Bool] = []
    private var subgraph: ArchiveSubgraph
    private var unarchiver: Unarchiver?
    /// The most objects a typed object may reach when its references are followed again (its
    /// natural value repeats shared objects at each use).
    let expansionLimit: Int
    /// Set when ``typedObject(_:registry:)`` refused an object over ``expansionLimit``.
    private(set) var overBudget: Int?
    /// Per object slot: the objects reached from it when every reference is followed again, as
    /// though every class decoded (so at least what the budget counts), capped just past
    /// ``expansionLimit``. An object within the limit by this count needs no closer count.
    private var reach: [Int32] = []
    /// The whole archive decoded once, made when enough typed objects are asked for; `.none`
    /// inside when its decode failed (then every typed object takes the per-object way).
    private var decoded: DecodedInstances??
    /// Typed objects asked for so far.
    private var typedRequests = 0
    /// How many typed objects are decoded one by one before the whole archive is decoded
    /// instead (an archive with a few typed objects among many others never pays for it).
    private static let typedObjectsBeforeWholeDecode = 32

    /// Creates a context over `index`, with the budget of `limits`.
    public init(index: ArchiveIndex, limits: OutputLimits = .default) {
        self.index = index
        expansionLimit = max(1024, limits.repeatedBytes(forInputOf: index.bytes.count) / 32)
        subgraph = ArchiveSubgraph(index: index)
        scan()
        subgraph.classes = classes
    }

    /// Reads every token once: the version and superclass of each class, and which objects are
    /// referred to (and which from inside themselves).
    private func scan() {
        var reader = TokenReader(bytes: index.bytes, compiled: index.compiledTypeStrings)
        let slotCount = index.slotCount
        var referenced = [Bool](repeating: false, count: slotCount)
        var selfReferenced: Set<Int> = []
        var classes: [Int: (version: Int64, superclass: Int)] = [:]
        var reach = [Int32](repeating: 1, count: slotCount)
        var linkAwaitingSuperclass: Int?
        var open: [Int] = []
        var isOpen = [Bool](repeating: false, count: slotCount)
        let reachCap = Int64(min(expansionLimit, Int(Int32.max) - 1) + 1)
        // Per open object: the objects reached from it so far.
        var openReach: [Int64] = []
        let index = self.index
        // The archive was checked whole by the index: reading it again meets no error.
        try? reader.forEachCompact { token in
            switch token.code {
            case .classLink:
                let target = token.form == .null ? -1 : token.slot
                if let previous = linkAwaitingSuperclass { classes[previous]?.superclass = target }
                linkAwaitingSuperclass = nil
                if token.form == .new, classes[token.slot] == nil {
                    classes[token.slot] = (token.value, -1)
                    linkAwaitingSuperclass = token.slot
                }
            case .object:
                if token.form == .new {
                    open.append(token.slot)
                    openReach.append(1)
                    if token.slot < slotCount { isOpen[token.slot] = true }
                } else if token.form == .reference {
                    if token.slot < slotCount { referenced[token.slot] = true }
                    if token.slot < slotCount, isOpen[token.slot] { selfReferenced.insert(token.slot) }
                    // A reference to an object reaches what that object reaches (once closed;
                    // an open one is a cycle, counted once).
                    if !openReach.isEmpty, token.slot < slotCount, index.kind(ofSlot: token.slot) == .object {
                        let added = isOpen[token.slot] ? 1 : Int64(reach[token.slot])
                        openReach[openReach.count - 1] = min(openReach[openReach.count - 1] + added, reachCap)
                    }
                }
            case .endOfObject:
                if let slot = open.popLast(), let total = openReach.popLast() {
                    if slot < slotCount {
                        isOpen[slot] = false
                        reach[slot] = Int32(truncatingIfNeeded: total)
                    }
                    if !openReach.isEmpty { openReach[openReach.count - 1] = min(openReach[openReach.count - 1] + total, reachCap) }
                }
            default:
                break
            }
        }
        self.referenced = referenced
        self.selfReferenced = selfReferenced
        self.classes = classes
        self.reach = reach
    }

    /// Per class slot: whether a class named in `names` appears in its chain at another version
    /// than 0 (what NSNumber's codec refuses), remembered.
    private var chainVersionCheck: [Int: Bool] = [:]

    /// Whether every class of `object`'s chain that `names` names is at version 0 — what the
    /// NSValue family's codecs require (`NSNumber`, `NSValue` at 0).
    public func chainVersionsAreZero(_ object: PlainJSONObject, for names: [String]) -> Bool {
        chainVersionsAreZero(classSlot: object.classSlot, for: names)
    }

    /// ``chainVersionsAreZero(_:for:)`` for the objects of the class in `classSlot`.
    func chainVersionsAreZero(classSlot: Int, for names: [String]) -> Bool {
        if let known = chainVersionCheck[classSlot] { return known }
        let ok = chainVersions(classSlot: classSlot, within: names.map { ($0, 0...0) })
        if chainVersionCheck.count < 1 << 12 { chainVersionCheck[classSlot] = ok }
        return ok
    }

    /// Whether each class of the chain from `classSlot` up that `supported` names is at a
    /// version in its range (as a codec's `requireChainVersions` checks; classes not named pass).
    func chainVersions(classSlot: Int, within supported: [(name: String, versions: ClosedRange<Int64>)]) -> Bool {
        var current = classSlot
        var links = 0
        while current >= 0, links <= index.slotCount {
            if let name = index.text(ofSlot: current),
               let range = supported.first(where: { name.elementsEqual($0.name.utf8) })?.versions,
               !range.contains(classes[current]?.version ?? 0) {
                return false
            }
            current = classes[current]?.superclass ?? -1
            links += 1
        }
        return true
    }

    /// Whether the object in `slot` surely stays within the expansion budget when its
    /// references are followed again (its reach, counted as though every class decoded, is
    /// within ``expansionLimit``): then ``typedObject(_:registry:)`` would not refuse it.
    func expandsWithinLimit(_ slot: Int) -> Bool {
        slot >= 0 && slot < reach.count && Int(reach[slot]) <= expansionLimit
    }

    /// The class chain of the object in `object`, as links (name and version), from its class up.
    public func classChain(of object: PlainJSONObject) -> [ArchiveClassLink] {
        var links: [ArchiveClassLink] = []
        var current = object.classSlot
        while current >= 0, links.count <= index.slotCount {
            links.append(ArchiveClassLink(String(decoding: index.text(ofSlot: current) ?? [], as: UTF8.self), version: classes[current]?.version ?? 0))
            current = classes[current]?.superclass ?? -1
        }
        return links
    }

    /// The text of the C string (`*`) that is the first value of `group` of `object`; `nil` when
    /// that value is not a C string or is NULL.
    func cStringText(_ object: PlainJSONObject, group: Int) -> ArraySlice<UInt8>? {
        guard group >= 0, group < object.groups.count, !object.groups[group].items.isEmpty else { return nil }
        let item = object.items[object.groups[group].items.lowerBound]
        guard item.code == .cString else { return nil }
        switch item.form {
        case .null: return nil
        case .reference: return index.text(ofSlot: Int(item.slot)) ?? []
        default: return index.bytes[item.payload]
        }
    }

    /// The value at `item` of a group of `object` as the archive graph holds a leaf: integers,
    /// reals, bytes and strings (`nil` for objects, arrays and the rest).
    public func leafValue(_ object: PlainJSONObject, group: Int, index position: Int) -> ArchivedValue? {
        guard group >= 0, group < object.groups.count, position == 0, !object.groups[group].items.isEmpty else { return nil }
        return leafValue(object.items[object.groups[group].items.lowerBound])
    }

    /// The leaf value of `item` (as ``leafValue(_:group:index:)``).
    func leafValue(_ item: PlainItem) -> ArchivedValue? {
        switch item.code {
        case .integer: return .integer(item.value, width: nil)
        case .float:
            return .float(item.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: item.value)) : Float(item.value), form: nil)
        case .double:
            return .double(item.form == .ieee ? Double(bitPattern: UInt64(bitPattern: item.value)) : Double(item.value), form: nil)
        case .byte: return .byte(UInt8(truncatingIfNeeded: item.value))
        case .unsharedString: return .unsharedString(item.form == .null ? nil : index.bytes[item.payload], lengthWidth: nil)
        case .cString:
            switch item.form {
            case .null: return .cString(nil, referenceWidth: nil)
            case .reference: return .cString(ArchivedCString(text: index.text(ofSlot: Int(item.slot)) ?? []), referenceWidth: nil)
            default: return .cString(ArchivedCString(text: index.bytes[item.payload]), referenceWidth: nil)
            }
        default: return nil
        }
    }

    /// Views of objects made while their parent was read, waiting to be asked for.
    private var readAhead: [Int: PlainJSONObject] = [:]

    /// The object in `slot` as plain JSON sees it, or `nil` when `slot` holds no object.
    public func object(_ slot: Int) -> PlainJSONObject? {
        if let ready = readAhead.removeValue(forKey: slot) { return ready }
        // The first few objects inside it are read in the same pass (a dictionary's numbers, a
        // record's strings); a container of many reads the rest when it reaches them.
        // Views never asked for (the insides of a typed object) are dropped now and then.
        if readAhead.count >= 1024 { readAhead.removeAll(keepingCapacity: true) }
        return PlainJSONObject.read(slot: slot, from: index, childLimit: 64) { child in
            readAhead[child.slot] = child
        }
    }

    /// The object a codec of `registry` decodes for `object` (`nil` when decoding fails). Made
    /// from a graph of the object and the objects it refers to, read for the occasion. One
    /// context decodes with one registry: the first one it is given.
    public func typedObject(_ object: PlainJSONObject, registry: ClassRegistry) -> AnyObject? {
        // An unregistered class decodes as a generic object: nothing to decode.
        guard registry.type(forClassName: object.className) != nil else { return nil }
        if let instance = decodedInstance(object, registry: registry) { return instance }
        guard let entry = subgraph.object(object.slot) else { return nil }
        // A natural value repeats the objects it refers to at each reference: refuse what would
        // expand past the budget (the converter reports it).
        if subgraph.expandedSize(of: entry, limit: expansionLimit, registry: registry) > expansionLimit {
            overBudget = object.slot
            return nil
        }
        if unarchiver == nil {
            unarchiver = Unarchiver(archive: Archive(header: index.header, groups: []), registry: registry)
        }
        let decoded = try? unarchiver?.object(for: entry)
        // The decoder and its subgraph keep what they decoded; both start afresh now and then
        // so memory stays small.
        if subgraph.size > 1 << 14 {
            subgraph.clear()
            unarchiver = nil
        }
        return decoded
    }

    /// The instance of the whole archive's decode for `object`, when there is one and the object
    /// is well within the expansion budget; `nil` sends it the per-object way (which counts
    /// closely and decodes it alone). Archives with cycles always go the per-object way, where
    /// an object's decoding starts from the object itself.
    private func decodedInstance(_ object: PlainJSONObject, registry: ClassRegistry) -> AnyObject? {
        typedRequests += 1
        if decoded == nil {
            guard typedRequests > Self.typedObjectsBeforeWholeDecode else { return nil }
            decoded = .some(selfReferenced.isEmpty ? DecodedInstances(index: index, registry: registry) : nil)
        }
        guard case let whole?? = decoded, object.slot >= 0, object.slot < reach.count,
              Int(reach[object.slot]) <= expansionLimit else { return nil }
        return whole.instance(ofSlot: object.slot)
    }
}
