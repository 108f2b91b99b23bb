import ObjCTypeEncoding

/// What a damaged archive still holds, as a graph that writes a well-formed archive
/// (``ArchiveReader/salvage(_:limits:)``).
///
/// The checked reader reads up to the damage. What it read whole is kept:
/// - every top-level group it read to the end, as it was (written back with its recorded wire
///   decisions, so the archive written from ``archive`` starts with the same bytes as the input,
///   up to ``keptLength``);
/// - every object inside the damaged top-level group whose end-of-object marker was read before
///   the damage, with everything it refers to that is whole: each one that no object written
///   before it reaches becomes a top-level `"@"` group of its own, after the kept groups, in the
///   order the objects began in the input.
///
/// Objects begun but not ended before the damage are lost (they enclose the damage, so they are
/// the damaged object and its parents); a reference to one from an object that is kept — a
/// child's back-reference to its parent, in a view hierarchy say — is written as nil and listed
/// in ``cutReferences``.
///
/// ```swift
/// let salvage = try ArchiveReader.salvage(damagedBytes)
/// let bytes = try ArchiveWriter.write(salvage.archive)   // passes the checked reader
/// print(salvage.damage?.description ?? "undamaged")
/// ```
///
/// Not `Sendable`, as its ``archive`` is not (see ``ArchivedObject``).
public struct ArchiveSalvage {
    /// A reference from a kept object to a lost one, written as nil.
    public struct CutReference: Hashable, Sendable {
        /// The object-table slot (in the input) of the kept object that held the reference.
        public var from: Int
        /// Its class name.
        public var fromClass: String
        /// The slot (in the input) of the lost object, or of the class (an object value that
        /// names a class) that was defined inside the damaged group.
        public var to: Int
        /// The lost object's class name.
        public var toClass: String
    }

    /// What survived: the kept top-level groups, then one `"@"` group per recovered object. For
    /// an undamaged input, the input's own graph.
    public var archive: Archive
    /// The error that stopped the reader; `nil` when the input was read whole.
    public var damage: WireError?
    /// The input's length.
    public var inputLength: Int
    /// How many top-level groups were read whole and kept.
    public var keptGroupCount: Int
    /// Where the kept top-level groups end in the input (the header's end when none was whole).
    public var keptLength: Int
    /// Where the top-level group the damage cut short begins; `nil` when the damage came between
    /// groups.
    public var damagedGroupOffset: Int?
    /// How many top-level `"@"` groups were added for objects recovered from the damaged group.
    public var addedGroupCount: Int
    /// How many objects the kept top-level groups hold.
    public var keptObjectCount: Int
    /// How many objects of the damaged group were read whole and are kept (the added groups'
    /// objects and all they hold).
    public var recoveredObjectCount: Int
    /// How many objects were begun but not ended before the damage (lost; objects after the
    /// damage are not counted: nothing is known of them).
    public var lostObjectCount: Int
    /// References from kept objects to lost objects or classes, written as nil, in input order.
    public var cutReferences: [CutReference]

    /// Whether the input was read whole.
    public var isUndamaged: Bool { damage == nil }
}

extension ArchiveReader {
    /// Reads `bytes` as far as they are whole and returns what survived (see ``ArchiveSalvage``).
    /// An undamaged input gives its own graph and no damage. Work and memory are linear in the
    /// input: it is read once more than ``read(_:limits:)`` reads it, and every kept object is
    /// looked at a bounded number of times. Throws the reader's ``WireError`` when there is no
    /// valid header, so nothing can be kept.
    public static func salvage(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(WireError) -> ArchiveSalvage {
        let damage: WireError
        do {
            let archive = try read(bytes, limits: limits)
            return ArchiveSalvage(archive: archive, damage: nil, inputLength: bytes.count, keptGroupCount: archive.groups.count,
                                  keptLength: bytes.count, damagedGroupOffset: nil, addedGroupCount: 0,
                                  keptObjectCount: archive.ownedObjects?.count ?? 0, recoveredObjectCount: 0, lostObjectCount: 0, cutReferences: [])
        } catch {
            damage = error
        }
        // Read again, keeping what the builder made when it stopped.
        var reader = TokenReader(bytes: bytes, limits: limits)
        var visitor = SalvageVisitor(builder: Builder(bytes: bytes, limits: limits))
        _ = try? reader.readToEnd(checking: &visitor)
        guard let header = reader.header else { throw damage }
        return visitor.salvage(header: header, damage: damage, inputLength: bytes.count)
    }

    /// Hands the tokens to a ``Builder`` and remembers where the last token it took ends and
    /// how many object-table slots were taken before the current top-level group.
    struct SalvageVisitor: CheckingTokenVisitor {
        static var wantsTypes: Bool { true }
        var builder: Builder
        /// The end of the last token the builder took.
        var lastEnd = 0
        /// The object-table slots taken so far.
        var slotCount = 0
        /// The object-table slots taken before the current top-level group began.
        var slotsBeforeGroup = 0
        var error: WireError? { builder.error }

        mutating func visit(_ token: CompactToken) -> Bool { visit(token, types: nil) }

        mutating func visit(_ token: CompactToken, types: [ObjCType]?) -> Bool {
            guard builder.error == nil else { return false }
            if token.depth == 0, token.code == .typeString || token.code == .untypedGroup { slotsBeforeGroup = slotCount }
            guard builder.visit(token, types: types) else { return false }
            lastEnd = token.end
            if token.form == .new, token.code == .object || token.code == .classLink || token.code == .cString { slotCount = token.slot + 1 }
            return true
        }

        /// What survived, once the reading has stopped.
        mutating func salvage(header: StreamHeader, damage: WireError, inputLength: Int) -> ArchiveSalvage {
            let lost = builder.objects.reduce(0) { $0 + ($1.endOffset == nil ? 1 : 0) } + (builder.open.contains(.objectChain) ? 1 : 0)
            let (kept, damagedGroup) = builder.takeWholeTopLevelGroups()
            var salvage = ArchiveSalvage(archive: Archive(header: header), damage: damage, inputLength: inputLength, keptGroupCount: kept.count,
                                         keptLength: damagedGroup ?? lastEnd, damagedGroupOffset: damagedGroup, addedGroupCount: 0,
                                         keptObjectCount: 0, recoveredObjectCount: 0, lostObjectCount: lost, cutReferences: [])
            var recovered: [ArchivedObject] = []
            for object in builder.objects where object.endOffset != nil {
                if let damagedGroup, let offset = object.sourceOffset, offset >= damagedGroup {
                    recovered.append(object)
                } else {
                    salvage.keptObjectCount += 1
                }
            }
            salvage.recoveredObjectCount = recovered.count
            var cutter = ReferenceCutter(firstDamagedSlot: damagedGroup == nil ? Int.max : slotsBeforeGroup)
            for object in recovered { cutter.cut(in: object) }
            salvage.cutReferences = cutter.cut
            let added = Self.topLevelGroups(for: recovered)
            salvage.addedGroupCount = added.count
            salvage.archive = Archive(header: header, groups: kept + added, owning: builder.objects)
            return salvage
        }

        /// One `"@"` group for each object of `recovered` (whole objects of the damaged group,
        /// in input order) that none before it reaches.
        static func topLevelGroups(for recovered: [ArchivedObject]) -> [ArchivedGroup] {
            var candidates = Set<ObjectIdentifier>()
            for object in recovered { candidates.insert(ObjectIdentifier(object)) }
            var reached = Set<ObjectIdentifier>()
            let head = GroupHead(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], decision: nil)
            var groups: [ArchivedGroup] = []
            var objects: [ArchivedObject] = []
            var values: [ArchivedValue] = []
            for object in recovered where reached.insert(ObjectIdentifier(object)).inserted {
                groups.append(ArchivedGroup(head: head, storage: .one(.object(object, referenceWidth: nil)), offset: nil))
                // Everything it reaches among the recovered objects, once each.
                objects.append(object)
                while let next = objects.popLast() {
                    for group in next.groups {
                        for index in 0..<group.valueCount { values.append(group.value(at: index)) }
                        while let value = values.popLast() {
                            switch value {
                            case .object(let held?, _):
                                let id = ObjectIdentifier(held)
                                if candidates.contains(id), reached.insert(id).inserted { objects.append(held) }
                            case .array(let elements), .structure(let elements):
                                values.append(contentsOf: elements)
                            default:
                                break
                            }
                        }
                    }
                }
            }
            return groups
        }
    }

    /// Replaces, in the groups of whole objects, every reference to a lost object (one begun
    /// and not ended before the damage) or to a class defined in the damaged group by nil.
    struct ReferenceCutter {
        /// Slots from this one on were defined in the damaged top-level group.
        let firstDamagedSlot: Int
        /// What was cut, in order.
        var cut: [ArchiveSalvage.CutReference] = []

        /// Cuts the references `object` holds.
        mutating func cut(in object: ArchivedObject) {
            var groups = object.groups
            var changed = false
            for index in groups.indices where groups[index].types.contains(where: Self.mayHoldObject) {
                var values = groups[index].values
                var groupChanged = false
                for position in values.indices {
                    if let replacement = cleaned(values[position], in: object) {
                        values[position] = replacement
                        groupChanged = true
                    }
                }
                if groupChanged {
                    groups[index].values = values
                    changed = true
                }
            }
            if changed { object.groups = groups }
        }

        /// Whether a value of `type` may hold an object.
        static func mayHoldObject(_ type: ObjCType) -> Bool {
            switch type.unqualified {
            case .object: true
            case .array(_, let element): mayHoldObject(element)
            case .structure(_, let fields): fields.contains { mayHoldObject($0.type) }
            default: false
            }
        }

        /// `value` with its cut references replaced by nil, or `nil` when nothing in it is cut.
        /// (Recurses through arrays and structs only, whose nesting the type-nesting limit bounds.)
        mutating func cleaned(_ value: ArchivedValue, in holder: ArchivedObject) -> ArchivedValue? {
            switch value {
            case .object(let held?, _) where held.endOffset == nil:
                cut.append(.init(from: holder.sourceIndex ?? -1, fromClass: holder.className, to: held.sourceIndex ?? -1, toClass: held.className))
                return .object(nil, referenceWidth: nil)
            case .objectSlotClass(let entry, _) where (entry.sourceIndex ?? Int.max) >= firstDamagedSlot:
                cut.append(.init(from: holder.sourceIndex ?? -1, fromClass: holder.className, to: entry.sourceIndex ?? -1, toClass: entry.nameText))
                return .object(nil, referenceWidth: nil)
            case .array(var elements), .structure(var elements):
                var changed = false
                for index in elements.indices {
                    if let replacement = cleaned(elements[index], in: holder) {
                        elements[index] = replacement
                        changed = true
                    }
                }
                guard changed else { return nil }
                if case .array = value { return .array(elements) }
                return .structure(elements)
            default:
                return nil
            }
        }
    }
}

extension ArchiveReader.Builder {
    /// Takes the top-level groups read whole, and the offset of the top-level group that was
    /// still open and is not whole (`nil` when there is none). The group still open is whole
    /// when nothing inside it is open and it has a value for each of its types. Leaves the
    /// builder with no group or object open.
    mutating func takeWholeTopLevelGroups() -> (groups: [ArchivedGroup], damagedGroup: Int?) {
        if open.count == 1, open[0] == .group, let start = valueStarts.first {
            var typeCount = -1
            groupHeads.updateLast { typeCount = $0.types.count }
            if values.count - start == typeCount { try? closeGroupIfOpen() }
        }
        var damagedGroup: Int? = nil
        if !open.isEmpty {
            damagedGroup = groupHeads.popArray(from: 0).first?.offset
            if contents.count > 1 {
                _ = groups.popArray(from: contents[1].start)
                contents.removeSubrange(1...)
            }
            open.removeAll()
        }
        return (takeContents(), damagedGroup)
    }
}
