import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

/// Writes plain JSON: walks the archive's values as ``PlainJSON`` describes, object by object,
/// in the order of one reading front to back (``PlainJSONStream``, `PlainJSONConverter+Stream.swift`),
/// each object seen through its view (``PlainJSONObject``), and writes through a
/// ``PlainJSONWriter``.
///
/// Object ids and natural values follow the archive's order of first occurrence: an object's
/// id is given when its generic form starts (or when it is reached again while its natural
/// value is being written, which then gets the id first). The walk recurses once per object,
/// array and struct it enters, each time through ``nest()``, so its depth is bounded by
/// ``PlainJSON/Options/maximumNesting`` (256 by default) whatever the input.
struct PlainJSONConverter: ~Copyable {
    var out: PlainJSONWriter
    /// The archive read front to back, and the value being converted (``PlainJSONStream``).
    var stream: PlainJSONStream
    /// The names of ``PlainJSON/Options/arrayClasses``.
    let arrayClassNames: Set<[UInt8]>
    let context: PlainJSONContext
    let index: ArchiveIndex
    let bytes: [UInt8]
    let hook: PlainJSON.NaturalValue?
    let maximumNesting: Int
    let limits: OutputLimits
    let budget: Int
    let trailingValues: [JSONValue]
    let documentMembers: [JSONMember]
    let options: PlainJSON.Options

    var depth = 0
    var tooDeep = false
    /// Whether each slot's object has been given its `$id` (its object-table slot, the `#n`
    /// that `decode`, `inspect` and `tokens` show): nonzero once written or referenced.
    var ids: [Int32]
    /// Per class slot: its ``DirectKind`` raw value, 0 until asked.
    var classKinds: [UInt8]
    /// Per class slot: whether its Foundation codec accepts its chain's versions (1 yes, 2 no,
    /// 0 not asked; ``codecAccepts(classSlot:_:)``).
    var codecChecks: [UInt8]
    /// The texts of string objects met again as attribute keys (``referencedStringText(_:)``).
    var referencedTexts: [Int: String] = [:]
    /// Per record class slot: the last shape of its objects and its natural value
    /// (`PlainJSONConverter+Records.swift`).
    var recordShapes: [Int: RecordShape] = [:]
    /// The shape of the record being read (kept for its storage).
    var recordSignature: [Int64] = []
    /// Per class slot met: whether ``ClassLayouts`` catalogues the class.
    var catalogued: [Int: Bool] = [:]
    var substituted: [Bool]
    var inProgress: [Bool]
    var referencedInProgress: [Bool]
    /// Finished natural values (typed decodings), kept for their repeats.
    var finished: [Int: JSONValue] = [:]
    var finishedSize = 0

    /// Repeats being written (nested ones count once), where the outermost began, and what
    /// repeats have cost so far.
    var repeating = 0
    var repeatStart = 0
    var repeatedBytes = 0
    var repeatedObjects = 0
    var repeatedObject = 0

    init(context: PlainJSONContext, options: PlainJSON.Options) {
        self.context = context
        index = context.index
        bytes = context.index.bytes
        hook = PlainJSON.hook(options)
        maximumNesting = options.maximumNesting
        limits = options.limits
        trailingValues = options.trailingValues
        documentMembers = options.documentMembers
        self.options = options
        budget = options.limits.repeatedBytes(forInputOf: context.index.bytes.count)
        out = PlainJSONWriter(pretty: options.pretty)
        stream = PlainJSONStream(index: context.index, objectTokenLimit: options.windowTokenLimit)
        arrayClassNames = Set(options.arrayClasses.map { Array($0.utf8) })
        let slots = context.index.slotCount
        ids = Array(repeating: 0, count: slots)
        classKinds = Array(repeating: 0, count: slots)
        codecChecks = Array(repeating: 0, count: slots)
        substituted = Array(repeating: false, count: slots)
        inProgress = Array(repeating: false, count: slots)
        referencedInProgress = Array(repeating: false, count: slots)
    }

    /// The document: `{"systemVersion": n, "values": [the top-level values]}`.
    mutating func run(_ sink: inout OutputWriter) throws(ArchiveJSONError) {
        out.beginObject(memberCount: 2 + documentMembers.count, &sink)
        out.key("systemVersion")
        out.integer(index.header.systemVersion.value)
        out.key("values")
        out.beginArray(&sink)
        try convertTopLevel(sink: &sink)
        if sink.failed { return }
        for value in trailingValues { out.value(value, &sink) }
        out.end(&sink)
        for member in documentMembers {
            out.key(member.key)
            out.value(member.value, &sink)
        }
        out.end(&sink)
        out.finish(into: &sink)
        if tooDeep {
            throw ArchiveJSONError(.limitExceeded, "the archive nests deeper than \(maximumNesting) objects, arrays and structs")
        }
    }

    mutating func nest() -> Bool {
        depth += 1
        if depth > maximumNesting {
            depth -= 1
            tooDeep = true
            return false
        }
        return true
    }

    mutating func writeTooDeep(_ sink: inout OutputWriter) {
        out.beginObject(memberCount: 1, &sink)
        out.key("$error")
        out.string("nesting too deep")
        out.end(&sink)
    }

    // MARK: - Values

    /// Converts the values of group `group` of `object` in order; when `writing` is given, only
    /// that value is written (the others are converted for their ids, muted).
    mutating func convertValues(of object: PlainJSONObject, group: Int, writing: Int?, sink: inout OutputWriter) throws(ArchiveJSONError) {
        guard group >= 0, group < object.groups.count else { return }
        let g = object.groups[group]
        if let writing {
            // Only that value is converted: the others are passed over, not written unseen
            // (an object converted unseen would count as written, and be referred to later).
            guard writing < g.types.count, var item = object.itemIndex(group: group, value: writing) else { return }
            try convertValue(object, at: &item, type: g.types[writing].unqualified, sink: &sink)
            out.drainIfLarge(into: &sink)
            return
        }
        var item = g.items.lowerBound
        for i in g.types.indices where item < g.items.upperBound {
            try convertValue(object, at: &item, type: g.types[i].unqualified, sink: &sink)
            out.drainIfLarge(into: &sink)
        }
    }

    /// Converts the value starting at item `item` (which then points past it).
    mutating func convertValue(_ object: PlainJSONObject, at item: inout Int, type: ObjCType?, sink: inout OutputWriter) throws(ArchiveJSONError) {
        let token = object.items[item]
        item += 1
        switch token.code {
        case .integer:
            var v = token.value
            if let type, let bits = type.unsignedBits {
                if bits == 64 {
                    return out.unsigned(UInt64(bitPattern: v))
                }
                let half = Int64(1) << (bits - 1)
                if v < 0, v >= -half { v += 2 * half }
            }
            out.integer(v)
        case .float:
            let x = token.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: token.value)) : Float(token.value)
            if x.isFinite { out.number(x.description) } else { writeNonFinite(Double(x)) }
        case .double:
            let x = token.form == .ieee ? Double(bitPattern: UInt64(bitPattern: token.value)) : Double(token.value)
            if x.isFinite { out.number(x.description) } else { writeNonFinite(x) }
        case .byte:
            let b = UInt8(truncatingIfNeeded: token.value)
            if type == .bool, b <= 1 { out.bool(b == 1) } else { out.integer(type == .char ? Int64(Int8(bitPattern: b)) : Int64(b)) }
        case .rawBytes:
            writeData(bytes[token.payload], &sink)
        case .unsharedString, .sharedString:
            if token.form == .null { out.null() } else { writeText(&sink, bytes[token.payload]) }
        case .cString:
            switch token.form {
            case .null: out.null()
            case .reference: writeText(&sink, index.text(ofSlot: Int(token.slot)) ?? [])
            default: writeText(&sink, bytes[token.payload])
            }
        case .classLink:
            if token.form == .null { out.null() } else { writeClassObject(Int(token.slot), &sink) }
        case .object:
            if token.form == .null {
                out.null()
            } else if index.kind(ofSlot: Int(token.slot)) == .class {
                writeClassObject(Int(token.slot), &sink)
            } else {
                try convertObject(Int(token.slot), sink: &sink)
            }
        case .arrayStart, .structStart:
            guard nest() else {
                item = Self.skipAggregate(object, from: item)
                return writeTooDeep(&sink)
            }
            var elementTypes: (single: ObjCType?, fields: [ObjCType]?) = (nil, nil)
            switch type {
            case .array(_, let element)?: elementTypes.single = element.unqualified
            case .structure(_, let fields)?: elementTypes.fields = fields.map { $0.type.unqualified }
            default: break
            }
            // A struct's fields are typed only when their number matches the type's.
            if let fields = elementTypes.fields, token.code != .structStart || fields.count != Self.fieldCount(object, from: item) {
                elementTypes.fields = nil
            }
            out.beginArray(&sink)
            var field = 0
            while item < object.items.count, object.items[item].code != .arrayEnd, object.items[item].code != .structEnd {
                var elementType = elementTypes.single
                if let fields = elementTypes.fields { elementType = field < fields.count ? fields[field] : nil }
                try convertValue(object, at: &item, type: elementType, sink: &sink)
                field += 1
            }
            item += 1
            out.end(&sink)
            depth -= 1
        case .ignored:
            out.null()
        case .arrayEnd, .structEnd, .header, .typeString, .instanceSize, .endOfObject, .untypedGroup:
            break
        }
    }

    /// The number of values of the struct whose first field is at `item`.
    static func fieldCount(_ object: PlainJSONObject, from item: Int) -> Int {
        var count = 0
        var i = item
        while i < object.items.count, object.items[i].code != .structEnd, object.items[i].code != .arrayEnd {
            i = object.items[i].code == .arrayStart || object.items[i].code == .structStart ? skipAggregate(object, from: i + 1) : i + 1
            count += 1
        }
        return count
    }

    /// The item after the end of the array or struct whose contents start at `item`.
    static func skipAggregate(_ object: PlainJSONObject, from item: Int) -> Int {
        var open = 1
        var i = item
        while i < object.items.count, open > 0 {
            switch object.items[i].code {
            case .arrayStart, .structStart: open += 1
            case .arrayEnd, .structEnd: open -= 1
            default: break
            }
            i += 1
        }
        return i
    }

    mutating func writeNonFinite(_ x: Double) {
        out.string(x.isNaN ? "NaN" : (x < 0 ? "-Infinity" : "Infinity"))
    }

    /// Bytes as a string when they are UTF-8, else `{"$data": base64}`.
    mutating func writeText(_ sink: inout OutputWriter, _ text: ArraySlice<UInt8>) {
        if ByteText.isValidUTF8(text) { out.string(utf8: text) } else { writeData(text, &sink) }
    }

    /// `{"$data": base64}`, with `"$rtfText"` (``ReadableValues/rtfText(_:)``) for RTF bytes
    /// and, with ``PlainJSON/Options/nestedArchives``, what the bytes hold
    /// (``NestedArchives/jsonMembers(_:options:)``).
    mutating func writeData(_ data: ArraySlice<UInt8>, _ sink: inout OutputWriter) {
        let rtf = ReadableValues.rtfText(data)
        let nested = options.nestedArchives?.jsonMembers(data, options: options) ?? []
        out.beginObject(memberCount: 1 + (rtf == nil ? 0 : 1) + nested.count, &sink)
        out.key("$data")
        out.string(ByteText.base64(data))
        if let rtf {
            out.key("$rtfText")
            out.string(rtf)
        }
        for member in nested {
            out.key(member.key)
            out.value(member.value, &sink)
        }
        out.end(&sink)
    }

    mutating func writeClassObject(_ slot: Int, _ sink: inout OutputWriter) {
        out.beginObject(memberCount: 1, &sink)
        out.key("$classObject")
        writeText(&sink, index.text(ofSlot: slot) ?? [])
        out.end(&sink)
    }

    // MARK: - Objects

    /// An object: its natural value, its generic form at its first occurrence, or `{"$ref": n}`.
    mutating func convertObject(_ slot: Int, sink: inout OutputWriter) throws(ArchiveJSONError) {
        if repeating > 0 { try checkBudget(slot) }
        if substituted[slot] { return try repeatNatural(slot, sink: &sink) }
        if ids[slot] != 0 { return writeReference(slot, &sink) }
        if inProgress[slot] {
            referencedInProgress[slot] = true
            ids[slot] = 1
            return writeReference(slot, &sink)
        }
        guard nest() else { return writeTooDeep(&sink) }
        defer { depth -= 1 }
        if hook != nil, try writeDirectFromWindow(slot, sink: &sink) { return }
        let record = hook != nil ? recordFromWindow(slot) : nil
        guard let object = record?.object ?? view(slot) else { return out.null() }
        if let hook {
            inProgress[slot] = true
            let natural = record?.natural ?? hook(object, context)
            if let over = context.overBudget { throw expansionError(over) }
            // The common natural value: one leaf (an NSString's text), written and kept at once;
            // text no reference will repeat is written straight from the bytes.
            if case .value(let group, 0)? = natural, group >= 0, group < object.groups.count, object.groups[group].valueCount == 1,
               !context.referenced[slot], let text = leafUTF8(object, group: group) {
                inProgress[slot] = false
                out.string(utf8: text)
                substituted[slot] = true
                return
            }
            if case .value(let group, 0)? = natural, group >= 0, group < object.groups.count, object.groups[group].valueCount == 1,
               let leaf = leafJSON(object, group: group) {
                inProgress[slot] = false
                out.value(leaf, &sink)
                substituted[slot] = true
                keepFinished(leaf, of: slot)
                return
            }
            if let natural {
                let mayCycle = context.selfReferenced.contains(slot)
                if mayCycle { out.beginCapture() }
                let written: Bool
                if let steps = record?.steps {
                    try writeSteps(steps, of: object, sink: &sink)
                    written = true
                } else {
                    written = try writeNatural(natural, of: object, sink: &sink)
                }
                inProgress[slot] = false
                if written {
                    if referencedInProgress[slot] {
                        out.endCapture(wrappingWith: slot)
                    } else {
                        if mayCycle { out.endCapture(wrappingWith: nil) }
                        substituted[slot] = true
                        if case .json(let value) = natural { keepFinished(value, of: slot) }
                    }
                    return
                }
                if mayCycle { out.endCapture(wrappingWith: nil) }
            }
            inProgress[slot] = false
        }
        try writeGeneric(object, sink: &sink)
    }

    /// The text of the only value of `group` when it is a string or C string of valid UTF-8 (what
    /// ``leafJSON(_:group:)`` makes a JSON string of); else `nil`.
    func leafUTF8(_ object: PlainJSONObject, group: Int) -> ArraySlice<UInt8>? {
        let g = object.groups[group]
        guard g.items.count == 1 else { return nil }
        let token = object.items[g.items.lowerBound]
        let text: ArraySlice<UInt8>
        switch token.code {
        case .unsharedString, .sharedString:
            guard token.form != .null else { return nil }
            text = bytes[token.payload]
        case .cString:
            switch token.form {
            case .null: return nil
            case .reference: text = index.text(ofSlot: Int(token.slot)) ?? []
            default: text = bytes[token.payload]
            }
        default:
            return nil
        }
        return ByteText.isValidUTF8(text) ? text : nil
    }

    /// The JSON of the only value of `group` when it is a leaf (a string, number or boolean);
    /// `nil` for objects, arrays, structs and the rest.
    func leafJSON(_ object: PlainJSONObject, group: Int) -> JSONValue? {
        let g = object.groups[group]
        guard g.items.count == 1 else { return nil }
        let token = object.items[g.items.lowerBound]
        let type = g.types.first?.unqualified
        func text(_ bytes: ArraySlice<UInt8>) -> JSONValue {
            ByteText.isValidUTF8(bytes) ? .string(String(decoding: bytes, as: UTF8.self))
                                        : .object([JSONMember("$data", .string(ByteText.base64(bytes)))])
        }
        switch token.code {
        case .unsharedString, .sharedString:
            return token.form == .null ? .null : text(bytes[token.payload])
        case .cString:
            switch token.form {
            case .null: return .null
            case .reference: return text(index.text(ofSlot: Int(token.slot)) ?? [])
            default: return text(bytes[token.payload])
            }
        case .integer:
            var v = token.value
            if let type, let bits = type.unsignedBits {
                if bits == 64 { return .integer(UInt64(bitPattern: v)) }
                let half = Int64(1) << (bits - 1)
                if v < 0, v >= -half { v += 2 * half }
            }
            return .integer(v)
        case .float:
            let x = token.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: token.value)) : Float(token.value)
            return x.isFinite ? .number(x.description) : .double(Double(x))
        case .double:
            return .double(token.form == .ieee ? Double(bitPattern: UInt64(bitPattern: token.value)) : Double(token.value))
        case .byte:
            let b = UInt8(truncatingIfNeeded: token.value)
            return type == .bool && b <= 1 ? .bool(b == 1) : type == .char ? .integer(Int8(bitPattern: b)) : .integer(b)
        default:
            return nil
        }
    }

    mutating func writeReference(_ id: Int, _ sink: inout OutputWriter) {
        out.beginObject(memberCount: 1, &sink)
        out.key("$ref")
        out.integer(Int64(id))
        out.end(&sink)
    }

    /// `{"$class": name, "$id": n, "contents": [every value of every group]}`, or for an object
    /// whose groups a class layout names, `{"$class": name, "$id": n, field: value, …}`.
    mutating func writeGeneric(_ object: PlainJSONObject, sink: inout OutputWriter) throws(ArchiveJSONError) {
        ids[object.slot] = 1
        if isCatalogued(object), let match = object.layoutMatch(chain: index.classLinks(ofObject: object.slot)) {
            return try writeNamed(object, match, sink: &sink)
        }
        out.beginObject(memberCount: 3, &sink)
        out.key("$class")
        writeText(&sink, object.classNameBytes)
        out.key("$id")
        out.integer(Int64(object.slot))
        out.key("contents")
        out.beginArray(&sink)
        for group in object.groups.indices {
            try convertValues(of: object, group: group, writing: nil, sink: &sink)
        }
        out.end(&sink)
        out.end(&sink)
    }

    /// Whether the class of `object` has a layout (looked up once per class).
    mutating func isCatalogued(_ object: PlainJSONObject) -> Bool {
        if let known = catalogued[object.classSlot] { return known }
        let known = ClassLayouts.describes(object.className)
        catalogued[object.classSlot] = known
        return known
    }

    /// `{"$class": name, "$id": n, field: value, …}`: each field under its name (a name met
    /// again in the chain as `Class.name`); the fields of a repeated group as arrays, one
    /// element per repetition.
    mutating func writeNamed(_ object: PlainJSONObject, _ match: LayoutMatch, sink: inout OutputWriter) throws(ArchiveJSONError) {
        let entries = match.entries(keyed: false)
        out.beginObject(memberCount: 2 + entries.count, &sink)
        out.key("$class")
        writeText(&sink, object.classNameBytes)
        out.key("$id")
        out.integer(Int64(object.slot))
        for entry in entries {
            out.key(entry.key)
            if entry.isList { out.beginArray(&sink) }
            // Plain keys are one per field; the match has checked that each group holds it.
            for g in entry.groups {
                try convertValues(of: object, group: g, writing: entry.valueIndices.lowerBound, sink: &sink)
            }
            if entry.isList { out.end(&sink) }
        }
        out.end(&sink)
    }

    /// Writes an object's natural value again where it occurs again (counted against the budget).
    mutating func repeatNatural(_ slot: Int, sink: inout OutputWriter) throws(ArchiveJSONError) {
        let outermost = repeating == 0
        if outermost {
            repeatStart = out.producedCount
            repeatedObject = slot
        }
        repeating += 1
        defer {
            repeating -= 1
            if outermost { repeatedBytes += out.producedCount - repeatStart }
        }
        repeatedObjects += 1
        if let value = finished[slot] {
            out.value(options.nestedArchives?.deepened(value, options: options) ?? value, &sink)
        } else if let object = view(slot), let hook, let natural = hook(object, context) {
            guard nest() else { return writeTooDeep(&sink) }
            defer { depth -= 1 }
            inProgress[slot] = true
            _ = try writeNatural(natural, of: object, sink: &sink)
            inProgress[slot] = false
        } else {
            out.null()
        }
        try checkBudget(slot)
    }

    /// Fails once repeats have written more than the budget (or reached so many objects that
    /// writing them would).
    func checkBudget(_ slot: Int) throws(ArchiveJSONError) {
        let spent = repeatedBytes + (repeating > 0 ? out.producedCount - repeatStart : 0)
        guard spent > budget || repeatedObjects > budget / 4 else { return }
        let name = index.className(ofObject: repeatedObject).map { " (\($0))" } ?? ""
        throw ArchiveJSONError(.limitExceeded, "plain JSON repeats the value of object #\(repeatedObject)\(name) at each reference to it, and the repeats pass the \(budget) bytes allowed for this \(bytes.count)-byte input (\(limits.repeatedBytesPerInputByte) per input byte plus \(limits.repeatedBaseBytes)); 'typedstream decode --json' writes references instead")
    }

    /// The error for a typed object whose natural value would repeat nested objects past the budget.
    func expansionError(_ slot: Int) -> ArchiveJSONError {
        let name = index.className(ofObject: slot).map { " (\($0))" } ?? ""
        return ArchiveJSONError(.limitExceeded, "the natural value of object #\(slot)\(name) repeats the objects it refers to at each reference, more than the \(budget) bytes allowed for this \(bytes.count)-byte input (\(limits.repeatedBytesPerInputByte) per input byte plus \(limits.repeatedBaseBytes)) would hold; 'typedstream decode --json' writes references instead")
    }

    // MARK: - Natural values

    /// Writes a natural value; returns false when it turned out to be the generic form (an odd
    /// dictionary, ``PlainJSON/Natural/genericAfter(_:)``), having written nothing.
    mutating func writeNatural(_ natural: PlainJSON.Natural, of object: PlainJSONObject, sink: inout OutputWriter) throws(ArchiveJSONError) -> Bool {
        switch natural {
        case .json(let value):
            out.value(options.nestedArchives?.deepened(value, options: options) ?? value, &sink)
        case .null:
            out.null()
        case .value(let group, let index):
            guard group >= 0, group < object.groups.count, index >= 0, index < object.groups[group].valueCount else {
                out.null()
                return true
            }
            try convertValues(of: object, group: group, writing: index, sink: &sink)
        case .element(let group, let index, let element):
            try writeElement(of: object, group: group, index: index, element: element, sink: &sink)
        case .values(let first):
            out.beginArray(&sink)
            for group in object.groups.indices where group >= first {
                try convertValues(of: object, group: group, writing: nil, sink: &sink)
            }
            out.end(&sink)
        case .dictionary(let first):
            return try writeDictionary(object, from: first, sink: &sink)
        case .object(let members):
            out.beginObject(memberCount: members.count, &sink)
            for member in members {
                out.key(member.name)
                if try !writeNatural(member.value, of: object, sink: &sink) { out.null() }
            }
            out.end(&sink)
        case .genericAfter(let parts):
            out.mute()
            for part in parts { _ = try writeNatural(part, of: object, sink: &sink) }
            out.unmute()
            return false
        }
        return true
    }

    mutating func writeElement(of object: PlainJSONObject, group: Int, index: Int, element: Int, sink: inout OutputWriter) throws(ArchiveJSONError) {
        guard case (var item, let type)? = Self.elementPlace(of: object, group: group, index: index, element: element) else { return out.null() }
        try convertValue(object, at: &item, type: type, sink: &sink)
    }

    /// Where element `element` of value `index` of group `group` (an array or struct) starts in
    /// the items of `object`, and its type; `nil` when there is no such element.
    static func elementPlace(of object: PlainJSONObject, group: Int, index: Int, element: Int) -> (item: Int, type: ObjCType?)? {
        guard group >= 0, group < object.groups.count, index >= 0, index < object.groups[group].valueCount else { return nil }
        let g = object.groups[group]
        var item = g.items.lowerBound
        for _ in 0..<index where item < g.items.upperBound {
            let code = object.items[item].code
            item = code == .arrayStart || code == .structStart ? Self.skipAggregate(object, from: item + 1) : item + 1
        }
        guard item < g.items.upperBound, object.items[item].code == .arrayStart || object.items[item].code == .structStart else { return nil }
        var type: ObjCType? = nil
        switch g.types[index].unqualified {
        case .array(_, let e): type = e.unqualified
        case .structure(_, let fields): type = element < fields.count ? fields[element].type.unqualified : nil
        default: break
        }
        item += 1
        for _ in 0..<element {
            guard item < object.items.count, object.items[item].code != .arrayEnd, object.items[item].code != .structEnd else { return nil }
            let code = object.items[item].code
            item = code == .arrayStart || code == .structStart ? Self.skipAggregate(object, from: item + 1) : item + 1
        }
        guard item < object.items.count, object.items[item].code != .arrayEnd, object.items[item].code != .structEnd else { return nil }
        return (item, type)
    }

    /// The values from group `first` on as a dictionary (see ``PlainJSON/Natural/dictionary(fromGroup:)``).
    mutating func writeDictionary(_ object: PlainJSONObject, from first: Int, sink: inout OutputWriter) throws(ArchiveJSONError) -> Bool {
        // The values, in order, as (group, index).
        var places: [(group: Int, index: Int)] = []
        for group in object.groups.indices where group >= first {
            for i in 0..<object.groups[group].valueCount { places.append((group, i)) }
        }
        guard places.count % 2 == 0 else {
            out.mute()
            for group in object.groups.indices where group >= first {
                try convertValues(of: object, group: group, writing: nil, sink: &sink)
            }
            out.unmute()
            return false
        }
        // Keys as they will convert, decided before anything is written.
        var keys: [String] = []
        // Repeated keys: compared one by one while there are few, through a set beyond.
        var seen = Set<String>()
        var allStrings = true
        for pair in stride(from: 0, to: places.count, by: 2) {
            guard let key = predictedString(object, places[pair].group, places[pair].index),
                  keys.count < 32 ? !keys.contains(key) : seen.isEmpty ? Self.startSet(&seen, keys, key) : seen.insert(key).inserted else {
                allStrings = false
                break
            }
            keys.append(key)
        }
        if allStrings {
            out.beginObject(memberCount: places.count / 2, &sink)
        } else {
            out.beginArray(&sink)
        }
        var place = 0
        for group in object.groups.indices where group >= first {
            let g = object.groups[group]
            var item = g.items.lowerBound
            for i in g.types.indices where item < g.items.upperBound {
                let isKey = place % 2 == 0
                if allStrings {
                    if isKey {
                        out.mute()
                        try convertValue(object, at: &item, type: g.types[i].unqualified, sink: &sink)
                        out.unmute()
                        out.key(keys[place / 2])
                    } else {
                        try convertValue(object, at: &item, type: g.types[i].unqualified, sink: &sink)
                    }
                } else {
                    if isKey { out.beginArray(&sink) }
                    try convertValue(object, at: &item, type: g.types[i].unqualified, sink: &sink)
                    if !isKey { out.end(&sink) }
                }
                place += 1
                out.drainIfLarge(into: &sink)
            }
        }
        out.end(&sink)
        return true
    }

    /// Fills `seen` with `keys` (all different) and `key`; whether `key` is new.
    static func startSet(_ seen: inout Set<String>, _ keys: [String], _ key: String) -> Bool {
        seen = Set(keys)
        return seen.insert(key).inserted
    }

    /// The string value `(group, index)` of `object` will convert to, if it converts to a string
    /// at all — worked out without converting it.
    func predictedString(_ object: PlainJSONObject, _ group: Int, _ index: Int) -> String? {
        var current = object
        var place = (group, index)
        for _ in 0..<64 {
            guard place.0 >= 0, place.0 < current.groups.count, place.1 >= 0, place.1 < current.groups[place.0].valueCount else { return nil }
            let g = current.groups[place.0]
            var item = g.items.lowerBound
            for _ in 0..<place.1 where item < g.items.upperBound {
                let code = current.items[item].code
                item = code == .arrayStart || code == .structStart ? Self.skipAggregate(current, from: item + 1) : item + 1
            }
            guard item < g.items.upperBound else { return nil }
            let token = current.items[item]
            switch token.code {
            case .unsharedString, .sharedString:
                guard token.form != .null else { return nil }
                return Self.utf8(bytes[token.payload])
            case .cString:
                switch token.form {
                case .null: return nil
                case .reference: return Self.utf8(self.index.text(ofSlot: Int(token.slot)) ?? [])
                default: return Self.utf8(bytes[token.payload])
                }
            case .object:
                let slot = Int(token.slot)
                guard token.form != .null, self.index.kind(ofSlot: slot) == .object, ids[slot] == 0, !inProgress[slot] else { return nil }
                if let value = finished[slot] {
                    if case .string(let s) = value { return s }
                    return nil
                }
                guard let hook, let nested = view(slot), let natural = hook(nested, context) else { return nil }
                switch natural {
                case .json(.string(let s)): return s
                case .value(let g, let i):
                    current = nested
                    place = (g, i)
                default: return nil
                }
            default:
                return nil
            }
        }
        return nil
    }

    static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
        ByteText.isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

extension PlainJSONConverter {
    /// Keeps `value`, the natural value just written for the object in `slot`, for that
    /// object's repeats when it has any (at most 65 536 values are kept).
    mutating func keepFinished(_ value: JSONValue, of slot: Int) {
        guard context.referenced[slot], finishedSize < 1 << 16 else { return }
        finished[slot] = value
        finishedSize += 1
    }
}
