import ObjCTypeEncoding
import TypedStream

/// Reads lossless JSON (see `docs/json-schema.md`) back into an ``Archive``, treating it as
/// untrusted: every member is checked for shape and range, unknown members are refused, ids
/// must be defined before they are referenced, and every value must match its group's type.
/// Errors carry the JSON path of the offending value.
///
/// Missing wire decisions are filled in explicitly with NSArchiver's choice, computed with the
/// same tables the writer keeps, so the resulting archive writes exactly what the JSON says.
struct ArchiveJSONDecoder {
    enum Entry {
        case object(ArchivedObject, slot: Int)
        case `class`(ArchivedClass, slot: Int)
        case cString(ArchivedCString, slot: Int)

        var slot: Int {
            switch self {
            case .object(_, let slot), .class(_, let slot), .cString(_, let slot): slot
            }
        }

        var kindName: String {
            switch self {
            case .object: "an object"
            case .class: "a class"
            case .cString: "a C string"
            }
        }
    }

    let maximumNesting: Int
    var path = JSONPath()
    var tables = WireTables()
    var entries = EntryMap()
    /// One group without values per type string and decision met, whose head the groups
    /// written alike share (``sharedHead(_:decision:_:)``).
    var heads: [HeadKey: ArchivedGroup] = [:]
    var header = StreamHeader.apple
    var depth = 0
    /// The types of each type string given as bytes, parsed once (``types(of:)``).
    var typeCache: [[UInt8]: [ObjCType]] = [:]
    /// Each type string given as plain JSON text, by that text: its number in
    /// ``typeStringEntries`` (``plainTypeStringHead(_:)``).
    var typeStrings: [String: Int] = [:]
    /// What is known of each type string of ``typeStrings``.
    var typeStringEntries: [TypeStringEntry] = []
    /// The class every new object has until its chain is read (one for all, so an object costs
    /// no class of its own).
    let placeholderClass = ArchivedClass(name: ArraySlice<UInt8>(), version: 0)
    /// What readers count against their limits, counted in the writer's order.
    var tally: LimitTally
    /// Every object made so far, in order: the archive owns them (objects may refer to each
    /// other in cycles, which its end breaks), or an error empties them (``releaseObjects()``).
    var objects: [ArchivedObject] = []

    init(maximumNesting: Int, limits: DecodingLimits = .default) {
        self.maximumNesting = maximumNesting
        self.tally = LimitTally(limits: limits)
    }

    /// Empties the groups of every object made, breaking the cycles a document that fails
    /// part-way may have made (an object holding a reference to itself), so they are freed.
    func releaseObjects() {
        for object in objects { object.groups = [] }
    }

    func fail(_ code: ArchiveJSONError.Code, _ reason: String) -> ArchiveJSONError {
        ArchiveJSONError(code, path: path.text, reason)
    }

    // MARK: - Shape helpers

    /// Steps into the next value of `source`, which must be an object (`what`); throws as
    /// ``members(of:_:allowed:)`` does for other shapes.
    mutating func enterObject(_ source: inout some JSONPullSource, _ what: String, allowed: [String]) throws(ArchiveJSONError) {
        guard try source.peekKind() == .object else {
            _ = try members(of: source.value(), what, allowed: allowed)
            return
        }
        try source.beginObject()
    }

    /// Steps into the next value of `source`, which must be an array (`what`); throws as
    /// ``array(_:_:)`` does for other shapes.
    mutating func enterArray(_ source: inout some JSONPullSource, _ what: String) throws(ArchiveJSONError) {
        guard try source.peekKind() == .array else {
            _ = try array(source.value(), what)
            return
        }
        try source.beginArray()
    }

    /// The position of member `key` in `allowed`; refuses unknown members and members already
    /// met (those with a value in `fields`; the member is given a placeholder there).
    func memberIndex(_ key: String, _ fields: inout MemberFields, _ what: String, allowed: [String]) throws(ArchiveJSONError) -> Int {
        guard let index = allowed.firstIndex(of: key) else {
            var at = path
            at.push(key)
            let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
            throw ArchiveJSONError(.unknownField, path: at.text, "unknown member \(TextExcerpt.quoted(key)) in \(what) (allowed: \(list))")
        }
        guard fields[index] == nil else {
            var at = path
            at.push(key)
            throw ArchiveJSONError(.duplicateField, path: at.text, "member \(TextExcerpt.quoted(key)) appears twice")
        }
        // A member walked as it came is marked by a placeholder, so a second one is refused.
        fields[index] = .null
        return index
    }

    /// How many elements an array stepped into has, `count` of them taken already (the rest
    /// are read and dropped).
    func countRest(_ source: inout some JSONPullSource, after count: Int) throws(ArchiveJSONError) -> Int {
        var found = count + 1
        _ = try source.value()
        while try source.nextElement() {
            _ = try source.value()
            found += 1
        }
        return found
    }

    /// The members of an object stepped into whose first member, `firstKey`, was just named,
    /// read one after the other by position in `allowed` (as ``members(of:_:allowed:)`` gives
    /// them, without making the object first); refuses unknown and repeated members as they come.
    func members(_ source: inout some JSONPullSource, firstKey: String, _ what: String, allowed: [String]) throws(ArchiveJSONError) -> MemberFields {
        var fields = MemberFields()
        var key: String? = firstKey
        while let name = key {
            let index = try memberIndex(name, &fields, what, allowed: allowed)
            fields[index] = try source.value()
            key = try source.nextKey()
        }
        return fields
    }

    /// The members of an object, by position in `allowed`; refuses other shapes, unknown and
    /// repeated members.
    func members(of value: JSONValue, _ what: String, allowed: [String]) throws(ArchiveJSONError) -> MemberFields {
        guard case .object(let members) = value else {
            throw fail(.wrongShape, "expected \(what) (an object), found \(value.kindDescription)")
        }
        var result = MemberFields()
        for member in members {
            guard let index = allowed.firstIndex(of: member.key) else {
                var at = path
                at.push(member.key)
                let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
                throw ArchiveJSONError(.unknownField, path: at.text, "unknown member \(TextExcerpt.quoted(member.key)) in \(what) (allowed: \(list))")
            }
            guard result[index] == nil else {
                var at = path
                at.push(member.key)
                throw ArchiveJSONError(.duplicateField, path: at.text, "member \(TextExcerpt.quoted(member.key)) appears twice")
            }
            result[index] = member.value
        }
        return result
    }

    func require(_ value: JSONValue?, _ key: String, in what: String) throws(ArchiveJSONError) -> JSONValue {
        guard let value else { throw fail(.missingField, "\(what) needs the member '\(key)'") }
        return value
    }

    /// Whether `value` is an object with a member named `key`.
    func has(_ value: JSONValue, _ key: String) -> Bool {
        guard case .object(let members) = value else { return false }
        return members.contains { $0.key == key }
    }

    func array(_ value: JSONValue, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw fail(.wrongShape, "expected \(what()) (an array), found \(value.kindDescription)")
        }
        return elements
    }

    func string(_ value: JSONValue, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> String {
        guard case .string(let text) = value else {
            throw fail(.wrongShape, "expected \(what()) (a string), found \(value.kindDescription)")
        }
        return text
    }

    /// An integer number (no fraction or exponent) that fits Int64.
    func int64(_ value: JSONValue, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> Int64 {
        guard case .number(let text) = value else {
            throw fail(.wrongShape, "expected \(what()) (an integer), found \(value.kindDescription)")
        }
        guard let n = Int64(text) else {
            throw fail(.badValue, "expected \(what()) as an integer, found \(TextExcerpt.number(text))")
        }
        return n
    }

    /// A value of an integer type: Int64, or UInt64 for positive values past Int64.
    func wideInteger(_ value: JSONValue, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> (negative: Bool, magnitude: UInt64) {
        guard case .number(let text) = value else {
            throw fail(.typeMismatch, "expected \(what()), found \(value.kindDescription)")
        }
        if text.hasPrefix("-") {
            guard let n = Int64(text) else { throw fail(.badValue, "expected \(what()), found \(TextExcerpt.number(text))") }
            return (true, n.magnitude)
        }
        guard let n = UInt64(text) else { throw fail(.badValue, "expected \(what()), found \(TextExcerpt.number(text))") }
        return (false, n)
    }

    /// A width name, checked against where it is used and the value it must hold.
    func width(_ value: JSONValue, _ context: IntegerPlace, holding number: Int64, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> IntegerWidth {
        let name = try string(value, "a width")
        guard let width = IntegerWidth(name: name) else {
            throw fail(.badValue, "unknown width \(TextExcerpt.quoted(name)) (expected inline, int16, int32 or int64)")
        }
        guard context.allows(width) else { throw fail(.badValue, "\(what()) is never written as \(name)") }
        guard width.canHold(number) else { throw fail(.badValue, "\(number) does not fit the width \(name)") }
        return width
    }

    /// Bytes written as a JSON string (its UTF-8) or as `{"hex": "…"}`.
    func bytes(_ value: JSONValue, _ what: @autoclosure () -> String) throws(ArchiveJSONError) -> [UInt8] {
        switch value {
        case .string(let text):
            return Array(text.utf8)
        case .object:
            let fields = try members(of: value, what(), allowed: Members.hex)
            return try hex(require(fields[0], "hex", in: what()))
        default:
            throw fail(.wrongShape, "expected \(what()) (a string or {\"hex\": …}), found \(value.kindDescription)")
        }
    }

    func hex(_ value: JSONValue) throws(ArchiveJSONError) -> [UInt8] {
        let text = try string(value, "hex digits")
        guard let result = ByteText.bytes(fromHex: text) else {
            throw fail(.badValue, "'hex' needs an even number of hex digits")
        }
        return result
    }

    /// `{"text": …}` or `{"hex": …}` (positions 0 and 1 of the members).
    func boxedBytes(_ fields: MemberFields, _ what: String) throws(ArchiveJSONError) -> [UInt8] {
        switch (fields[0], fields[1]) {
        case (let text?, nil):
            guard case .string(let s) = text else {
                throw fail(.wrongShape, "expected the text of \(what) (a string), found \(text.kindDescription)")
            }
            return Array(s.utf8)
        case (nil, let digits?):
            return try hex(digits)
        default:
            throw fail(.wrongShape, "\(what) needs exactly one of 'text' and 'hex'")
        }
    }

    /// A shared-string decision: `{"literal": width}` or `{"reference": n, "width"?: width}`.
    func decision(_ value: JSONValue, for text: ArraySlice<UInt8>) throws(ArchiveJSONError) -> SharedStringDecision {
        let fields = try members(of: value, "a shared-string decision", allowed: Members.decision)
        let decision: SharedStringDecision
        switch (fields[0], fields[1]) {
        case (let literal?, nil):
            guard fields[2] == nil else { throw fail(.unknownField, "a literal decision has no 'width' (the width is the value of 'literal')") }
            let name = try string(literal, "a width")
            guard let width = IntegerWidth(name: name) else { throw fail(.badValue, "unknown width \(TextExcerpt.quoted(name))") }
            decision = .literal(length: width)
        case (nil, let reference?):
            let n = try int64(reference, "a shared-string index")
            guard let index = Int(exactly: n), index >= 0 else { throw fail(.badValue, "shared-string index \(n) is negative") }
            var width = IntegerWidth.archiverChoice(forReferenceTo: index)
            if let w = fields[2] {
                let name = try string(w, "a width")
                guard let named = IntegerWidth(name: name) else { throw fail(.badValue, "unknown width \(TextExcerpt.quoted(name))") }
                width = named
            }
            decision = .reference(index: index, width: width)
        default:
            throw fail(.wrongShape, "a shared-string decision needs exactly one of 'literal' and 'reference'")
        }
        if let problem = tables.problem(with: decision, for: text) { throw fail(.badValue, problem) }
        return decision
    }

    /// Decides a shared string (the given decision, or NSArchiver's) and records it.
    mutating func sharedString(_ text: ArraySlice<UInt8>, decision value: JSONValue?, key: String) throws(ArchiveJSONError) -> SharedStringDecision {
        var decision = tables.defaultDecision(for: text)
        if let value {
            path.push(key)
            decision = try self.decision(value, for: text)
            path.pop()
        }
        if case .literal = decision, let problem = tally.countSharedString() { throw fail(.limitExceeded, problem) }
        tables.record(text, decision)
        return decision
    }

    /// Claims the next object-table slot (a new object, class or C string), as readers count it.
    mutating func claimSlot() throws(ArchiveJSONError) -> Int {
        if let problem = tally.countObject() { throw fail(.limitExceeded, problem) }
        return tables.claimSlot()
    }

    /// Counts the value of `type` as readers count values that take no bytes (see
    /// ``LimitTally/countValue(of:)``).
    mutating func countValue(of type: ObjCType) throws(ArchiveJSONError) {
        if let problem = tally.countValue(of: type) { throw fail(.limitExceeded, problem) }
    }

    mutating func nest() throws(ArchiveJSONError) {
        depth += 1
        guard depth <= maximumNesting else {
            throw fail(.limitExceeded, "nesting deeper than \(maximumNesting) objects, arrays and structs (raise DecodingOptions.maximumNesting)")
        }
    }

    /// An id: a non-negative integer.
    func id(_ value: JSONValue) throws(ArchiveJSONError) -> Int {
        let n = try int64(value, "an id")
        guard n >= 0, let id = Int(exactly: n) else { throw fail(.badValue, "ids are non-negative integers, found \(n)") }
        return id
    }

    /// Defines a new id (which must not exist yet).
    mutating func define(_ id: Int, _ entry: Entry, key: String) throws(ArchiveJSONError) {
        guard entries[id] == nil else {
            path.push(key)
            defer { path.pop() }
            throw fail(.duplicateID, "id \(id) is already defined")
        }
        entries[id] = entry
    }

    /// `{"ref": id, "width"?: w}`: the entry and the label width (explicit, or NSArchiver's).
    func reference(_ value: JSONValue) throws(ArchiveJSONError) -> (Entry, IntegerWidth) {
        try reference(fields: members(of: value, "a reference", allowed: Members.reference))
    }

    /// A reference whose members (``Members/reference``) are `fields`.
    func reference(fields: MemberFields) throws(ArchiveJSONError) -> (Entry, IntegerWidth) {
        let target = try id(require(fields[0], "ref", in: "a reference"))
        guard let entry = entries[target] else {
            throw fail(.undefinedReference, "reference to id \(target), which is not defined before this point")
        }
        var width = IntegerWidth.archiverChoice(forReferenceTo: entry.slot)
        if let w = fields[1] {
            width = try self.width(w, .counted, holding: Int64(entry.slot) + HeadByte.referenceBias, "a reference label")
        }
        return (entry, width)
    }
}

extension ArchiveJSONDecoder {
    /// The member names each object of the document may have, in the order of its fields.
    enum Members {
        static let document = ["format", "formatVersion", "header", "groups"]
        static let header = ["streamerVersion", "byteOrder", "systemVersion", "systemVersionWidth"]
        static let group = ["type", "typeWire", "values"]
        static let object = ["object", "class", "size", "groups"]
        static let classLink = ["id", "name", "nameWire", "version", "versionWidth"]
        static let cString = ["cstring", "text", "textWire"]
        static let reference = ["ref", "width"]
        static let decision = ["literal", "reference", "width"]
        static let integer = ["value", "raw", "width"]
        static let countedBytes = ["text", "hex", "width"]
        static let sharedString = ["text", "hex", "wire"]
        static let hex = ["hex"]
        static let float = ["value", "f32bits", "form"]
        static let double = ["value", "f64bits", "form"]
    }

    /// A type string met as plain JSON text: its bytes and types, parsed once, and — once the
    /// shared-string table holds it, so NSArchiver refers to its first slot — the head its
    /// groups without a `typeWire` share.
    struct TypeStringEntry {
        let text: [UInt8]
        let types: [ObjCType]
        var referringHead: ArchivedGroup? = nil
    }

    /// What groups that share a head have in common: the type string and its decision.
    struct HeadKey: Hashable {
        var text: [UInt8]?
        var decision: SharedStringDecision?
    }

    /// The entries by id: in an array while ids stay about as many as the entries (as
    /// `decode --json` numbers them, by slot), in a dictionary beyond that, so a few huge ids
    /// cost no more than small ones.
    struct EntryMap {
        private var dense: [Entry?] = []
        private var sparse: [Int: Entry] = [:]
        private var count = 0

        subscript(id: Int) -> Entry? {
            get { id < dense.count ? dense[id] : sparse[id] }
            set {
                if id < dense.count {
                    if dense[id] == nil, newValue != nil { count += 1 }
                    dense[id] = newValue
                } else if let newValue, id <= 2 * count + 4096 {
                    // Ids met past the array before move into it.
                    if sparse.isEmpty {
                        dense.append(contentsOf: repeatElement(nil, count: id - dense.count))
                    } else {
                        for gap in dense.count..<id { dense.append(sparse.removeValue(forKey: gap)) }
                    }
                    dense.append(newValue)
                    count += 1
                } else {
                    if sparse[id] == nil, newValue != nil { count += 1 }
                    sparse[id] = newValue
                }
            }
        }
    }
}
