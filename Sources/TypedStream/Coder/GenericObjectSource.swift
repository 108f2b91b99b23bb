/// Where the generic objects of one streaming decode find their groups again: the archive's
/// index (checked whole before the decode began), and the graph-style entries their groups
/// refer to, made once per slot when first asked for and shared by every generic object of the
/// decode, as the graph reader shares them.
///
/// A streaming decode keeps a ``GenericObject`` compact — its slot, the instances it refers to
/// in wire order, nothing else — and the object reads its groups from here only when they are
/// asked for (``contents(ofObject:held:)``). Not `Sendable`, like the graph entries it makes:
/// the objects of one decode are for one thread (or task) at a time.
final class GenericObjectSource {
    /// The archive, read and checked whole.
    let index: ArchiveIndex
    /// Per shared-string slot: the head of the groups with that type string.
    private var heads: [GroupHead?] = []
    /// Per object-table slot: the class entry of a class slot.
    private var classes: [ArchivedClass?] = []
    /// Per object-table slot: the C-string entry of a C-string slot.
    private var cStrings: [ArchivedCString?] = []
    /// Per object-table slot: the entry groups refer to an object by.
    private var entries: [ArchivedObject?] = []

    /// A source reading `index`.
    init(index: ArchiveIndex) {
        self.index = index
    }

    /// The groups of the object in `slot`, as the graph reader makes them, and the instances
    /// their objects stand for: `held` gives them in wire order, one per `@` value that is
    /// neither nil nor a class (what ``Unarchiver`` collected while streaming the object). A
    /// nested object's own contents are passed over (it was decoded where it stands): in one
    /// step to its end-of-object marker — a generic object's ``GenericObject/endOffset``, any
    /// other's the next of `nestedEnds` (in wire order) — so that reading an object again costs
    /// its own tokens, not its nested objects' too (objects nested `n` deep would otherwise be
    /// read `n` times over). With `keepingEntries` false, the entries of the objects the
    /// groups refer to that were not made before are made for these groups alone (a caller
    /// that reads each object once keeps one object's entries at a time).
    ///
    /// The archive was checked whole, so the tokens read again are those the decode met; a
    /// read that failed all the same would end the groups there rather than trap.
    func contents(ofObject slot: Int, held: [AnyObject], nestedEnds: [UInt32] = [],
                  keepingEntries: Bool = true) -> (groups: [ArchivedGroup], objects: [ObjectIdentifier: AnyObject]) {
        var reader = index.tokens(ofObject: slot)
        let bytes = index.bytes
        var groups: [ArchivedGroup] = []
        var objects: [ObjectIdentifier: AnyObject] = [:]
        var nextHeld = 0
        var nextNestedEnd = 0
        // The group being read: its head and offset, its values, and where each open array or
        // struct starts among them.
        var head: GroupHead?
        var groupOffset = 0
        var values: [ArchivedValue] = []
        var listStarts: [Int] = []
        // A class value being read (`#`): the slot of its first new class.
        var firstNewClass: Int?
        // How many nested objects are open (their tokens are passed over).
        var nested = 0
        var isOwnHead = true

        func finishGroup() {
            guard let open = head else { return }
            groups.append(ArchivedGroup(head: open, storage: GroupValues(values), offset: groupOffset))
            values = []
            listStarts = []
            head = nil
        }

        func hold(_ entry: ArchivedObject) -> AnyObject? {
            guard nextHeld < held.count else { return nil }
            let instance = held[nextHeld]
            objects[ObjectIdentifier(entry)] = instance
            nextHeld += 1
            return instance
        }

        // Where the new object `instance` ends (see above); `nil`: its tokens are read.
        func endMarker(of instance: AnyObject?) -> Int? {
            guard let instance else { return nil }
            if let generic = instance as? GenericObject, let end = generic.endOffset { return end }
            guard nextNestedEnd < nestedEnds.count else { return nil }
            nextNestedEnd += 1
            return Int(nestedEnds[nextNestedEnd - 1])
        }

        reading: while let token = try? reader.nextCompact() {
            if nested > 0 {
                if token.code == .object, token.form == .new {
                    nested += 1
                } else if token.code == .endOfObject {
                    nested -= 1
                }
                continue
            }
            if isOwnHead {
                isOwnHead = false  // the object's own `new` token
                continue
            }
            switch token.code {
            case .typeString:
                finishGroup()
                head = groupHead(token, in: reader)
                groupOffset = token.start
            case .endOfObject:
                break reading
            case .classLink:
                // Before the first group: the object's own chain. In a group: a class value,
                // new classes ending at nil or at a class read before.
                guard head != nil else { continue }
                if token.form == .new {
                    if firstNewClass == nil { firstNewClass = token.slot }
                    continue
                }
                let classSlot = firstNewClass ?? (token.form == .reference ? token.slot : nil)
                let width = firstNewClass == nil && token.form == .reference ? token.width : nil
                firstNewClass = nil
                values.append(.classObject(classSlot.flatMap(classEntry), referenceWidth: width))
            case .arrayStart, .structStart:
                listStarts.append(values.count)
            case .arrayEnd, .structEnd:
                let start = min(listStarts.popLast() ?? values.count, values.count)
                let list = Array(values[start...])
                values.removeSubrange(start...)
                values.append(token.code == .arrayEnd ? .array(list) : .structure(list))
            case .object:
                switch token.form {
                case .null:
                    values.append(.object(nil, referenceWidth: nil))
                case .reference where index.kind(ofSlot: token.slot) == .class:
                    guard let entry = classEntry(token.slot) else { continue }
                    values.append(.objectSlotClass(entry, referenceWidth: token.width))
                default:
                    guard let entry = objectEntry(token.slot, keeping: keepingEntries) else { continue }
                    let instance = hold(entry)
                    let isNew = token.form == .new
                    values.append(.object(entry, referenceWidth: isNew ? nil : token.width))
                    if isNew {
                        nested = 1
                        if let marker = endMarker(of: instance) { index.passOverObject(endingAt: marker, reader: &reader) }
                    }
                }
            case .cString:
                switch token.form {
                case .null:
                    values.append(.cString(nil, referenceWidth: nil))
                case .reference:
                    values.append(.cString(cStringEntry(token.slot), referenceWidth: token.width))
                default:
                    values.append(.cString(cStringEntry(token.slot, definedBy: token), referenceWidth: nil))
                }
            default:
                if let plain = ArchivedValue(plainToken: token, in: bytes) { values.append(plain) }
            }
        }
        finishGroup()
        return (groups, objects)
    }

    /// The head for groups whose type string token is `token`, shared by the groups of one
    /// shared string written the same way.
    private func groupHead(_ token: CompactToken, in reader: TokenReader) -> GroupHead {
        let slot = token.textIndex
        let decision = token.textDecision
        if slot < heads.count, let known = heads[slot], known.decision == decision { return known }
        let made = GroupHead(typeString: index.bytes[token.payload], types: reader.types(ofSharedString: slot) ?? [], decision: decision)
        heads.pad(toInclude: slot, with: nil)
        heads[slot] = made
        return made
    }

    /// The entry groups refer to the object in `slot` by (its class, slot and offset, without
    /// contents), made once — or, unless `keeping`, made anew each time until one is kept.
    private func objectEntry(_ slot: Int, keeping: Bool = true) -> ArchivedObject? {
        if slot < entries.count, let known = entries[slot] { return known }
        guard let classSlot = index.classSlot(ofObject: slot), let archivedClass = classEntry(classSlot) else { return nil }
        let entry = ArchivedObject(archivedClass: archivedClass)
        entry.sourceIndex = slot
        entry.sourceOffset = index.offset(ofSlot: slot)
        guard keeping else { return entry }
        entries.pad(toInclude: slot, with: nil)
        entries[slot] = entry
        return entry
    }

    /// The entry of the C string in `slot`, made once (from `token` when it is the one that
    /// defined it, else read again).
    private func cStringEntry(_ slot: Int, definedBy token: CompactToken? = nil) -> ArchivedCString? {
        if slot < cStrings.count, let known = cStrings[slot] { return known }
        guard let defining = token ?? index.cStringToken(ofSlot: slot) else { return nil }
        let entry = ArchivedCString(text: index.bytes[defining.payload], textDecision: defining.textDecision, sourceIndex: slot)
        cStrings.pad(toInclude: slot, with: nil)
        cStrings[slot] = entry
        return entry
    }

    /// The entry of the class in `slot` and its superclasses, made once each, from the root down.
    private func classEntry(_ slot: Int) -> ArchivedClass? {
        if slot < classes.count, let known = classes[slot] { return known }
        // The classes without an entry yet, most derived first, with their links. The index
        // refused chains that loop; the bound only keeps a bug from hanging.
        var missing: [(slot: Int, link: CompactToken, superclass: CompactToken)] = []
        var superclass: ArchivedClass?
        var current: Int? = slot
        while let next = current, missing.count < index.slotCount {
            if next < classes.count, let known = classes[next] {
                superclass = known
                break
            }
            guard let links = index.classLinks(ofClass: next) else { return nil }
            missing.append((next, links.link, links.superclass))
            current = links.superclass.form == .null ? nil : links.superclass.slot
        }
        while let pending = missing.popLast() {
            let link = pending.link
            let made = ArchivedClass(name: index.bytes[link.payload], nameDecision: link.textDecision, version: link.value,
                                     versionWidth: link.width, sourceIndex: pending.slot, superclass: superclass,
                                     superclassReferenceWidth: pending.superclass.form == .reference ? pending.superclass.width : nil)
            classes.pad(toInclude: pending.slot, with: nil)
            classes[pending.slot] = made
            superclass = made
        }
        return slot < classes.count ? classes[slot] : nil
    }
}
