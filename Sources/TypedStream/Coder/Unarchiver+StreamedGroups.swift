import ObjCTypeEncoding

/// Groups taken whole while streaming (``Unarchiver/decodeGroup()``, what ``GenericObject``
/// keeps): the values the graph reader would make for the group, read from the tokens in wire
/// order. A new object among them is decoded where it stands, as ``Unarchiver/decodeObject()``
/// decodes one; the group refers to each object by a graph-style ``ArchivedObject`` made for
/// its slot (its class and slot, without contents), which ``Unarchiver/object(for:)`` maps back
/// to the decoded instance; a class value (`#`, or an `@` slot naming a class) refers to a
/// graph-style ``ArchivedClass`` made once per class. A reader error makes the call under way
/// go over the graph, as elsewhere in the stream.
extension Unarchiver {
    /// Takes the next group, whatever its type string, with every value.
    func streamGroupAsArchived() throws(CoderError) -> ArchivedGroup {
        let (token, operations) = try streamRead { (reader) throws(WireError) in try reader.directGroupStart() }
        guard let types = stream.reader.types(ofSharedString: token.textIndex) else { throw streamNeedsGraph() }
        let head = streamGroupHead(token, types: types)
        if stream.open.isEmpty { stream.topLevelGroupsTaken += 1 }
        if stream.reader.isStraightLine(operations) {
            return ArchivedGroup(head: head, storage: try streamStraightLineValues(operations), offset: token.start)
        }
        stream.reader.enterGroup(operations)
        // The group's values, then those of each open array or struct from where it started.
        var values: [ArchivedValue] = []
        var listStarts: [Int] = []
        while !(listStarts.isEmpty && stream.reader.leaveFinishedGroup()) {
            let next = try streamNextToken()
            switch next.code {
            case .arrayStart, .structStart:
                listStarts.append(values.count)
            case .arrayEnd, .structEnd:
                guard let start = listStarts.popLast() else { throw streamNeedsGraph() }
                let list = Array(values[start...])
                values.removeSubrange(start...)
                values.append(next.code == .arrayEnd ? .array(list) : .structure(list))
            default:
                let value = try streamSingleValue(next)
                // Most groups hold one value: it is kept without an array.
                if values.isEmpty, listStarts.isEmpty, stream.reader.leaveFinishedGroup() {
                    return ArchivedGroup(head: head, storage: .one(value), offset: token.start)
                }
                values.append(value)
            }
        }
        return ArchivedGroup(head: head, storage: GroupValues(values), offset: token.start)
    }

    /// The values of a straight-line group (see ``TokenReader/isStraightLine(_:)``) whose type
    /// string was just read, operation by operation, without the reader's group frame: the
    /// values ``streamGroupAsArchived()`` makes, as the graph reader makes them. (Also the values
    /// of a straight-line group a codec asks for by its type string: a `{?=ffff}` read this way
    /// walks the compiled operations, not the type tree.)
    func streamStraightLineValues(_ operations: Range<Int>) throws(CoderError) -> GroupValues {
        var values: [ArchivedValue] = []
        // Room for every value at once when there can be several (a struct's members): an array
        // grown from nothing reallocates at each doubling. A group of one operation holds one
        // value, kept without an array.
        if operations.count > 1 { values.reserveCapacity(operations.count) }
        // Where each open struct's members start in `values` (straight-line groups hold no
        // arrays): the outermost in a local, those nested in it in an array, made only for them.
        var depth = 0
        var outermostStart = 0
        var nestedStarts: [Int] = []
        var pc = operations.lowerBound
        while pc < operations.upperBound {
            let operation = pc
            pc += 1
            let next = try streamRead { (reader) throws(WireError) in try reader.directValue(at: operation) }
            switch next.code {
            case .structStart:
                if depth == 0 { outermostStart = values.count } else { nestedStarts.append(values.count) }
                depth += 1
            case .structEnd:
                guard depth > 0 else { throw streamNeedsGraph() }
                depth -= 1
                let start = depth == 0 ? outermostStart : nestedStarts.removeLast()
                // A struct that is the whole group (`{?=ffff}`) takes the members' array as it is.
                if start == 0, depth == 0, pc == operations.upperBound { return .one(.structure(values)) }
                let members = Array(values[start...])
                values.removeSubrange(start...)
                values.append(.structure(members))
            case .arrayStart, .arrayEnd:
                throw streamNeedsGraph()
            default:
                let value = try streamSingleValue(next)
                // Most groups hold one value: it is kept without an array.
                if values.isEmpty, depth == 0, pc == operations.upperBound { return .one(value) }
                values.append(value)
            }
        }
        guard depth == 0 else { throw streamNeedsGraph() }
        return GroupValues(values)
    }

    /// The value of a token that is neither an array's nor a struct's start or end.
    private func streamSingleValue(_ token: CompactToken) throws(CoderError) -> ArchivedValue {
        switch token.code {
        case .object:
            return try streamObjectValue(token)
        case .cString:
            return try streamCStringValue(token)
        case .integer, .float, .double, .byte, .rawBytes, .unsharedString, .sharedString, .ignored:
            guard let plain = ArchivedValue(plainToken: token, in: stream.reader.bytes) else { throw streamNeedsGraph() }
            return plain
        case .classLink:
            return try streamClassValue(token)
        default:
            throw streamNeedsGraph()
        }
    }

    /// A `#` value whose first class link is `first`: nil, a class read before, or a chain of
    /// new classes ending at nil or at a class read before.
    func streamClassValue(_ first: CompactToken) throws(CoderError) -> ArchivedValue {
        var link = first
        var firstNew: Int?
        var previous: StreamedClass?
        while link.form == .new {
            let name = stream.reader.bytes[link.payload]
            let made = StreamedClass(link: ArchiveClassLink(String(decoding: name, as: UTF8.self), version: link.value), name: name, token: link)
            stream.classes.pad(toInclude: link.slot, with: nil)
            stream.classes[link.slot] = made
            previous?.superclassSlot = link.slot
            previous = made
            if firstNew == nil { firstNew = link.slot }
            link = try streamNextToken()
            guard link.code == .classLink else { throw streamNeedsGraph() }
        }
        if link.form == .reference {
            guard link.slot < stream.classes.count, stream.classes[link.slot] != nil else { throw streamNeedsGraph() }
            previous?.superclassSlot = link.slot
            previous?.superclassReferenceWidth = link.width
        }
        guard let slot = firstNew ?? (link.form == .reference ? link.slot : nil) else { return .classObject(nil, referenceWidth: nil) }
        guard let entry = streamArchivedClass(slot) else { throw streamNeedsGraph() }
        return .classObject(entry, referenceWidth: firstNew == nil ? link.width : nil)
    }

    /// The head for a group whose type string token is `token`: shared by the groups of one
    /// shared string written the same way, as the graph reader shares them.
    private func streamGroupHead(_ token: CompactToken, types: [ObjCType]) -> GroupHead {
        let index = token.textIndex
        let decision = token.textDecision
        if index < stream.groupHeads.count, let known = stream.groupHeads[index], known.decision == decision { return known }
        let made = GroupHead(typeString: stream.reader.bytes[token.payload], types: types, decision: decision)
        stream.groupHeads.pad(toInclude: index, with: nil)
        stream.groupHeads[index] = made
        return made
    }

    /// An `@` value: nil, an object decoded before, or a new one decoded here.
    func streamObjectValue(_ token: CompactToken) throws(CoderError) -> ArchivedValue {
        switch token.form {
        case .null:
            return .object(nil, referenceWidth: nil)
        case .reference:
            if stream.reader.kind(ofSlot: token.slot) == .class {  // an `@` slot naming a class (NeXTSTEP nibs)
                guard let entry = streamArchivedClass(token.slot) else { throw streamNeedsGraph() }
                return .objectSlotClass(entry, referenceWidth: token.width)
            }
            return .object(try streamEntry(forSlot: token.slot, offset: nil), referenceWidth: token.width)
        default:
            _ = try streamDecodeNewObject(slot: token.slot, offset: token.start)
            return .object(try streamEntry(forSlot: token.slot, offset: token.start), referenceWidth: nil)
        }
    }

    /// The graph-style entry for the decoded object in `slot`, made on first use.
    private func streamEntry(forSlot slot: Int, offset: Int?) throws(CoderError) -> ArchivedObject {
        if slot < stream.entries.count, let known = stream.entries[slot] { return known }
        // A class in an object slot, or an object whose contents are still being decoded
        // (its class is known, but a graph-style entry would miss its end).
        guard slot < stream.instances.count, stream.instances[slot] != nil, slot < stream.instanceClassSlots.count,
              let archivedClass = streamArchivedClass(Int(stream.instanceClassSlots[slot])) else { throw streamNeedsGraph() }
        let entry = ArchivedObject(archivedClass: archivedClass)
        entry.sourceIndex = slot
        entry.sourceOffset = offset
        stream.entries.pad(toInclude: slot, with: nil)
        stream.entries[slot] = entry
        return entry
    }

    /// The graph-style class entry for the class in `slot` and its superclasses, made once.
    private func streamArchivedClass(_ slot: Int) -> ArchivedClass? {
        guard slot >= 0, slot < stream.classes.count, let top = stream.classes[slot] else { return nil }
        if let known = top.entry { return known }
        // The classes without an entry yet, most derived first; made from the root down.
        var missing: [StreamedClass] = [top]
        var superclass: ArchivedClass?
        while let next = missing.last?.superclassSlot, next < stream.classes.count, let link = stream.classes[next],
              missing.count <= stream.classes.count {
            if let known = link.entry {
                superclass = known
                break
            }
            missing.append(link)
        }
        while let link = missing.popLast() {
            let made = ArchivedClass(name: link.name, nameDecision: link.token.textDecision, version: link.token.value,
                                     versionWidth: link.token.width, sourceIndex: link.token.slot,
                                     superclass: superclass, superclassReferenceWidth: link.superclassReferenceWidth)
            link.entry = made
            superclass = made
        }
        return top.entry
    }

    /// The decoded instance of an entry made by ``streamEntry(forSlot:offset:)``, else `nil`.
    func streamInstance(of entry: ArchivedObject) -> AnyObject? {
        guard let slot = entry.sourceIndex, slot < stream.entries.count, stream.entries[slot] === entry else { return nil }
        return stream.instances[slot]
    }
}
