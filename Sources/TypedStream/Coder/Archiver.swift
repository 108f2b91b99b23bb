import ObjCTypeEncoding

/// The ordered, non-keyed encoder: Objective-C's `NSArchiver` for Swift.
///
/// Each call appends one *group* (a type string and its values) to the object being encoded, or
/// to the top level. Objects are shared by identity: the first `encodeObject` of an instance
/// writes it, later ones write a reference. The bytes are what `NSArchiver` writes for the same
/// calls: smallest integer widths, integral reals as integers, shared strings and C strings
/// de-duplicated, references numbered in stream order.
///
/// ```swift
/// let encoder = Archiver()
/// try encoder.encodeRootObject(document)
/// let bytes = try encoder.encodedBytes()
/// ```
public final class Archiver {
    /// The header written (Apple's by default: v4, little-endian, system version 1000).
    public let header: StreamHeader
    /// True class name → name written (`classNameEncodedForTrueClassName:`).
    public var classNameSubstitutions: [String: String] = [:]

    private var topGroups: [ArchivedGroup] = []
    private var groupStack: [[ArchivedGroup]] = []
    private var objects: [ObjectIdentifier: ArchivedObject] = [:]
    private var retained: [AnyObject] = []
    private var classes: [String: ArchivedClass] = [:]
    private var cStrings: [ArraySlice<UInt8>: ArchivedCString] = [:]
    private var typeCache: [String: GroupHead] = [:]
    /// During `encodeRootObject`: the objects the dry run reached unconditionally.
    private var unconditional: Set<ObjectIdentifier>?
    private var isDryRun = false
    private var reached: Set<ObjectIdentifier> = []

    /// Creates an encoder that writes `header`.
    public init(header: StreamHeader = .apple) {
        self.header = header
    }

    /// The encoded archive as a graph.
    public var archive: Archive { Archive(header: header, groups: topGroups) }

    /// The encoded bytes. Throws ``CoderError`` if a value does not match its type string.
    public func encodedBytes() throws(CoderError) -> [UInt8] {
        do { return try ArchiveWriter.write(archive, policy: .recorded) } catch {
            throw CoderError(.invalidValue, at: error.offset, error.reason)
        }
    }

    /// Archives `root` with ``encodeRootObject(_:)`` and returns the bytes
    /// (`+[NSArchiver archivedDataWithRootObject:]`).
    public static func archivedBytes(withRootObject root: AnyObject?, header: StreamHeader = .apple) throws(CoderError) -> [UInt8] {
        let encoder = Archiver(header: header)
        try encoder.encodeRootObject(root)
        return try encoder.encodedBytes()
    }

    // MARK: - Groups

    /// The head of groups of type string `typeString`, parsed once and shared by its groups.
    private func parsed(_ typeString: String) throws(CoderError) -> GroupHead {
        if let hit = typeCache[typeString] { return hit }
        do {
            let types = try ObjCType.parseGroup(typeString)
            let head = GroupHead(typeString: ArraySlice(types.map(\.encoding).joined().utf8), types: types, decision: nil)
            typeCache[typeString] = head
            return head
        } catch {
            throw CoderError(.invalidValue, "type string '\(typeString)' does not parse: \(error.description)")
        }
    }

    private func append(_ group: ArchivedGroup) {
        if groupStack.isEmpty { topGroups.append(group) } else { groupStack[groupStack.count - 1].append(group) }
    }

    /// Appends one group of `values` with the type string `typeString` (`encodeValuesOfObjCTypes:`).
    /// Throws ``CoderError`` `invalidValue` when the values do not match the types.
    public func encodeValues(_ values: [ArchivedValue], ofObjCTypes typeString: String) throws(CoderError) {
        let head = try parsed(typeString)
        let types = head.types
        guard types.count == values.count else {
            throw CoderError(.invalidValue, "'\(typeString)' has \(types.count) types but \(values.count) values were given")
        }
        for (value, type) in zip(values, types) {
            try Self.check(value, against: type)
        }
        append(ArchivedGroup(head: head, storage: GroupValues(values), offset: nil))
    }

    /// Appends one group holding one value of type `typeString` (`encodeValueOfObjCType:at:`).
    public func encodeValue(_ value: ArchivedValue, ofObjCType typeString: String) throws(CoderError) {
        try encodeValues([value], ofObjCTypes: typeString)
    }

    /// Appends one group holding `value` with its own type (`Int32` → `"i"` …).
    public func encode<T: ObjCValueConvertible>(_ value: T) throws(CoderError) {
        try encodeValue(value.archivedValue, ofObjCType: T.objCType)
    }

    /// Appends a C array of `values` as one group (`"[4i]"`).
    public func encodeArray<T: ObjCValueConvertible>(_ values: [T]) throws(CoderError) {
        let type = "[\(values.count)\(T.objCType)]"
        if T.objCType == "c" || T.objCType == "C" {
            var bytes: [UInt8] = []
            for v in values { if case .byte(let b) = v.archivedValue { bytes.append(b) } }
            return try encodeValue(.bytes(ArraySlice(bytes)), ofObjCType: type)
        }
        try encodeValue(.array(values.map(\.archivedValue)), ofObjCType: type)
    }

    /// Appends counted bytes (`encodeBytes:length:`, type `"+"`); `nil` writes NULL.
    public func encodeBytes(_ bytes: [UInt8]?) throws(CoderError) {
        try encodeValue(.unsharedString(bytes.map { ArraySlice($0) }, lengthWidth: nil), ofObjCType: "+")
    }

    /// Appends a data object's contents as NSData writes them: `"i"` length, then `"[Nc]"`.
    public func encodeDataObject(_ bytes: some Collection<UInt8>) throws(CoderError) {
        guard let length = Int32(exactly: bytes.count) else {
            throw CoderError(.invalidValue, "data of \(bytes.count) bytes is too large for an archive")
        }
        try encode(length)
        try encodeValue(.bytes(ArraySlice(bytes)), ofObjCType: "[\(length)c]")
    }

    // MARK: - Objects

    /// Appends an `"@"` group with `object` (`nil` writes nil). The object must be an
    /// ``ArchivableObject``; its contents are written the first time it is met.
    public func encodeObject(_ object: AnyObject?) throws(CoderError) {
        try encodeValue(archivedValue(for: object), ofObjCType: "@")
    }

    /// Appends `object` only if something encodes it unconditionally within the root object
    /// being archived; otherwise nil (`encodeConditionalObject:`). Outside
    /// ``encodeRootObject(_:)`` it writes a reference when the object was already written, else nil.
    public func encodeConditionalObject(_ object: AnyObject?) throws(CoderError) {
        guard let object else { return try encodeObject(nil) }
        let id = ObjectIdentifier(object)
        if isDryRun { return try encodeValue(.object(nil, referenceWidth: nil), ofObjCType: "@") }
        if let unconditional, unconditional.contains(id) { return try encodeObject(object) }
        if let existing = objects[id] { return try encodeValue(.object(existing, referenceWidth: nil), ofObjCType: "@") }
        try encodeObject(nil)
    }

    /// Archives `root` with NSArchiver's two passes: a dry run finds the objects reached
    /// unconditionally, then the real pass writes conditional objects only if they are among them.
    public func encodeRootObject(_ root: AnyObject?) throws(CoderError) {
        let dry = Archiver(header: header)
        dry.isDryRun = true
        dry.classNameSubstitutions = classNameSubstitutions
        try dry.encodeObject(root)
        unconditional = dry.reached
        defer { unconditional = nil }
        try encodeObject(root)
    }

    /// The graph value for `object`, writing its contents the first time.
    public func archivedValue(for object: AnyObject?) throws(CoderError) -> ArchivedValue {
        guard let object else { return .object(nil, referenceWidth: nil) }
        let id = ObjectIdentifier(object)
        if let existing = objects[id] { return .object(existing, referenceWidth: nil) }
        if let reference = object as? ClassReference, let entry = reference.entry {
            return .objectSlotClass(try classEntry(for: entry), referenceWidth: nil)
        }
        guard let archivable = object as? ArchivableObject else {
            throw CoderError(.invalidValue, "\(type(of: object)) is not an ArchivableObject")
        }
        let chain = archivable.archiveClassChain
        guard !chain.isEmpty else { throw CoderError(.invalidValue, "\(type(of: object)) has an empty class chain") }
        let entry = ArchivedObject(archivedClass: try classEntry(for: chain[...]))
        objects[id] = entry
        retained.append(object)
        reached.insert(id)
        guard groupStack.count < ArchiveWriter.maximumNesting else {
            throw CoderError(.invalidValue, "objects nested deeper than \(ArchiveWriter.maximumNesting)")
        }
        groupStack.append([])
        do {
            try archivable.encodeContents(with: self)
        } catch let error as CoderError {
            groupStack.removeLast()
            throw error
        } catch {
            groupStack.removeLast()
            throw CoderError(.invalidValue, "\(chain[0].name): \(error)")
        }
        entry.groups = groupStack.removeLast()
        return .object(entry, referenceWidth: nil)
    }

    /// The class entry for a chain, shared by class name. Throws `invalidValue` for a chain
    /// that names a class twice (possible only in a chain read from a hostile archive): entries
    /// are shared by name, so the class would become its own superclass — an archive no reader
    /// takes, and a reference cycle never freed.
    private func classEntry(for chain: ArraySlice<ArchiveClassLink>) throws(CoderError) -> ArchivedClass {
        if let first = chain.first, let existing = classes[classNameSubstitutions[first.name] ?? first.name] { return existing }
        // A class met for the first time: its chain is checked once.
        let names = chain.map { classNameSubstitutions[$0.name] ?? $0.name }
        guard Set(names).count == names.count else {
            throw CoderError(.invalidValue, "the class chain \(names.joined(separator: " : ")) names a class twice")
        }
        return sharedClassEntry(for: chain)
    }

    /// ``classEntry(for:)-(ArraySlice<ArchiveClassLink>)`` for a chain of distinct names.
    private func sharedClassEntry(for chain: ArraySlice<ArchiveClassLink>) -> ArchivedClass {
        guard let first = chain.first else { return ArchivedClass(name: [], version: 0) }
        let name = classNameSubstitutions[first.name] ?? first.name
        if let existing = classes[name] { return existing }
        let entry = ArchivedClass(name: Array(name.utf8), version: first.version)
        classes[name] = entry
        entry.superclass = chain.count > 1 ? sharedClassEntry(for: chain.dropFirst()) : nil
        return entry
    }

    private func classEntry(for source: ArchivedClass) throws(CoderError) -> ArchivedClass {
        try classEntry(for: source.links[...])
    }

    /// Appends a group read from another archive (used by ``GenericObject``): values keep their
    /// integer widths; objects are re-encoded through this archiver from `objects` (the decoded
    /// instances by graph identity); classes and C strings are shared by name and content.
    public func encodeGroup(_ group: ArchivedGroup, objects decoded: [ObjectIdentifier: AnyObject]) throws(CoderError) {
        var values: [ArchivedValue] = []
        values.reserveCapacity(group.values.count)
        for value in group.values { values.append(try remap(value, decoded)) }
        append(ArchivedGroup(head: group.head.undecided, storage: GroupValues(values), offset: nil))
    }

    private func remap(_ value: ArchivedValue, _ decoded: [ObjectIdentifier: AnyObject]) throws(CoderError) -> ArchivedValue {
        switch value {
        case .object(let entry?, _):
            guard let instance = decoded[ObjectIdentifier(entry)] else {
                throw CoderError(.invalidValue, "a generic object refers to an object that was not decoded")
            }
            return try archivedValue(for: instance)
        case .objectSlotClass(let entry, _):
            return .objectSlotClass(try classEntry(for: entry), referenceWidth: nil)
        case .classObject(let entry, _):
            return .classObject(try entry.map { (entry) throws(CoderError) in try classEntry(for: entry) }, referenceWidth: nil)
        case .cString(let entry, _):
            return .cString(entry.map { cString($0.text) }, referenceWidth: nil)
        case .sharedString(let text, _):
            return .sharedString(text, decision: nil)
        case .array(let values):
            var out: [ArchivedValue] = []
            for v in values { out.append(try remap(v, decoded)) }
            return .array(out)
        case .structure(let values):
            var out: [ArchivedValue] = []
            for v in values { out.append(try remap(v, decoded)) }
            return .structure(out)
        default:
            return value
        }
    }

    /// A C-string value, shared by content as NSArchiver shares constant `objCType` strings.
    public func cString(_ text: some Collection<UInt8>) -> ArchivedCString {
        let key = ArraySlice(text)
        if let existing = cStrings[key] { return existing }
        let entry = ArchivedCString(text: key)
        cStrings[key] = entry
        return entry
    }

    // MARK: - Checking

    /// Checks that `value` has the shape `type` needs. Throws `invalidValue`.
    static func check(_ value: ArchivedValue, against type: ObjCType) throws(CoderError) {
        let ok: Bool
        switch (type.unqualified, value) {
        case (.short, .integer(let v, _)), (.unsignedShort, .integer(let v, _)): ok = v >= -32768 && v <= 65535
        case (.int, .integer(let v, _)), (.unsignedInt, .integer(let v, _)), (.long, .integer(let v, _)), (.unsignedLong, .integer(let v, _)):
            ok = v >= Int64(Int32.min) && v <= Int64(UInt32.max)
        case (.longLong, .integer), (.unsignedLongLong, .integer): ok = true
        case (.float, .float), (.double, .double), (.ignored, .ignored): ok = true
        case (.char, .byte), (.unsignedChar, .byte), (.bool, .byte): ok = true
        case (.array(let n, let e), .bytes(let p)): ok = p.count == n && (e.unqualified == .char || e.unqualified == .unsignedChar)
        case (.union, .bytes(let p)): ok = p.count == type.layout(.ilp32)?.size
        case (.bytes, .unsharedString), (.atom, .sharedString), (.selector, .sharedString), (.cString, .cString): ok = true
        case (.object, .object), (.object, .objectSlotClass), (.classObject, .classObject): ok = true
        case (.array(let n, let e), .array(let values)):
            guard values.count == n else { ok = false; break }
            for v in values { try check(v, against: e) }
            ok = true
        case (.structure(_, let fields), .structure(let values)):
            guard values.count == fields.count else { ok = false; break }
            for (v, f) in zip(values, fields) { try check(v, against: f.type) }
            ok = true
        default: ok = false
        }
        guard ok else { throw CoderError(.invalidValue, "\(value.kindName) cannot be written as '\(type.encoding)'") }
    }
}
