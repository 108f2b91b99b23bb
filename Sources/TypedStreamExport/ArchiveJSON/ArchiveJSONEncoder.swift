import ObjCTypeEncoding
import TypedStream

/// Writes an ``Archive`` as lossless JSON text (see `docs/json-schema.md`).
///
/// It walks the graph in exactly the order ``ArchiveWriter`` writes it, keeping the writer's
/// two tables, so objects, classes and C strings are defined where the writer would write them
/// as new (their id is their object-table slot) and every later mention is a `{"ref": id}`.
/// A wire decision is written only where it differs from what the writer would choose.
struct ArchiveJSONEncoder: ~Copyable {
    private var out: JSONTextWriter
    private let header: StreamHeader
    private var tables = WireTables()
    private var slots: [ObjectIdentifier: Int] = [:]
    private var path = JSONPath()
    private var depth = 0
    private var typeCache: [ArraySlice<UInt8>: [ObjCType]] = [:]

    private let maximumNesting: Int

    init(header: StreamHeader, pretty: Bool, maximumNesting: Int, capacity: Int) {
        self.header = header
        self.maximumNesting = maximumNesting
        self.out = JSONTextWriter(pretty: pretty, capacity: capacity)
    }

    private func unwritable(_ reason: String) -> ArchiveJSONError {
        ArchiveJSONError(.unwritable, path: path.text, reason)
    }

    mutating func encode(_ archive: Archive) throws(ArchiveJSONError) -> [UInt8] {
        guard header.streamerVersion == 3 || header.streamerVersion == 4 else {
            throw ArchiveJSONError(.unwritable, path: "header.streamerVersion", "streamer version \(header.streamerVersion) cannot be written (only 3 and 4 exist)")
        }
        out.beginDocument(header)
        path.push("groups")
        for i in archive.groups.indices {
            path.push(i)
            try encodeGroup(archive.groups[i])
            path.pop()
        }
        path.pop()
        out.endDocument()
        return out.bytes
    }

    // MARK: - Pieces

    /// Whether writing `values` defines a new object (such a group is laid out over several lines).
    private func definesNewObject(_ values: [ArchivedValue]) -> Bool {
        values.contains { value in
            switch value {
            case .object(let object?, _): slots[ObjectIdentifier(object)] == nil
            case .array(let inner), .structure(let inner): definesNewObject(inner)
            default: false
            }
        }
    }

    /// Decides a shared string as the writer will, records it, and returns the decision when it
    /// differs from the default (so it must appear in the JSON).
    private mutating func sharedString(_ text: ArraySlice<UInt8>, _ recorded: SharedStringDecision?) -> SharedStringDecision? {
        let fallback = tables.defaultDecision(for: text)
        let effective = tables.effectiveDecision(for: text, recorded: recorded)
        tables.record(text, effective)
        return effective == fallback ? nil : effective
    }

    private mutating func nest() throws(ArchiveJSONError) {
        depth += 1
        guard depth <= maximumNesting else {
            throw ArchiveJSONError(.limitExceeded, path: path.text, "nesting deeper than \(maximumNesting) objects, arrays and structs (raise EncodingOptions.maximumNesting)")
        }
    }

    // MARK: - Groups, values, objects

    private mutating func types(of typeString: ArraySlice<UInt8>) throws(ArchiveJSONError) -> [ObjCType] {
        if let cached = typeCache[typeString] { return cached }
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = DecodingLimits.default.maximumTypeNesting
        do {
            let types = try ObjCType.parseGroup(bytes: typeString, limits: limits)
            typeCache[typeString] = types
            return types
        } catch {
            throw unwritable("type string \(TextExcerpt.quoted(typeString)) does not parse: \(error.description)")
        }
    }

    private mutating func encodeGroup(_ group: ArchivedGroup) throws(ArchiveJSONError) {
        guard group.values.count == group.types.count else {
            throw unwritable("group \(TextExcerpt.quoted(group.typeText)) has \(group.types.count) types but \(group.values.count) values")
        }
        out.beginObject(definesNewObject(group.values) ? .hug : .inline)
        try encodeGroupType(group)
        out.key("values")
        out.beginArray()
        path.push("values")
        for i in group.values.indices {
            path.push(i)
            try encodeValue(group.values[i], as: group.types[i])
            path.pop()
        }
        path.pop()
        out.endArray()
        out.endObject()
    }

    /// The group's `type` (and `typeWire`) members.
    private mutating func encodeGroupType(_ group: ArchivedGroup) throws(ArchiveJSONError) {
        out.key("type")
        if let typeString = group.typeString {
            guard try types(of: typeString) == group.types else {
                throw unwritable("the group's types do not match its type string \(TextExcerpt.quoted(group.typeText))")
            }
            out.bytesField(typeString)
            if let decision = sharedString(typeString, group.typeStringDecision) {
                out.key("typeWire")
                out.decision(decision)
            }
            return
        }
        guard group.types.count == 1, case .object = group.types[0].unqualified else {
            throw unwritable("a group without a type string must hold exactly one object")
        }
        if header.streamerVersion == 3 {
            out.null()
        } else {
            // The writer gives such a group the type string "@" outside streamer version 3.
            out.string("@")
            _ = sharedString(ArraySlice("@".utf8), nil)
        }
    }

    /// One value. Kept small: it is on the recursive path of nested objects, arrays and structs.
    private mutating func encodeValue(_ value: ArchivedValue, as type: ObjCType) throws(ArchiveJSONError) {
        let type = type.unqualified
        switch (type, value) {
        case (.object, .object(let object, let w)):
            guard let object else { return out.null() }
            if let slot = slots[ObjectIdentifier(object)] { return out.reference(slot, w) }
            try encodeObject(object)
        case (.object, .objectSlotClass(let entry, let w)):
            guard let slot = slots[ObjectIdentifier(entry)] else {
                throw unwritable("an object slot refers to class \(entry.nameText) before it was written")
            }
            out.reference(slot, w)
        case (.classObject, .classObject(let entry, let w)):
            guard let entry else { return out.null() }
            try encodeChain(entry, referenceWidth: w)
        case (.array(let count, let element), .array(let values)) where element.unqualified == .char || element.unqualified == .unsignedChar:
            // Bytes given one by one: the same wire bytes as a byte blob.
            var payload: [UInt8] = []
            for v in values {
                guard case .byte(let b) = v else { throw unwritable("a value of the wrong kind for type \(TextExcerpt.quoted(element.encoding))") }
                payload.append(b)
            }
            guard payload.count == count else { throw unwritable("\(TextExcerpt.quoted(type.encoding)) needs \(count) bytes, the value has \(payload.count)") }
            out.hexObject(ArraySlice(payload))
        case (.array(let count, let element), .array(let values)):
            guard values.count == count else { throw unwritable("\(TextExcerpt.quoted(type.encoding)) needs \(count) elements, the value has \(values.count)") }
            try nest()
            out.beginArray(definesNewObject(values) ? .block : .inline)
            for i in values.indices {
                path.push(i)
                try encodeValue(values[i], as: element)
                path.pop()
            }
            out.endArray()
            depth -= 1
        case (.structure(_, let fields), .structure(let values)):
            guard values.count == fields.count else { throw unwritable("\(TextExcerpt.quoted(type.encoding)) has \(fields.count) members, the value has \(values.count)") }
            try nest()
            out.beginArray(definesNewObject(values) ? .block : .inline)
            for i in values.indices {
                path.push(i)
                try encodeValue(values[i], as: fields[i].type)
                path.pop()
            }
            out.endArray()
            depth -= 1
        default:
            try encodeLeaf(value, as: type)
        }
    }

    /// Values that hold no nested objects, arrays or structs.
    private mutating func encodeLeaf(_ value: ArchivedValue, as type: ObjCType) throws(ArchiveJSONError) {
        switch (type, value) {
        case (.short, .integer(let v, let w)), (.unsignedShort, .integer(let v, let w)):
            guard v >= -32768 && v <= 65535 else { throw unwritable("\(v) does not fit a short") }
            let signed = Int64(Int16(truncatingIfNeeded: v))
            let width = IntegerPlace.short.width(recorded: w, for: signed)
            out.archiveInteger(signed, type: type, width: width, defaultWidth: IntegerPlace.short.archiverChoice(for: signed))
        case (.int, .integer(let v, let w)), (.unsignedInt, .integer(let v, let w)),
             (.long, .integer(let v, let w)), (.unsignedLong, .integer(let v, let w)),
             (.longLong, .integer(let v, let w)), (.unsignedLongLong, .integer(let v, let w)):
            let width = IntegerPlace.integer.width(recorded: w, for: v)
            out.archiveInteger(v, type: type, width: width, defaultWidth: IntegerPlace.integer.archiverChoice(for: v))
        case (.float, .float(let x, let form)):
            out.archiveFloat(x, form: form)
        case (.double, .double(let x, let form)):
            out.archiveDouble(x, form: form, systemVersion: header.systemVersion.value)
        case (.char, .byte(let b)), (.unsignedChar, .byte(let b)), (.bool, .byte(let b)):
            out.integer(Int64(b))
        case (.array(let count, let element), .bytes(let payload)) where element.unqualified == .char || element.unqualified == .unsignedChar:
            guard payload.count == count else { throw unwritable("\(TextExcerpt.quoted(type.encoding)) needs \(count) bytes, the value has \(payload.count)") }
            out.hexObject(payload)
        case (.union, .bytes(let payload)):
            guard let size = type.layout(.ilp32)?.size, payload.count == size else {
                throw unwritable("union \(TextExcerpt.quoted(type.encoding)) has the wrong number of bytes (\(payload.count))")
            }
            out.hexObject(payload)
        case (.bytes, .unsharedString(let payload, let w)):
            guard let payload else { return out.null() }
            out.unsharedBytes(payload, lengthWidth: w)
        case (.atom, .sharedString(let text, let recorded)), (.selector, .sharedString(let text, let recorded)):
            guard let text else { return out.null() }
            if let decision = sharedString(text, recorded) {
                out.beginBoxedBytes(text)
                out.key("wire")
                out.decision(decision)
                out.endObject()
            } else {
                out.bytesField(text)
            }
        case (.cString, .cString(let entry, let w)):
            guard let entry else { return out.null() }
            if let slot = slots[ObjectIdentifier(entry)] { return out.reference(slot, w) }
            let slot = tables.claimSlot()
            slots[ObjectIdentifier(entry)] = slot
            out.beginObject(.inline)
            out.key("cstring")
            out.integer(Int64(slot))
            out.key("text")
            out.bytesField(entry.text)
            if let decision = sharedString(entry.text, entry.textDecision) {
                out.key("textWire")
                out.decision(decision)
            }
            out.endObject()
        case (.ignored, .ignored):
            out.null()
        default:
            throw unwritable("a value of the wrong kind for type \(TextExcerpt.quoted(type.encoding))")
        }
    }

    private mutating func encodeObject(_ object: ArchivedObject) throws(ArchiveJSONError) {
        try nest()
        out.beginObject(.hug)
        try encodeObjectHead(object)
        out.key("groups")
        out.beginArray()
        path.push("groups")
        for i in object.groups.indices {
            path.push(i)
            try encodeGroup(object.groups[i])
            path.pop()
        }
        path.pop()
        out.endArray()
        out.endObject()
        depth -= 1
    }

    /// A new object's `object` id, `class` chain and (streamer 3) `size`.
    private mutating func encodeObjectHead(_ object: ArchivedObject) throws(ArchiveJSONError) {
        let slot = tables.claimSlot()
        slots[ObjectIdentifier(object)] = slot
        out.key("object")
        out.integer(Int64(slot))
        out.key("class")
        path.push("class")
        try encodeChain(object.archivedClass, referenceWidth: object.classReferenceWidth)
        path.pop()
        guard header.streamerVersion == 3 else { return }
        let size = object.instanceSize ?? WireInteger(0, width: .inline)
        let width = IntegerPlace.counted.width(recorded: size.width, for: size.value)
        let defaultWidth = IntegerPlace.counted.archiverChoice(for: size.value)
        if size.value != 0 || width != defaultWidth {
            out.key("size")
            out.archiveInteger(size.value, type: .int, width: width, defaultWidth: defaultWidth)
        }
    }

    /// A class chain: new classes (most derived first) until a reference or the root's nil.
    private mutating func encodeChain(_ first: ArchivedClass, referenceWidth firstWidth: IntegerWidth?) throws(ArchiveJSONError) {
        out.beginArray(.inline)
        var current: ArchivedClass? = first
        var linkWidth = firstWidth
        var links = 0
        while let entry = current {
            if let slot = slots[ObjectIdentifier(entry)] {
                out.reference(slot, linkWidth)
                break
            }
            links += 1
            guard links <= ArchiveWriter.maximumNesting else { throw unwritable("class chain longer than \(ArchiveWriter.maximumNesting)") }
            let nameDecision = sharedString(entry.name, entry.nameDecision)
            let versionWidth = IntegerPlace.counted.width(recorded: entry.versionWidth, for: entry.version)
            let slot = tables.claimSlot()
            slots[ObjectIdentifier(entry)] = slot
            out.beginObject(.inline)
            out.key("id")
            out.integer(Int64(slot))
            out.key("name")
            out.bytesField(entry.name)
            if let nameDecision {
                out.key("nameWire")
                out.decision(nameDecision)
            }
            out.key("version")
            out.integer(entry.version)
            if versionWidth != IntegerPlace.counted.archiverChoice(for: entry.version) {
                out.key("versionWidth")
                out.string(versionWidth.name)
            }
            out.endObject()
            current = entry.superclass
            linkWidth = entry.superclassReferenceWidth
        }
        out.endArray()
    }
}
