import ObjCTypeEncoding
import TypedStream

extension ArchiveJSONDecoder {
    // MARK: - Document and header

    /// The document, read from `source` front to back: its groups are walked as they come
    /// when the members they depend on came first (as `decode --json` writes them), else read
    /// whole and walked after.
    mutating func decodeDocument(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> Archive {
        let allowed = Members.document
        try enterObject(&source, "the document", allowed: allowed)
        var fields = MemberFields()
        var groups: [ArchivedGroup]? = nil
        while let key = try source.nextKey() {
            let index = try memberIndex(key, &fields, "the document", allowed: allowed)
            if index == 3, fields[0] != nil, fields[1] != nil, fields[2] != nil {
                try decodeDocumentHead(fields)
                path.push("groups")
                groups = try decodeGroups(&source)
                path.pop()
            } else {
                fields[index] = try source.value()
            }
        }
        if groups == nil {
            try decodeDocumentHead(fields)
            var rest = JSONTreeSource(try require(fields[3], "groups", in: "the document"))
            path.push("groups")
            groups = try decodeGroups(&rest)
            path.pop()
        }
        return Archive(header: header, groups: groups ?? [], owning: objects)
    }

    /// The document's format, version and header.
    mutating func decodeDocumentHead(_ fields: MemberFields) throws(ArchiveJSONError) {
        guard case .string(ArchiveJSON.formatName)? = fields[0] else {
            throw fail(.unsupportedFormat, "not a lossless typedstream JSON document: 'format' must be \"\(ArchiveJSON.formatName)\"")
        }
        path.push("formatVersion")
        let version = try int64(require(fields[1], "formatVersion", in: "the document"), "the format version")
        guard version == Int64(ArchiveJSON.formatVersion) else {
            throw fail(.unsupportedFormat, "format version \(version) is not supported (only \(ArchiveJSON.formatVersion))")
        }
        path.pop()
        let headerValue = try require(fields[2], "header", in: "the document")
        path.push("header")
        header = try decodeHeader(headerValue)
        path.pop()
    }

    mutating func decodeHeader(_ value: JSONValue) throws(ArchiveJSONError) -> StreamHeader {
        let what = "the header"
        let fields = try members(of: value, what, allowed: Members.header)
        let streamerValue = try require(fields[0], "streamerVersion", in: what)
        let orderValue = try require(fields[1], "byteOrder", in: what)
        let systemValue = try require(fields[2], "systemVersion", in: what)
        path.push("streamerVersion")
        let streamer = try int64(streamerValue, "the streamer version")
        guard streamer == 3 || streamer == 4 else { throw fail(.badValue, "streamer version \(streamer) does not exist (only 3 and 4)") }
        path.pop()
        path.push("byteOrder")
        let orderName = try string(orderValue, "the byte order")
        guard let order = ByteOrder(rawValue: orderName) else { throw fail(.badValue, "byte order \(TextExcerpt.quoted(orderName)) is neither \"big\" nor \"little\"") }
        path.pop()
        path.push("systemVersion")
        let system = try int64(systemValue, "the system version")
        guard system >= Int64(Int32.min), system <= Int64(Int32.max) else { throw fail(.badValue, "system version \(system) does not fit 32 bits") }
        path.pop()
        var width = IntegerPlace.counted.archiverChoice(for: system)
        if let w = fields[3] {
            path.push("systemVersionWidth")
            width = try self.width(w, .counted, holding: system, "the system version")
            path.pop()
        }
        return StreamHeader(streamerVersion: UInt8(streamer), byteOrder: order, systemVersion: WireInteger(system, width: width))
    }

    // MARK: - Groups

    mutating func decodeGroups(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> [ArchivedGroup] {
        try enterArray(&source, "a list of groups")
        var groups: [ArchivedGroup] = []
        while try source.nextElement() {
            path.push(groups.count)
            groups.append(try decodeGroup(&source))
            path.pop()
        }
        return groups
    }

    /// The types of a type string given as bytes (`{"hex": …}` or with a `typeWire`), parsed once.
    mutating func types(of typeString: [UInt8]) throws(ArchiveJSONError) -> [ObjCType] {
        if let cached = typeCache[typeString] { return cached }
        let types = try parseTypes(typeString)
        typeCache[typeString] = types
        return types
    }

    /// Parses a type string within the readers' type nesting limit; throws `badTypeString`.
    func parseTypes(_ typeString: [UInt8]) throws(ArchiveJSONError) -> [ObjCType] {
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = tally.limits.maximumTypeNesting
        do {
            return try ObjCType.parseGroup(bytes: typeString, limits: limits)
        } catch {
            throw fail(.badTypeString, "type string \(TextExcerpt.quoted(typeString)) does not parse: \(error.description)")
        }
    }

    /// A group: its values are walked as they come when its type came first, else read whole
    /// and walked after. A `typeWire` after the values may change only the width of the
    /// decision the values were read with, not whether it is a literal or a reference.
    mutating func decodeGroup(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> ArchivedGroup {
        let allowed = Members.group
        try enterObject(&source, "a group", allowed: allowed)
        var fields = MemberFields()
        var decoded: ArchivedGroup? = nil
        var sharedBefore = 0
        while let key = try source.nextKey() {
            let index = try memberIndex(key, &fields, "a group", allowed: allowed)
            if index == 2, fields[0] != nil, decoded == nil {
                sharedBefore = tables.strings.count
                var group = try decodeGroupType(fields)
                path.push("values")
                group.values = try decodeGroupValues(&source, group)
                path.pop()
                decoded = group
            } else if index == 1, let group = decoded {
                let late = try source.value()
                fields[1] = late
                decoded = try decideTypeStringLate(group, late, sharedBefore: sharedBefore)
            } else {
                fields[index] = try source.value()
            }
        }
        if let decoded { return decoded }
        var group = try decodeGroupType(fields)
        var values = JSONTreeSource(try require(fields[2], "values", in: "a group"))
        path.push("values")
        group.values = try decodeGroupValues(&values, group)
        path.pop()
        return group
    }

    /// The values of `group`, one per type.
    mutating func decodeGroupValues(_ source: inout some JSONPullSource, _ group: ArchivedGroup) throws(ArchiveJSONError) -> [ArchivedValue] {
        try enterArray(&source, "the group's values")
        let types = group.types
        var values: [ArchivedValue] = []
        values.reserveCapacity(types.count)
        while try source.nextElement() {
            guard values.count < types.count else { throw try countMismatch(&source, after: values.count, group) }
            path.push(values.count)
            values.append(try decodeValue(&source, as: types[values.count]))
            path.pop()
        }
        guard values.count == types.count else { throw try countMismatch(&source, after: values.count, group, ended: true) }
        return values
    }

    /// The error for a group with `count` values and more to come (unless `ended`), counted.
    func countMismatch(_ source: inout some JSONPullSource, after count: Int, _ group: ArchivedGroup, ended: Bool = false) throws(ArchiveJSONError) -> ArchiveJSONError {
        let found = ended ? count : try countRest(&source, after: count)
        let needed = group.types.count
        return fail(.typeMismatch, "type \(TextExcerpt.quoted(group.typeText)) needs \(needed) value\(needed == 1 ? "" : "s"), found \(found)")
    }

    /// A `typeWire` met after the group's values: the decision it names replaces the one the
    /// values were read with when both are literals or both references to a string before them
    /// (`sharedBefore`: the size of the shared-string table before the group).
    mutating func decideTypeStringLate(_ group: ArchivedGroup, _ value: JSONValue, sharedBefore: Int) throws(ArchiveJSONError) -> ArchivedGroup {
        guard let text = group.typeString, let used = group.typeStringDecision else {
            path.push("typeWire")
            defer { path.pop() }
            throw fail(.badValue, "a group without a type string has no 'typeWire'")
        }
        path.push("typeWire")
        defer { path.pop() }
        let decision = try self.decision(value, for: text)
        switch (used, decision) {
        case (.literal, .literal):
            break
        case (.reference, .reference(let index, _)) where index < sharedBefore:
            break
        default:
            throw fail(.badValue, "this decision changes the shared-string table the group's values were read with; put 'typeWire' before 'values'")
        }
        var decided = group
        decided.typeStringDecision = decision
        return decided
    }

    /// The group's type string, its types and its decision, with no values yet.
    mutating func decodeGroupType(_ fields: MemberFields) throws(ArchiveJSONError) -> ArchivedGroup {
        let typeValue = try require(fields[0], "type", in: "a group")
        path.push("type")
        defer { path.pop() }
        if typeValue == .null {
            guard header.streamerVersion == 3 else {
                throw fail(.badValue, "a group without a type string (null) exists only in streamer version 3")
            }
            guard fields[1] == nil else { throw fail(.badValue, "a group without a type string has no 'typeWire'") }
            return sharedHead(nil, decision: nil) { ArchivedGroup(typeString: nil, types: [.object(className: nil)], values: []) }
        }
        if case .string(let spelled) = typeValue, fields[1] == nil { return try plainTypeStringHead(spelled) }
        let text = try bytes(typeValue, "a type string")
        let types = try self.types(of: text)
        path.pop()
        let decision = try sharedString(ArraySlice(text), decision: fields[1], key: "typeWire")
        path.push("type")
        return sharedHead(text, decision: decision) {
            ArchivedGroup(typeString: ArraySlice(text), types: types, values: [], typeStringDecision: decision)
        }
    }

    /// The head of a group whose type string is `spelled` (JSON text) and has no `typeWire`:
    /// NSArchiver's decision. A type string met before is looked up once, by its JSON text —
    /// not turned into bytes, parsed, or looked up in the shared-string table again — and once
    /// the table holds it, its groups share one head without a further lookup
    /// (``TypeStringEntry``). Called with `type` on the path.
    mutating func plainTypeStringHead(_ spelled: String) throws(ArchiveJSONError) -> ArchivedGroup {
        let number: Int
        if let known = typeStrings[spelled] {
            if let head = typeStringEntries[known].referringHead { return head }
            number = known
        } else {
            let text = Array(spelled.utf8)
            let types = try parseTypes(text)
            number = typeStringEntries.count
            typeStringEntries.append(TypeStringEntry(text: text, types: types))
            typeStrings[spelled] = number
        }
        let entry = typeStringEntries[number]
        path.pop()
        let decision = try sharedString(ArraySlice(entry.text), decision: nil, key: "typeWire")
        path.push("type")
        let head = sharedHead(entry.text, decision: decision) {
            ArchivedGroup(typeString: ArraySlice(entry.text), types: entry.types, values: [], typeStringDecision: decision)
        }
        // NSArchiver refers to the first slot of a text the table holds: every later group of
        // this type string takes this decision, so this head.
        if case .reference = decision { typeStringEntries[number].referringHead = head }
        return head
    }

    /// A group without values whose type string and decision are `text` and `decision`: the
    /// first made (by `make`), so that groups written alike share one head, as a reader's do.
    mutating func sharedHead(_ text: [UInt8]?, decision: SharedStringDecision?, _ make: () -> ArchivedGroup) -> ArchivedGroup {
        let key = HeadKey(text: text, decision: decision)
        if let group = heads[key] { return group }
        let group = make()
        heads[key] = group
        return group
    }

    // MARK: - Objects, classes, C strings

    /// `null`, `{"ref": id}` (an object or, as NeXTSTEP nibs do, a class) or `{"object": id, …}`.
    /// An object whose first member is `object` or `ref` is walked as it comes; any other is
    /// read whole.
    mutating func decodeObjectSlot(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> ArchivedValue {
        guard try source.peekKind() == .object else { return try decodeObjectSlot(source.value()) }
        try source.beginObject()
        guard let first = try source.nextKey() else { return try decodeObjectSlot(.object([])) }
        if first == "ref" { return try decodeObjectReference(fields: members(&source, firstKey: first, "a reference", allowed: Members.reference)) }
        guard first == "object" else { return try decodeObjectSlot(source.restOfObject(firstKey: first)) }
        return .object(try decodeObjectMembers(&source, firstKey: first), referenceWidth: nil)
    }

    /// An object slot read whole.
    mutating func decodeObjectSlot(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        if value == .null { return .object(nil, referenceWidth: nil) }
        if has(value, "ref") { return try decodeObjectReference(value) }
        guard has(value, "object") else {
            throw fail(.typeMismatch, "expected null, {\"ref\": id} or {\"object\": id, …} for type '@', found \(value.kindDescription)")
        }
        var source = JSONTreeSource(value)
        try source.beginObject()
        return .object(try decodeObjectMembers(&source, firstKey: nil), referenceWidth: nil)
    }

    func decodeObjectReference(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        try decodeObjectReference(fields: members(of: value, "a reference", allowed: Members.reference))
    }

    /// An object slot's reference whose members (``Members/reference``) are `fields`.
    func decodeObjectReference(fields: MemberFields) throws(ArchiveJSONError) -> ArchivedValue {
        let (entry, width) = try reference(fields: fields)
        switch entry {
        case .object(let object, _): return .object(object, referenceWidth: width)
        case .class(let entry, _): return .objectSlotClass(entry, referenceWidth: width)
        case .cString: throw fail(.referenceKindMismatch, "an object slot refers to \(entry.kindName)")
        }
    }

    /// The members of a new object stepped into (`firstKey`, when given, was named already):
    /// its groups are walked as they come when its id and class came first, else read whole and
    /// walked after.
    mutating func decodeObjectMembers(_ source: inout some JSONPullSource, firstKey: String?) throws(ArchiveJSONError) -> ArchivedObject {
        let allowed = Members.object
        try nest()
        var fields = MemberFields()
        var decoded: ArchivedObject? = nil
        /// The object once its id and class chain are read (the chain walked as it came).
        var head: ArchivedObject? = nil
        var key = firstKey
        if key == nil { key = try source.nextKey() }
        while let name = key {
            if name == "ref" {
                // A reference after all: it names its first member as unknown.
                path.push("object")
                defer { path.pop() }
                throw fail(.unknownField, "unknown member 'object' in a reference (allowed: 'ref', 'width')")
            }
            let index = try memberIndex(name, &fields, "an object", allowed: allowed)
            if index == 1, fields[0] != nil, decoded == nil, try source.peekKind() == .array {
                head = try decodeObjectHead(fields, chain: &source)
            } else if index == 3, fields[0] != nil, fields[1] != nil, decoded == nil {
                let object = try decodeObjectHead(fields, chainRead: head)
                path.push("groups")
                object.groups = try decodeGroups(&source)
                path.pop()
                decoded = object
            } else if index == 2, let object = decoded {
                fields[2] = try source.value()
                try decodeInstanceSize(fields[2], of: object)
            } else {
                fields[index] = try source.value()
            }
            key = try source.nextKey()
        }
        if decoded == nil {
            let object = try decodeObjectHead(fields, chainRead: head)
            var groups = JSONTreeSource(try require(fields[3], "groups", in: "an object"))
            path.push("groups")
            object.groups = try decodeGroups(&groups)
            path.pop()
            decoded = object
        }
        depth -= 1
        return decoded!
    }

    /// A new object's id, class chain and (streamer 3) instance size; `chainRead` is the object
    /// when its id and chain were read already, as they came.
    mutating func decodeObjectHead(_ fields: MemberFields, chainRead: ArchivedObject?) throws(ArchiveJSONError) -> ArchivedObject {
        let object: ArchivedObject
        if let chainRead {
            object = chainRead
        } else {
            var chain = JSONTreeSource(try require(fields[1], "class", in: "an object"))
            object = try decodeObjectHead(fields, chain: &chain)
        }
        try decodeInstanceSize(fields[2], of: object)
        return object
    }

    /// A new object's id (from `fields`) and class chain, walked in `chain` as it comes; its
    /// instance size is the caller's.
    mutating func decodeObjectHead(_ fields: MemberFields, chain: inout some JSONPullSource) throws(ArchiveJSONError) -> ArchivedObject {
        let what = "an object"
        path.push("object")
        let objectID = try id(require(fields[0], "object", in: what))
        path.pop()
        let slot = try claimSlot()
        let object = ArchivedObject(archivedClass: placeholderClass)
        // Objects, classes and C strings are given the slot the JSON describes as their
        // source slot, by which the writer finds them again.
        object.sourceIndex = slot
        objects.append(object)
        try define(objectID, .object(object, slot: slot), key: "object")
        path.push("class")
        guard let (first, width) = try decodeChain(&chain) else {
            throw fail(.badValue, "an object needs a class (the chain is empty)")
        }
        path.pop()
        object.archivedClass = first
        object.classReferenceWidth = width
        return object
    }

    /// The streamer-3 instance size of `object`, when given.
    mutating func decodeInstanceSize(_ value: JSONValue?, of object: ArchivedObject) throws(ArchiveJSONError) {
        guard let size = value else { return }
        path.push("size")
        guard header.streamerVersion == 3 else { throw fail(.badValue, "an instance size exists only in streamer version 3") }
        let (value, width) = try decodeInteger(size, type: .int, context: .counted)
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { throw fail(.badValue, "instance size \(value) does not fit 32 bits") }
        object.instanceSize = WireInteger(value, width: width)
        path.pop()
    }

    /// A class chain: new classes most derived first, optionally ending with a reference.
    /// Returns the first class and, when it is a reference, its label width; `nil` when empty.
    mutating func decodeChain(_ value: JSONValue) throws(ArchiveJSONError) -> (ArchivedClass, IntegerWidth?)? {
        var source = JSONTreeSource(value)
        return try decodeChain(&source)
    }

    /// A class chain read from `source`, each link walked as it comes (see ``decodeChain(_:)-(JSONValue)``).
    mutating func decodeChain(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> (ArchivedClass, IntegerWidth?)? {
        try enterArray(&source, "a class chain")
        var first: (ArchivedClass, IntegerWidth?)? = nil
        var last: ArchivedClass? = nil
        /// The classes this chain defines: a reference back to one of them makes the chain loop
        /// (a class its own superclass), which no reader takes and which would never be freed.
        var defined: [ArchivedClass] = []
        var i = 0
        while try source.nextElement() {
            path.push(i)
            switch try chainLink(&source) {
            case .reference(let fields):
                // A reference ends the chain: nothing may follow it.
                guard try !source.nextElement() else {
                    throw fail(.badValue, "a reference ends a class chain; nothing may follow it")
                }
                let (entry, width) = try reference(fields: fields)
                guard case .class(let linked, _) = entry else {
                    throw fail(.referenceKindMismatch, "a class chain refers to \(entry.kindName)")
                }
                if defined.contains(where: { $0 === linked }) {
                    for entry in defined { entry.superclass = nil }  // no cycle is left behind
                    throw fail(.badValue, "the class chain loops: it refers back to \(TextExcerpt.quoted(linked.name)), which it defines")
                }
                try checkChainLength(defined.count, continuingAt: linked)
                if let last {
                    last.superclass = linked
                    last.superclassReferenceWidth = width
                } else {
                    first = (linked, width)
                }
                path.pop()
                return first
            case .newClass(let value):
                let linked = try decodeClass(value)
                if let last { last.superclass = linked } else { first = (linked, nil) }
                last = linked
                defined.append(linked)
                try checkChainLength(defined.count, continuingAt: nil)
                path.pop()
                i += 1
            }
        }
        return first
    }

    /// Throws when `links` new classes followed by the chain of `tail` make a chain longer than
    /// readers accept (walks at most that many classes of the tail).
    func checkChainLength(_ links: Int, continuingAt tail: ArchivedClass?) throws(ArchiveJSONError) {
        var length = links
        var current = tail
        while let entry = current, length <= tally.limits.maximumClassChainLength {
            length += 1
            current = entry.superclass
        }
        if let problem = tally.checkClassChain(length: length) { throw fail(.limitExceeded, problem) }
    }

    /// A link of a class chain as read: a reference's members, or a new class, whole.
    enum ChainLink {
        case reference(MemberFields)
        case newClass(JSONValue)
    }

    /// The next link of a class chain: a reference (an object with a member `ref`) or a new
    /// class. A link whose first member is `ref` is walked as it comes; another is read whole
    /// (a `ref` among its members makes it a reference).
    mutating func chainLink(_ source: inout some JSONPullSource) throws(ArchiveJSONError) -> ChainLink {
        guard try source.peekKind() == .object else { return .newClass(try source.value()) }
        try source.beginObject()
        guard let key = try source.nextKey() else { return .newClass(.object([])) }
        if key == "ref" { return .reference(try members(&source, firstKey: key, "a reference", allowed: Members.reference)) }
        let link = try source.restOfObject(firstKey: key)
        if has(link, "ref") { return .reference(try members(of: link, "a reference", allowed: Members.reference)) }
        return .newClass(link)
    }

    mutating func decodeClass(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedClass {
        let what = "a class"
        let fields = try members(of: value, what, allowed: Members.classLink)
        path.push("id")
        let classID = try id(require(fields[0], "id", in: what))
        path.pop()
        path.push("name")
        let name = try bytes(require(fields[1], "name", in: what), "a class name")
        if let problem = tally.checkClassName(length: name.count) { throw fail(.limitExceeded, problem) }
        path.pop()
        let nameDecision = try sharedString(ArraySlice(name), decision: fields[2], key: "nameWire")
        path.push("version")
        let version = try int64(require(fields[3], "version", in: what), "a class version")
        guard version >= Int64(Int32.min), version <= Int64(Int32.max) else { throw fail(.badValue, "class version \(version) does not fit 32 bits") }
        path.pop()
        var versionWidth = IntegerPlace.counted.archiverChoice(for: version)
        if let w = fields[4] {
            path.push("versionWidth")
            versionWidth = try width(w, .counted, holding: version, "a class version")
            path.pop()
        }
        let entry = ArchivedClass(name: ArraySlice(name), version: version)
        entry.nameDecision = nameDecision
        entry.versionWidth = versionWidth
        let slot = try claimSlot()
        entry.sourceIndex = slot
        try define(classID, .class(entry, slot: slot), key: "id")
        return entry
    }

    /// `null`, `{"ref": id}` or `{"cstring": id, "text": …, "textWire"?: …}`.
    mutating func decodeCString(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        if value == .null { return .cString(nil, referenceWidth: nil) }
        if has(value, "ref") {
            let (entry, width) = try reference(value)
            guard case .cString(let text, _) = entry else {
                throw fail(.referenceKindMismatch, "a C string slot refers to \(entry.kindName)")
            }
            return .cString(text, referenceWidth: width)
        }
        let what = "a C string"
        guard has(value, "cstring") else {
            throw fail(.typeMismatch, "expected null, {\"ref\": id} or {\"cstring\": id, \"text\": …} for type '*', found \(value.kindDescription)")
        }
        let fields = try members(of: value, what, allowed: Members.cString)
        path.push("cstring")
        let cStringID = try id(require(fields[0], "cstring", in: what))
        path.pop()
        let slot = try claimSlot()
        path.push("text")
        let text = try bytes(require(fields[1], "text", in: what), "the text of a C string")
        path.pop()
        let entry = ArchivedCString(text: ArraySlice(text))
        entry.sourceIndex = slot
        entry.textDecision = try sharedString(entry.text, decision: fields[2], key: "textWire")
        try define(cStringID, .cString(entry, slot: slot), key: "cstring")
        return .cString(entry, referenceWidth: nil)
    }
}
