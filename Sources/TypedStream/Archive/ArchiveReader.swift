import ObjCTypeEncoding

/// Reads an archive into its lossless graph (``Archive``): tokens in, objects, classes and
/// C strings shared by identity out, every wire decision kept.
///
/// ```swift
/// let archive = try ArchiveReader.read(bytes)
/// let again = try ArchiveWriter.write(archive)   // == bytes for every well-formed archive
/// ```
public enum ArchiveReader {
    /// What an object-table slot holds while the graph is built.
    enum Slot {
        case object(ArchivedObject)
        case `class`(ArchivedClass)
        case cString(ArchivedCString)
        /// An object or class whose chain is still being read; it is made at the chain's end.
        /// (Nothing refers to it before: a class link back into its own chain is a loop, which
        /// ``ClassChainCheck`` refuses first.)
        case pending
    }

    /// A new class of the chain being read, made into an ``ArchivedClass`` when the chain ends
    /// and its superclass is known.
    struct PendingClass {
        var name: ArraySlice<UInt8>
        var nameDecision: SharedStringDecision
        var version: Int64
        var versionWidth: IntegerWidth
        var slot: Int
    }

    /// What is open, innermost last. Plain tags: what an open container holds lives in the
    /// builder's stacks beside them (an enum carrying an object would cost a reference count
    /// every time the top is looked at).
    enum Open {
        /// A group; its head is the last of ``Builder/groupHeads``.
        case group
        case array
        case structure
        /// A new object whose class chain is being read (``Builder/chainObject``).
        case objectChain
        /// An object whose contents are being read (the last of ``Builder/contents``).
        case objectContents
        /// A `#` value whose chain is being read.
        case classValue
    }

    /// Reads `bytes` into a graph. Throws ``WireError`` on malformed input.
    public static func read(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(WireError) -> Archive {
        var compiled = CompiledTypeStrings()
        return try read(bytes, limits: limits, compiled: &compiled)
    }

    /// Reads `bytes` into a graph, starting with the type strings in `compiled` and adding those
    /// it compiles (see ``CompiledTypeStrings``): the way to read many small archives.
    public static func read(_ bytes: [UInt8], limits: DecodingLimits = .default, compiled: inout CompiledTypeStrings) throws(WireError) -> Archive {
        var reader = TokenReader(bytes: bytes, limits: limits, compiled: compiled)
        defer { compiled = reader.compiledTypeStrings }
        var builder = Builder(bytes: bytes, limits: limits)
        do throws(WireError) {
            let header = try reader.readToEnd(checking: &builder)
            let groups = try builder.finish(at: bytes.count)
            return Archive(header: header, groups: groups, owning: builder.objects)
        } catch {
            // Break any cycles in the partial graph so it is freed.
            for object in builder.objects { object.groups = [] }
            throw error
        }
    }

    /// Builds the graph from the token stream. An error stops it (the first is kept in
    /// ``error``; the reader goes on, but its later tokens are ignored). What it has built by
    /// then is what ``salvage(_:limits:)`` keeps.
    struct Builder: CheckingTokenVisitor {
        static var wantsTypes: Bool { true }
        let bytes: [UInt8]
        var error: WireError?
        var slots: [Slot] = []
        var open: [Open] = []
        /// The values of the open groups, arrays and structs, in order; each takes its own when
        /// it closes, from where ``valueStarts`` says it began.
        let values = MovingStack<ArchivedValue>()
        var valueStarts: [Int] = []
        /// The open groups, their values still on ``values``.
        let groupHeads = MovingStack<ArchivedGroup>(capacity: 8)
        /// The closed groups of the open objects and of the top level, in order; an object
        /// gets its own all at once at its end (one access to it instead of one per group), as
        /// an array of exactly their number. An object with many groups (an array of many
        /// elements) moves them to a list of its own (its `spill` in ``contents``) every
        /// ``spillCount`` groups, which grows in place: left on the stack, its groups would be
        /// there and in the array made of them at once.
        let groups = MovingStack<ArchivedGroup>()
        /// The objects whose contents are open, innermost last, after the top level (`nil`):
        /// where each one's groups begin on ``groups``, and the groups it has moved to a list of
        /// its own.
        var contents: [(object: ArchivedObject?, start: Int, spill: [ArchivedGroup])] = [(nil, 0, [])]
        /// How many groups of one object ``groups`` holds before they move to its own list.
        static let spillCount = 1024
        /// The checks of class links (every object has a class, no chain loops, none too long).
        var chains: ClassChainCheck
        /// The slot and offset of the new object whose chain is being read.
        var chainObject = (slot: 0, offset: 0)
        /// The new classes of the chain being read, in order.
        var pendingClasses: [PendingClass] = []
        /// Every object read, for the archive to own.
        var objects: [ArchivedObject] = []
        /// Per shared-string slot, the group head made last for a type string in that slot (a
        /// type string is written literally once, then by reference: two heads in all, each
        /// shared by its groups).
        var heads: [GroupHead?] = []
        /// The head of every untyped streamer-3 group (no type string; one object).
        static let untypedHead = GroupHead(typeString: nil, types: [.object(className: nil)], decision: nil)

        /// A builder for `bytes`. Its tables are made with room for the whole archive at once —
        /// the slots one per eight bytes, as the reader's own (see `reserveObjectTable()`), the
        /// stacks of what is open sixteen deep — as growing them a step at a time would cost
        /// about a tenth of reading a message body. (They go when the graph is built; only ``objects``,
        /// which the archive keeps, grows as it goes.)
        init(bytes: [UInt8], limits: DecodingLimits) {
            self.bytes = bytes
            chains = ClassChainCheck(limits: limits)
            slots.reserveCapacity(min(bytes.count / 8, limits.maximumObjects))
            open.reserveCapacity(Self.usualDepth)
            valueStarts.reserveCapacity(Self.usualDepth)
        }

        /// The room made for the stacks of open things (deeper archives grow them).
        static let usualDepth = 16

        mutating func visit(_ token: CompactToken) -> Bool {
            visit(token, types: nil)
        }

        mutating func visit(_ token: CompactToken, types: [ObjCType]?) -> Bool {
            guard error == nil else { return false }
            do {
                try add(token, types: types)
                return true
            } catch {
                self.error = error
                return false
            }
        }

        func fail(_ token: CompactToken, _ reason: String) -> WireError {
            WireError(.invalidToken, at: token.start, reason)
        }

        mutating func finish(at end: Int) throws(WireError) -> [ArchivedGroup] {
            try closeGroupIfOpen()
            guard open.isEmpty else {
                throw WireError(.truncated, at: end, "the data ends inside an object, array or struct")
            }
            return takeContents()
        }

        /// Closes the open group (if the innermost open thing is one) into its object or the
        /// top level.
        mutating func closeGroupIfOpen() throws(WireError) {
            guard open.last == .group, groupHeads.count > 0, let start = valueStarts.popLast() else { return }
            open.removeLast()
            // One value stays in place (see `ArchivedGroup.values`); others leave in an array.
            let groupValues = values.count - start == 1 ? GroupValues.one(values.popLast()) : .many(values.popArray(from: start))
            groupHeads.updateLast { $0.storage = groupValues }
            guard open.last == nil || open.last == .objectContents else {
                throw WireError(.invalidToken, at: groupHeads.popLast().offset ?? 0, "a group closed outside an object or the top level")
            }
            groups.push(groupHeads.popLast())  // moved (through a local variable it would be copied)
            let last = contents.count - 1
            if groups.count - contents[last].start == Self.spillCount {
                groups.popAll(from: contents[last].start, appendingTo: &contents[last].spill)
            }
        }

        /// The groups of the innermost open object (or of the top level), taken off the stack.
        mutating func takeContents() -> [ArchivedGroup] {
            guard let (_, start, spilled) = contents.popLast() else { return [] }
            if spilled.isEmpty { return groups.popArray(from: start) }
            var all = spilled
            groups.popAll(from: start, appendingTo: &all)
            return all
        }

        mutating func append(_ value: consuming ArchivedValue, _ token: CompactToken) throws(WireError) {
            switch open.last {
            case .group?, .array?, .structure?: values.push(value)
            default: throw fail(token, "a value outside any group")
            }
        }

        /// The head of a group whose type string is the text of `token`, which splits into
        /// `types`: the head made last for that shared string if it was written the same way,
        /// else a new one, kept for the groups to come.
        mutating func head(for token: CompactToken, types: [ObjCType]) -> GroupHead {
            let decision = token.textDecision
            let index = token.textIndex
            if index < heads.count, let known = heads[index], known.decision == decision { return known }
            let made = GroupHead(typeString: payload(token), types: types, decision: decision)
            heads.pad(toInclude: index, with: nil)
            heads[index] = made
            return made
        }

        /// Opens a group (its values to come).
        mutating func openGroup(head: GroupHead, at offset: Int) {
            groupHeads.push(ArchivedGroup(head: head, storage: .many([]), offset: offset))
            valueStarts.append(values.count)
            open.append(.group)
        }

        /// Closes the array or struct (`kind`) that is open, into a value made by `make`.
        mutating func closeList(_ kind: Open, _ token: CompactToken, into make: ([ArchivedValue]) -> ArchivedValue) throws(WireError) {
            guard open.last == kind, let start = valueStarts.popLast() else {
                throw fail(token, kind == .array ? "array end without a start" : "struct end without a start")
            }
            open.removeLast()
            try append(make(values.popArray(from: start)), token)
        }

        func slot(_ index: Int, _ token: CompactToken) throws(WireError) -> Slot {
            guard index >= 0, index < slots.count else {
                throw WireError(.badReference, at: token.start, "reference to object #\(index), but only \(slots.count) are defined")
            }
            return slots[index]
        }

        mutating func newSlot(_ slot: Slot, index: Int, _ token: CompactToken) throws(WireError) {
            guard index == slots.count else { throw fail(token, "object-table slot #\(index) out of order") }
            slots.append(slot)
        }

        /// The token's payload: its text or raw bytes, a slice of the input.
        func payload(_ token: CompactToken) -> ArraySlice<UInt8> { bytes[token.payload] }

        mutating func add(_ token: CompactToken, types: [ObjCType]?) throws(WireError) {
            switch token.code {
            case .header:
                break  // the reader gives exactly one, first
            case .typeString:
                try closeGroupIfOpen()
                guard let types else { throw fail(token, "type string not parsed") }
                openGroup(head: head(for: token, types: types), at: token.start)
            case .untypedGroup:
                try closeGroupIfOpen()
                openGroup(head: Self.untypedHead, at: token.start)
            case .integer, .float, .double, .byte, .rawBytes, .unsharedString, .sharedString, .ignored:
                guard let value = ArchivedValue(plainToken: token, in: bytes) else { throw fail(token, "a value token without a value") }
                try append(value, token)
            case .cString:
                switch token.form {
                case .null:
                    try append(.cString(nil, referenceWidth: nil), token)
                case .reference:
                    guard case .cString(let entry) = try slot(token.slot, token) else {
                        throw WireError(.referenceKindMismatch, at: token.start, "C string reference to #\(token.slot), which is not a C string")
                    }
                    try append(.cString(entry, referenceWidth: token.width), token)
                default:
                    let entry = ArchivedCString(text: payload(token), textDecision: token.textDecision, sourceIndex: token.slot)
                    try newSlot(.cString(entry), index: token.slot, token)
                    try append(.cString(entry, referenceWidth: nil), token)
                }
            case .object:
                switch token.form {
                case .null:
                    try append(.object(nil, referenceWidth: nil), token)
                case .reference:
                    switch try slot(token.slot, token) {
                    case .object(let object): try append(.object(object, referenceWidth: token.width), token)
                    case .class(let entry): try append(.objectSlotClass(entry, referenceWidth: token.width), token)
                    case .cString:
                        throw WireError(.referenceKindMismatch, at: token.start, "object reference to #\(token.slot), which is a C string")
                    case .pending:
                        throw WireError(.referenceKindMismatch, at: token.start, "object reference to #\(token.slot), whose class chain is still being read")
                    }
                default:
                    // The object is made when its chain has been read.
                    try newSlot(.pending, index: token.slot, token)
                    chains.newObject(slot: token.slot)
                    chainObject = (token.slot, token.start)
                    open.append(.objectChain)
                }
            case .classLink:
                try addClassLink(token)
            case .instanceSize:
                guard open.last == .objectContents, let object = contents[contents.count - 1].object else {
                    throw fail(token, "instance size outside an object")
                }
                object.instanceSize = WireInteger(token.value, width: token.width)
            case .endOfObject:
                try closeGroupIfOpen()
                guard open.last == .objectContents, let object = contents[contents.count - 1].object else {
                    throw fail(token, "end of object outside an object")
                }
                open.removeLast()
                object.groups = takeContents()
                object.endOffset = token.start
            case .arrayStart:
                valueStarts.append(values.count)
                open.append(.array)
            case .structStart:
                valueStarts.append(values.count)
                open.append(.structure)
            case .arrayEnd:
                try closeList(.array, token, into: ArchivedValue.array)
            case .structEnd:
                try closeList(.structure, token, into: ArchivedValue.structure)
            }
        }

        mutating func addClassLink(_ token: CompactToken) throws(WireError) {
            if let found = chains.check(token, in: bytes) { throw found }
            // What ends the chain: nil or a class read before.
            var tail: ArchivedClass? = nil
            var width: IntegerWidth? = nil
            switch token.form {
            case .null:
                break
            case .reference:
                guard case .class(let entry) = try slot(token.slot, token) else {
                    throw WireError(.referenceKindMismatch, at: token.start, "class reference to #\(token.slot), which is not a class")
                }
                tail = entry
                width = token.width
            default:
                try newSlot(.pending, index: token.slot, token)
                pendingClasses.append(PendingClass(name: payload(token), nameDecision: token.textDecision, version: token.value, versionWidth: token.width, slot: token.slot))
                if open.last != .objectChain, open.last != .classValue { open.append(.classValue) }  // a `#` value's chain
                return
            }
            // The chain ends: its new classes are made, the last first, each with its superclass.
            var first = tail
            var firstWidth = width
            while let pending = pendingClasses.popLast() {
                let entry = ArchivedClass(name: pending.name, nameDecision: pending.nameDecision, version: pending.version, versionWidth: pending.versionWidth,
                                          sourceIndex: pending.slot, superclass: first, superclassReferenceWidth: firstWidth)
                slots[pending.slot] = .class(entry)
                first = entry
                firstWidth = nil
            }
            switch open.last {
            case .objectChain?:
                // `chains` refused a nil first link, so the object has a class.
                guard let first else { throw fail(token, "an object without a class") }
                open.removeLast()
                let object = ArchivedObject(archivedClass: first, classReferenceWidth: firstWidth, sourceIndex: chainObject.slot, sourceOffset: chainObject.offset)
                slots[chainObject.slot] = .object(object)
                objects.append(object)
                try append(.object(object, referenceWidth: nil), token)
                open.append(.objectContents)
                contents.append((object, groups.count, []))
            case .classValue?:
                open.removeLast()
                try append(.classObject(first, referenceWidth: firstWidth), token)
            default:
                // A `#` value of one link.
                try append(.classObject(first, referenceWidth: firstWidth), token)
            }
        }
    }
}
