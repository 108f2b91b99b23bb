import ObjCTypeEncoding
import TypedStream

extension ArchiveJSONDecoder {
    // MARK: - Document and header

    mutating func decodeDocument(_ root: JSONValue) throws(ArchiveJSONError) -> Archive {
        let fields = try members(of: root, "the document", allowed: ["format", "formatVersion", "header", "groups"])
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
        let groupsValue = try require(fields[3], "groups", in: "the document")
        path.push("groups")
        let groups = try decodeGroups(groupsValue)
        path.pop()
        return Archive(header: header, groups: groups, owning: objects)
    }

    mutating func decodeHeader(_ value: JSONValue) throws(ArchiveJSONError) -> StreamHeader {
        let what = "the header"
        let fields = try members(of: value, what, allowed: ["streamerVersion", "byteOrder", "systemVersion", "systemVersionWidth"])
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
        var width = WireDefaults.width(for: system, .counted)
        if let w = fields[3] {
            path.push("systemVersionWidth")
            width = try self.width(w, .counted, holding: system, "the system version")
            path.pop()
        }
        return StreamHeader(streamerVersion: UInt8(streamer), byteOrder: order, systemVersion: WireInteger(system, width: width))
    }

    // MARK: - Groups

    mutating func decodeGroups(_ value: JSONValue) throws(ArchiveJSONError) -> [ArchivedGroup] {
        let elements = try array(value, "a list of groups")
        var groups: [ArchivedGroup] = []
        groups.reserveCapacity(elements.count)
        for i in elements.indices {
            path.push(i)
            groups.append(try decodeGroup(elements[i]))
            path.pop()
        }
        return groups
    }

    mutating func types(of typeString: [UInt8]) throws(ArchiveJSONError) -> [ObjCType] {
        if let cached = typeCache[typeString] { return cached }
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = tally.limits.maximumTypeNesting
        do {
            let types = try ObjCType.parseGroup(bytes: typeString, limits: limits)
            typeCache[typeString] = types
            return types
        } catch {
            throw fail(.badTypeString, "type string \(TextExcerpt.quoted(typeString)) does not parse: \(error.description)")
        }
    }

    mutating func decodeGroup(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedGroup {
        let fields = try members(of: value, "a group", allowed: ["type", "typeWire", "values"])
        var group = try decodeGroupType(fields)
        let valuesValue = try require(fields[2], "values", in: "a group")
        path.push("values")
        let elements = try array(valuesValue, "the group's values")
        guard elements.count == group.types.count else {
            throw fail(.typeMismatch, "type \(TextExcerpt.quoted(group.typeText)) needs \(group.types.count) value\(group.types.count == 1 ? "" : "s"), found \(elements.count)")
        }
        group.values.reserveCapacity(elements.count)
        for i in elements.indices {
            path.push(i)
            group.values.append(try decodeValue(elements[i], as: group.types[i]))
            path.pop()
        }
        path.pop()
        return group
    }

    /// The group's type string, its types and its decision, with no values yet.
    mutating func decodeGroupType(_ fields: [JSONValue?]) throws(ArchiveJSONError) -> ArchivedGroup {
        let typeValue = try require(fields[0], "type", in: "a group")
        path.push("type")
        defer { path.pop() }
        if typeValue == .null {
            guard header.streamerVersion == 3 else {
                throw fail(.badValue, "a group without a type string (null) exists only in streamer version 3")
            }
            guard fields[1] == nil else { throw fail(.badValue, "a group without a type string has no 'typeWire'") }
            return ArchivedGroup(typeString: nil, types: [.object(className: nil)], values: [])
        }
        let text = try bytes(typeValue, "a type string")
        let types = try self.types(of: text)
        path.pop()
        let decision = try sharedString(ArraySlice(text), decision: fields[1], key: "typeWire")
        path.push("type")
        return ArchivedGroup(typeString: ArraySlice(text), types: types, values: [], typeStringDecision: decision)
    }

    // MARK: - Objects, classes, C strings

    /// `null`, `{"ref": id}` (an object or, as NeXTSTEP nibs do, a class) or `{"object": id, …}`.
    mutating func decodeObjectSlot(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        if value == .null { return .object(nil, referenceWidth: nil) }
        if has(value, "ref") { return try decodeObjectReference(value) }
        guard has(value, "object") else {
            throw fail(.typeMismatch, "expected null, {\"ref\": id} or {\"object\": id, …} for type '@', found \(value.kindDescription)")
        }
        return .object(try decodeObject(value), referenceWidth: nil)
    }

    func decodeObjectReference(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedValue {
        let (entry, width) = try reference(value)
        switch entry {
        case .object(let object, _): return .object(object, referenceWidth: width)
        case .class(let entry, _): return .objectSlotClass(entry, referenceWidth: width)
        case .cString: throw fail(.referenceKindMismatch, "an object slot refers to \(entry.kindName)")
        }
    }

    mutating func decodeObject(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedObject {
        let fields = try members(of: value, "an object", allowed: ["object", "class", "size", "groups"])
        try nest()
        let object = try decodeObjectHead(fields)
        let groupsValue = try require(fields[3], "groups", in: "an object")
        path.push("groups")
        object.groups = try decodeGroups(groupsValue)
        path.pop()
        depth -= 1
        return object
    }

    /// A new object's id, class chain and (streamer 3) instance size.
    mutating func decodeObjectHead(_ fields: [JSONValue?]) throws(ArchiveJSONError) -> ArchivedObject {
        let what = "an object"
        path.push("object")
        let objectID = try id(require(fields[0], "object", in: what))
        path.pop()
        let slot = try claimSlot()
        let object = ArchivedObject(archivedClass: ArchivedClass(name: [], version: 0))
        objects.append(object)
        try define(objectID, .object(object, slot: slot), key: "object")
        let chainValue = try require(fields[1], "class", in: what)
        path.push("class")
        guard let (first, width) = try decodeChain(chainValue) else {
            throw fail(.badValue, "an object needs a class (the chain is empty)")
        }
        path.pop()
        object.archivedClass = first
        object.classReferenceWidth = width
        if let size = fields[2] {
            path.push("size")
            guard header.streamerVersion == 3 else { throw fail(.badValue, "an instance size exists only in streamer version 3") }
            let (value, width) = try decodeInteger(size, type: .int, context: .counted)
            guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { throw fail(.badValue, "instance size \(value) does not fit 32 bits") }
            object.instanceSize = WireInteger(value, width: width)
            path.pop()
        }
        return object
    }

    /// A class chain: new classes most derived first, optionally ending with a reference.
    /// Returns the first class and, when it is a reference, its label width; `nil` when empty.
    mutating func decodeChain(_ value: JSONValue) throws(ArchiveJSONError) -> (ArchivedClass, IntegerWidth?)? {
        let links = try array(value, "a class chain")
        var first: (ArchivedClass, IntegerWidth?)? = nil
        var last: ArchivedClass? = nil
        /// The classes this chain defines: a reference back to one of them makes the chain loop
        /// (a class its own superclass), which no reader takes and which would never be freed.
        var defined: [ArchivedClass] = []
        for (i, link) in links.enumerated() {
            path.push(i)
            if has(link, "ref") {
                guard i == links.count - 1 else {
                    throw fail(.badValue, "a reference ends a class chain; nothing may follow it")
                }
                let (entry, width) = try reference(link)
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
            } else {
                let linked = try decodeClass(link)
                if let last { last.superclass = linked } else { first = (linked, nil) }
                last = linked
                defined.append(linked)
                try checkChainLength(defined.count, continuingAt: nil)
            }
            path.pop()
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

    mutating func decodeClass(_ value: JSONValue) throws(ArchiveJSONError) -> ArchivedClass {
        let what = "a class"
        let fields = try members(of: value, what, allowed: ["id", "name", "nameWire", "version", "versionWidth"])
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
        var versionWidth = WireDefaults.width(for: version, .counted)
        if let w = fields[4] {
            path.push("versionWidth")
            versionWidth = try width(w, .counted, holding: version, "a class version")
            path.pop()
        }
        let entry = ArchivedClass(name: name, version: version)
        entry.nameDecision = nameDecision
        entry.versionWidth = versionWidth
        try define(classID, .class(entry, slot: claimSlot()), key: "id")
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
        let fields = try members(of: value, what, allowed: ["cstring", "text", "textWire"])
        path.push("cstring")
        let cStringID = try id(require(fields[0], "cstring", in: what))
        path.pop()
        let slot = try claimSlot()
        path.push("text")
        let text = try bytes(require(fields[1], "text", in: what), "the text of a C string")
        path.pop()
        let entry = ArchivedCString(text: text)
        entry.textDecision = try sharedString(entry.text, decision: fields[2], key: "textWire")
        try define(cStringID, .cString(entry, slot: slot), key: "cstring")
        return .cString(entry, referenceWidth: nil)
    }
}
