import ObjCTypeEncoding

/// Reads an archive into its lossless graph (``Archive``): tokens in, objects, classes and
/// C strings shared by identity out, every wire decision kept.
///
/// ```swift
/// let archive = try ArchiveReader.read(bytes)
/// let again = try ArchiveWriter.write(archive)   // == bytes for every well-formed archive
/// ```
public enum ArchiveReader {
    private enum Slot {
        case object(ArchivedObject)
        case `class`(ArchivedClass)
        case cString(ArchivedCString)
    }

    /// What the builder is filling. Groups and value lists live in their own stacks
    /// (``Builder/openGroups``, ``Builder/openLists``) so they grow in place, without copies.
    private enum Container {
        case root
        case group
        case array
        case structure
        /// A new object whose class chain is being read; `last` is the last class link read.
        case objectChain(ArchivedObject, last: ArchivedClass?)
        case objectContents(ArchivedObject)
        /// A `#` value whose chain is being read.
        case classValue(first: ArchivedClass?, last: ArchivedClass?, firstWidth: IntegerWidth?)
    }

    /// Reads `bytes` into a graph. Throws ``WireError`` on malformed input.
    public static func read(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(WireError) -> Archive {
        var reader = TokenReader(bytes: bytes, limits: limits)
        guard let first = try reader.next(), case .header(let header) = first.kind else {
            throw WireError(.badHeader, at: 0, "expected a header")
        }
        var builder = Builder()
        do {
            while let token = try reader.next() {
                var types: [ObjCType]? = nil
                if case .typeString(let text) = token.kind { types = reader.types(ofSharedString: text.index) }
                try builder.add(token, types: types)
            }
            let groups = try builder.finish(at: bytes.count)
            return Archive(header: header, groups: groups, owning: builder.objects)
        } catch {
            // Break any cycles in the partial graph so it is freed.
            for object in builder.objects { object.groups = [] }
            throw error
        }
    }

    private struct Builder {
        var slots: [Slot] = []
        var stack: [Container] = [.root]
        var topGroups: [ArchivedGroup] = []
        var openGroups: [ArchivedGroup] = []
        var openLists: [[ArchivedValue]] = []
        /// Every object read, for the archive to own.
        var objects: [ArchivedObject] = []

        func fail(_ token: Token, _ reason: String) -> WireError {
            WireError(.invalidToken, at: token.start, reason)
        }

        mutating func finish(at end: Int) throws(WireError) -> [ArchivedGroup] {
            try closeGroupIfOpen()
            guard stack.count == 1 else {
                throw WireError(.truncated, at: end, "the data ends inside an object, array or struct")
            }
            return topGroups
        }

        /// Closes the open group (if the top of the stack is one) into its parent.
        mutating func closeGroupIfOpen() throws(WireError) {
            guard case .group? = stack.last, let group = openGroups.popLast() else { return }
            stack.removeLast()
            switch stack.last {
            case .root?: topGroups.append(group)
            case .objectContents(let object)?: object.groups.append(group)
            default: throw WireError(.invalidToken, at: group.offset ?? 0, "a group closed outside an object or the top level")
            }
        }

        mutating func append(_ value: ArchivedValue, _ token: Token) throws(WireError) {
            switch stack.last {
            case .group?:
                openGroups[openGroups.count - 1].values.append(value)
            case .array?, .structure?:
                openLists[openLists.count - 1].append(value)
            default:
                throw fail(token, "a value outside any group")
            }
        }

        func slot(_ index: Int, _ token: Token) throws(WireError) -> Slot {
            guard index >= 0, index < slots.count else {
                throw WireError(.badReference, at: token.start, "reference to object #\(index), but only \(slots.count) are defined")
            }
            return slots[index]
        }

        mutating func newSlot(_ slot: Slot, index: Int, _ token: Token) throws(WireError) {
            guard index == slots.count else { throw fail(token, "object-table slot #\(index) out of order") }
            slots.append(slot)
        }

        /// The types of a streamer-3 group without a type string: one object.
        static let untypedGroupTypes: [ObjCType] = [.object(className: nil)]

        static func decision(_ text: SharedString) -> SharedStringDecision {
            switch text.form {
            case .literal(_, let length): .literal(length: length)
            case .reference(let index, let width): .reference(index: index, width: width)
            }
        }

        mutating func add(_ token: Token, types: [ObjCType]?) throws(WireError) {
            switch token.kind {
            case .header:
                throw fail(token, "a second header")
            case .typeString(let text):
                try closeGroupIfOpen()
                guard let types else { throw fail(token, "type string not parsed") }
                var values: [ArchivedValue] = []
                values.reserveCapacity(types.count)
                openGroups.append(ArchivedGroup(typeString: text.bytes, types: types, values: values, typeStringDecision: Self.decision(text), offset: token.start))
                stack.append(.group)
            case .untypedGroup:
                try closeGroupIfOpen()
                openGroups.append(ArchivedGroup(typeString: nil, types: Self.untypedGroupTypes, values: [], offset: token.start))
                stack.append(.group)
            case .integer(let value):
                try append(.integer(value.value, width: value.width), token)
            case .float(let value, let form):
                try append(.float(value, form: form), token)
            case .double(let value, let form):
                try append(.double(value, form: form), token)
            case .byte(let byte):
                try append(.byte(byte), token)
            case .rawBytes(let payload):
                try append(.bytes(payload), token)
            case .unsharedString(let payload, let width):
                try append(.unsharedString(payload, lengthWidth: payload == nil ? nil : width), token)
            case .sharedString(let text):
                try append(.sharedString(text?.bytes, decision: text.map(Self.decision)), token)
            case .cString(let form):
                switch form {
                case .null:
                    try append(.cString(nil, referenceWidth: nil), token)
                case .reference(let index, let width):
                    guard case .cString(let entry) = try slot(index, token) else {
                        throw WireError(.referenceKindMismatch, at: token.start, "C string reference to #\(index), which is not a C string")
                    }
                    try append(.cString(entry, referenceWidth: width), token)
                case .literal(let index, let text):
                    let entry = ArchivedCString(text: text.bytes)
                    entry.textDecision = Self.decision(text)
                    entry.sourceIndex = index
                    try newSlot(.cString(entry), index: index, token)
                    try append(.cString(entry, referenceWidth: nil), token)
                }
            case .object(let form):
                switch form {
                case .null:
                    try append(.object(nil, referenceWidth: nil), token)
                case .reference(let index, let width):
                    switch try slot(index, token) {
                    case .object(let object): try append(.object(object, referenceWidth: width), token)
                    case .class(let entry): try append(.objectSlotClass(entry, referenceWidth: width), token)
                    case .cString:
                        throw WireError(.referenceKindMismatch, at: token.start, "object reference to #\(index), which is a C string")
                    }
                case .new(let index):
                    // The class is filled in when its chain has been read.
                    let object = ArchivedObject(archivedClass: ArchivedClass.placeholder)
                    object.sourceIndex = index
                    object.sourceOffset = token.start
                    objects.append(object)
                    try newSlot(.object(object), index: index, token)
                    try append(.object(object, referenceWidth: nil), token)
                    stack.append(.objectChain(object, last: nil))
                }
            case .classLink(let form):
                try addClassLink(form, token)
            case .instanceSize(let value):
                guard case .objectContents(let object)? = stack.last else { throw fail(token, "instance size outside an object") }
                object.instanceSize = value
            case .endOfObject:
                try closeGroupIfOpen()
                guard case .objectContents(let object)? = stack.last else { throw fail(token, "end of object outside an object") }
                object.endOffset = token.start
                stack.removeLast()
            case .arrayStart(let count):
                var values: [ArchivedValue] = []
                values.reserveCapacity(count)
                openLists.append(values)
                stack.append(.array)
            case .structStart:
                openLists.append([])
                stack.append(.structure)
            case .arrayEnd:
                guard case .array? = stack.last, let values = openLists.popLast() else { throw fail(token, "array end without a start") }
                stack.removeLast()
                try append(.array(values), token)
            case .structEnd:
                guard case .structure? = stack.last, let values = openLists.popLast() else { throw fail(token, "struct end without a start") }
                stack.removeLast()
                try append(.structure(values), token)
            case .ignored:
                try append(.ignored, token)
            }
        }

        /// Throws when making `superclass` the superclass of `last` would close a loop: a class
        /// that is (directly or through its superclasses) its own superclass. Chains already in
        /// the graph are loop-free, so the walk ends within the number of slots.
        func refuseLoop(linking superclass: ArchivedClass?, below last: ArchivedClass, _ token: Token) throws(WireError) {
            var current = superclass
            var steps = 0
            while let entry = current, steps <= slots.count {
                if entry === last {
                    throw WireError(.classChainLoop, at: token.start, "the superclass of class \(last.nameText) leads back to \(last.nameText): the class chain loops")
                }
                current = entry.superclass
                steps += 1
            }
        }

        mutating func addClassLink(_ form: ClassForm, _ token: Token) throws(WireError) {
            // Resolve the link into a class (or the end of the chain).
            var linked: ArchivedClass? = nil
            var width: IntegerWidth? = nil
            var ends = true
            switch form {
            case .null:
                break
            case .reference(let index, let w):
                guard case .class(let entry) = try slot(index, token) else {
                    throw WireError(.referenceKindMismatch, at: token.start, "class reference to #\(index), which is not a class")
                }
                linked = entry
                width = w
            case .new(let index, let name, let version):
                let entry = ArchivedClass(name: name.bytes, version: version.value)
                entry.nameDecision = Self.decision(name)
                entry.versionWidth = version.width
                entry.sourceIndex = index
                try newSlot(.class(entry), index: index, token)
                linked = entry
                ends = false
            }
            switch stack.last {
            case .objectChain(let object, let last)?:
                if let last {
                    try refuseLoop(linking: linked, below: last, token)
                    last.superclass = linked
                    last.superclassReferenceWidth = width
                } else {
                    guard let linked else {
                        throw WireError(.unexpectedHeadByte, at: token.start, "object #\(object.sourceIndex ?? -1) has no class (nil where its class should be)")
                    }
                    object.archivedClass = linked
                    object.classReferenceWidth = width
                }
                stack[stack.count - 1] = ends ? .objectContents(object) : .objectChain(object, last: linked)
            case .classValue(let first, let last, let firstWidth)?:
                if let last {
                    try refuseLoop(linking: linked, below: last, token)
                    last.superclass = linked
                    last.superclassReferenceWidth = width
                }
                let newFirst = first ?? linked
                let newFirstWidth = first == nil ? width : firstWidth
                if ends {
                    stack.removeLast()
                    try append(.classObject(newFirst, referenceWidth: newFirstWidth), token)
                } else {
                    stack[stack.count - 1] = .classValue(first: newFirst, last: linked, firstWidth: newFirstWidth)
                }
            default:
                // The first link of a `#` value.
                if ends {
                    try append(.classObject(linked, referenceWidth: width), token)
                } else {
                    stack.append(.classValue(first: linked, last: linked, firstWidth: nil))
                }
            }
        }
    }
}
