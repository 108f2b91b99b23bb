import ObjCTypeEncoding
import TypedStream

/// Makes ``ArchivedObject``s for some objects of an indexed archive — an object, the objects
/// inside it and those it refers to — read again from the bytes, so a class codec can decode
/// them (``Unarchiver/init(archive:registry:options:)``) without the graph of the whole archive.
///
/// Objects are made once per slot until ``clear()``; references to objects outside the one
/// being read get a stub that is filled from its own reading afterwards (no recursion).
struct ArchiveSubgraph {
    let index: ArchiveIndex
    /// Per class slot: version and superclass slot (−1: none).
    var classes: [Int: (version: Int64, superclass: Int)] = [:]
    private var objects: [Int: ArchivedObject] = [:]
    private var classEntries: [Int: ArchivedClass] = [:]
    private var cStrings: [Int: ArchivedCString] = [:]
    /// Stubs made for references, waiting to be filled.
    private var unfilled: [Int] = []
    /// Per object made: the objects reached from it when references are followed again.
    private var expanded: [ObjectIdentifier: Int] = [:]

    init(index: ArchiveIndex) { self.index = index }

    /// The number of objects made so far.
    var size: Int { objects.count }

    /// Forgets every object made.
    mutating func clear() {
        expanded.removeAll()
        objects.removeAll()
        classEntries.removeAll()
        cStrings.removeAll()
    }

    /// The object in `slot` with everything it holds and refers to, or `nil` when `slot` is not
    /// an object.
    mutating func object(_ slot: Int) -> ArchivedObject? {
        guard index.kind(ofSlot: slot) == .object else { return nil }
        if let made = objects[slot] { return made }
        let root = stub(slot)
        unfilled.append(slot)
        while let next = unfilled.popLast() { fill(next) }
        return root
    }

    /// An object with its class and no groups yet, registered for `slot`.
    private mutating func stub(_ slot: Int) -> ArchivedObject {
        if let made = objects[slot] { return made }
        let entry = ArchivedObject(archivedClass: archivedClass(index.classSlot(ofObject: slot) ?? -1) ?? ArchivedClass(name: [], version: 0))
        entry.sourceIndex = slot
        entry.sourceOffset = index.offset(ofSlot: slot)
        objects[slot] = entry
        return entry
    }

    private mutating func archivedClass(_ slot: Int) -> ArchivedClass? {
        guard slot >= 0, index.kind(ofSlot: slot) == .class else { return nil }
        if let made = classEntries[slot] { return made }
        // Made from the root class down, so each superclass exists first.
        var chain: [Int] = []
        var current = slot
        while current >= 0, classEntries[current] == nil, chain.count <= index.slotCount {
            chain.append(current)
            current = classes[current]?.superclass ?? -1
        }
        for c in chain.reversed() {
            let info = classes[c] ?? (0, -1)
            let entry = ArchivedClass(name: index.text(ofSlot: c) ?? [], version: info.version,
                                      superclass: info.superclass >= 0 ? classEntries[info.superclass] : nil)
            entry.sourceIndex = c
            classEntries[c] = entry
        }
        return classEntries[slot]
    }

    private mutating func cString(_ slot: Int) -> ArchivedCString {
        if let made = cStrings[slot] { return made }
        let entry = ArchivedCString(text: index.text(ofSlot: slot) ?? [])
        entry.sourceIndex = slot
        cStrings[slot] = entry
        return entry
    }

    /// What is being read: the groups of an object, or the elements of an array or struct.
    private struct Frame {
        var object: ArchivedObject?
        var groups: [ArchivedGroup] = []
        var typeString: ArraySlice<UInt8>?? = nil
        var types: [ObjCType] = []
        var values: [ArchivedValue] = []
        var isStructure = false
    }

    /// Reads the object in `slot` (a stub) and its contents; objects inside it are made as they
    /// come, objects it refers to become stubs filled later.
    private mutating func fill(_ slot: Int) {
        guard let target = objects[slot], target.groups.isEmpty else { return }
        var reader = index.tokens(ofObject: slot)
        var frames: [Frame] = []
        func closeGroup(_ frame: inout Frame) {
            if let type = frame.typeString {
                frame.groups.append(ArchivedGroup(typeString: type, types: frame.types, values: frame.values))
            }
            frame.typeString = nil
            frame.values = []
        }
        func append(_ value: ArchivedValue) {
            if !frames.isEmpty { frames[frames.count - 1].values.append(value) }
        }
        func skipChain(_ first: CompactToken) {
            guard first.form == .new else { return }
            while let link = try? reader.nextCompact() {
                if link.code == .classLink, link.form == .new { continue }
                break
            }
        }
        while let token = try? reader.nextCompact() {
            switch token.code {
            case .object where token.form == .new:
                let entry = frames.isEmpty ? target : stub(token.slot)
                if !frames.isEmpty { append(.object(entry, referenceWidth: nil)) }
                frames.append(Frame(object: entry))
                if let first = try? reader.nextCompact(), first.code == .classLink { skipChain(first) }
            case .object:
                if token.form == .null {
                    append(.object(nil, referenceWidth: nil))
                } else if index.kind(ofSlot: token.slot) == .class, let entry = archivedClass(token.slot) {
                    append(.objectSlotClass(entry, referenceWidth: nil))
                } else {
                    let known = objects[token.slot] != nil
                    append(.object(stub(token.slot), referenceWidth: nil))
                    if !known { unfilled.append(token.slot) }
                }
            case .typeString, .untypedGroup:
                guard !frames.isEmpty else { continue }
                closeGroup(&frames[frames.count - 1])
                frames[frames.count - 1].typeString = token.code == .typeString ? .some(index.bytes[token.payload]) : .some(nil)
                frames[frames.count - 1].types = token.code == .typeString ? reader.types(ofSharedString: token.textIndex) ?? [] : [.object(className: nil)]
            case .endOfObject:
                guard var frame = frames.popLast() else { continue }
                closeGroup(&frame)
                frame.object?.groups = frame.groups
            case .arrayStart, .structStart:
                frames.append(Frame(isStructure: token.code == .structStart))
            case .arrayEnd, .structEnd:
                guard let frame = frames.popLast() else { continue }
                append(frame.isStructure ? .structure(frame.values) : .array(frame.values))
            case .integer:
                append(.integer(token.value, width: token.width))
            case .float:
                append(token.form == .ieee ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: token.value)), form: .ieee)
                                           : .float(Float(token.value), form: .integral(token.width)))
            case .double:
                append(token.form == .ieee ? .double(Double(bitPattern: UInt64(bitPattern: token.value)), form: .ieee)
                                           : .double(Double(token.value), form: .integral(token.width)))
            case .byte:
                append(.byte(UInt8(truncatingIfNeeded: token.value)))
            case .rawBytes:
                append(.bytes(index.bytes[token.payload]))
            case .unsharedString:
                append(.unsharedString(token.form == .null ? nil : index.bytes[token.payload], lengthWidth: token.width))
            case .sharedString:
                append(.sharedString(token.form == .null ? nil : index.bytes[token.payload], decision: nil))
            case .cString:
                append(.cString(token.form == .null ? nil : cString(token.slot), referenceWidth: nil))
            case .classLink:
                append(.classObject(token.form == .null ? nil : archivedClass(token.slot), referenceWidth: nil))
                skipChain(token)
            case .ignored:
                append(.ignored)
            case .header, .instanceSize:
                break
            }
        }
    }

    /// The number of objects reached from `root` when every reference is followed again through
    /// objects of classes `registry` decodes (what writing its natural value out in full costs),
    /// counted up to `limit` (`limit + 1` means more). No recursion; each object counted once
    /// until ``clear()``.
    mutating func expandedSize(of root: ArchivedObject, limit: Int, registry: ClassRegistry) -> Int {
        if let known = expanded[ObjectIdentifier(root)] { return known }
        func children(_ object: ArchivedObject) -> [ArchivedObject] {
            guard registry.type(forClassName: object.className) != nil else { return [] }
            var found: [ArchivedObject] = []
            var pending: [ArchivedValue] = []
            for group in object.groups {
                for i in 0..<group.valueCount { pending.append(group.value(at: i)) }
            }
            while let value = pending.popLast() {
                switch value {
                case .object(let child?, _): found.append(child)
                case .array(let inner), .structure(let inner): pending.append(contentsOf: inner)
                default: break
                }
            }
            return found
        }
        var stack: [(object: ArchivedObject, children: [ArchivedObject], next: Int, sum: Int)] = [(root, children(root), 0, 1)]
        var onPath: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        while let top = stack.last {
            if top.sum > limit || top.next == top.children.count {
                stack.removeLast()
                onPath.remove(ObjectIdentifier(top.object))
                let total = min(top.sum, limit + 1)
                expanded[ObjectIdentifier(top.object)] = total
                if stack.isEmpty { return total }
                stack[stack.count - 1].sum += total
                continue
            }
            let child = top.children[top.next]
            stack[stack.count - 1].next += 1
            let id = ObjectIdentifier(child)
            if let known = expanded[id] {
                stack[stack.count - 1].sum += known
            } else if onPath.contains(id) {
                stack[stack.count - 1].sum += 1
            } else {
                onPath.insert(id)
                stack.append((child, children(child), 0, 1))
            }
        }
        return 1
    }
}
