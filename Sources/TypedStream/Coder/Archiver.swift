import ObjCTypeEncoding

/// The ordered, non-keyed encoder: Objective-C's `NSArchiver` for Swift.
///
/// Each call appends one *group* (a type string and its values) to the object being encoded, or
/// to the top level. Objects are shared by identity: the first `encodeObject` of an instance
/// writes it, later ones write a reference. The bytes are what `NSArchiver` writes for the same
/// calls: smallest integer widths, integral reals as integers, shared strings and C strings
/// de-duplicated, references numbered in stream order.
///
/// Like `NSArchiver`, it writes as it goes: each group goes straight to the bytes, and a new
/// object's contents are written inside its `"@"` group while its codec encodes them. Only
/// objects made into values by ``archivedValue(for:)`` (for groups of several values) are
/// first built as graph entries, and written whole where their group is written.
///
/// An `encodeObject` that fails part-way through an object's contents leaves that object half
/// written: the encoder then refuses every later call, and ``encodedBytes()``, with that first
/// error. ``encodeRootObject(_:)`` undoes a root that fails, and errors found before anything
/// is written (a value that does not match its type string, an object that is not archivable)
/// leave the encoder as it was.
///
/// Class codecs see it as an ``ObjectEncoder``, the vocabulary they are written against.
///
/// ```swift
/// let encoder = Archiver()
/// try encoder.encodeRootObject(document)
/// let bytes = try encoder.encodedBytes()
/// ```
public final class Archiver: ObjectEncoder {
    /// The header written (Apple's by default: v4, little-endian, system version 1000).
    public let header: StreamHeader
    /// The limits of the readers the bytes are for: what a reader with these limits would
    /// refuse is refused here (``LimitTally``). Default ``DecodingLimits/default``.
    public let limits: DecodingLimits
    /// True class name → name written (`classNameEncodedForTrueClassName:`).
    public var classNameSubstitutions: [String: String] = [:] {
        didSet { recentClass = nil }
    }

    // The encoder's own state below is read and changed only by its own methods, and none of
    // them holds an access to it across a call out to a codec (a codec's `encodeContents` runs
    // between accesses, never inside one), so accesses cannot overlap: the run-time
    // exclusivity checks, about a fifth of encoding a string, are left out.

    /// The bytes so far, and the tables that number shared strings, objects and classes.
    @exclusivity(unchecked) private var writer: ArchiveWriter
    /// The next key given to a graph entry this encoder makes (as its `sourceIndex`): the
    /// writer then finds the slot it wrote each entry to in a table at that key, without
    /// hashing the entry's identity.
    @exclusivity(unchecked) private var nextEntryKey = 0
    /// The class entry found last, by the name it was found by: most objects in a row share
    /// their class.
    @exclusivity(unchecked) private var recentClass: (name: String, entry: ArchivedClass)?
    /// The first error that left the bytes unusable (or the header's own).
    @exclusivity(unchecked) private var failure: CoderError?
    /// The byte count after the last group written at the top level.
    @exclusivity(unchecked) private var completeCount = 0
    /// The objects whose contents are being written, counted.
    @exclusivity(unchecked) private var streamDepth = 0
    /// Groups of objects being built as graph entries (``archivedValue(for:)``), innermost last.
    @exclusivity(unchecked) private var groupStack: [[ArchivedGroup]] = []
    /// Every object met, by identity: the slot it was written to (0 or more), or its graph
    /// entry's place in ``entries`` as −1 − place.
    @exclusivity(unchecked) private var objects = IdentityTable()
    /// The graph entries made for objects (``archivedValue(for:)``).
    @exclusivity(unchecked) private var entries: [ArchivedObject] = []
    @exclusivity(unchecked) private var retained: [AnyObject] = []
    @exclusivity(unchecked) private var classes = SmallMap<String, ArchivedClass>()
    /// Each distinct C string made by ``cString(_:)``, found by content through ``cStringIndex``.
    @exclusivity(unchecked) private var cStrings: [ArchivedCString] = []
    @exclusivity(unchecked) private var cStringIndex = ByteStringIndex()
    @exclusivity(unchecked) private var typeCache = SmallMap<String, GroupHead>()
    /// During `encodeRootObject`: the objects the dry run reached unconditionally.
    @exclusivity(unchecked) private var unconditional: Set<ObjectIdentifier>?
    @exclusivity(unchecked) private var isDryRun = false
    /// The objects a dry run reached unconditionally (kept by dry runs only).
    @exclusivity(unchecked) private var reached: Set<ObjectIdentifier> = []
    /// During the single pass of `encodeRootObject`: set when a conditional object not yet
    /// written is met, which sends the root to the two passes.
    @exclusivity(unchecked) private var singlePass: (active: Bool, conditionalMet: Bool) = (false, false)

    /// Creates an encoder that writes `header` for readers with `limits`. A header that cannot
    /// be written (a streamer version other than 3 or 4) makes every encode throw.
    public init(header: StreamHeader = .apple, limits: DecodingLimits = .default) {
        self.header = header
        self.limits = limits
        writer = ArchiveWriter(header: header, policy: .recorded, limits: limits)
        do {
            try writer.writeHeader()
            completeCount = writer.count
        } catch {
            failure = CoderError(.invalidValue, at: error.offset, error.reason)
        }
    }

    /// The encoded archive as a graph: the groups written at the top level so far, read back
    /// from the bytes (empty if the header could not be written).
    public var archive: Archive {
        guard completeCount > 0, let graph = try? ArchiveReader.read(Array(writer.bytes[..<completeCount])) else {
            return Archive(header: header, groups: [])
        }
        return graph
    }

    /// The encoded bytes. Throws the first ``CoderError`` that left them unusable, or
    /// `invalidValue` when they are more than readers accept
    /// (``DecodingLimits/maximumInputSize``).
    public func encodedBytes() throws(CoderError) -> [UInt8] {
        try checkUsable()
        do {
            return try writer.checkedBytes()
        } catch {
            throw CoderError(.invalidValue, at: error.offset, error.reason)
        }
    }

    /// Archives `root` with ``encodeRootObject(_:)`` and returns the bytes
    /// (`+[NSArchiver archivedDataWithRootObject:]`).
    public static func archivedBytes(withRootObject root: AnyObject?, header: StreamHeader = .apple,
                                     limits: DecodingLimits = .default) throws(CoderError) -> [UInt8] {
        let encoder = Archiver(header: header, limits: limits)
        try encoder.encodeRootObject(root)
        return try encoder.encodedBytes()
    }

    // MARK: - Groups

    /// The heads of the one-letter type strings that parse (`"@"`, `"i"`, `"+"` …), by letter:
    /// most groups, found without parsing or hashing their type string, in every encoder.
    private static let oneLetterHeads: [GroupHead?] = (0..<128).map { code in
        (try? ObjCType.parseGroup(String(UnicodeScalar(UInt8(code))))).map(head(for:))
    }

    /// The head of groups of `types`, written as their canonical type string.
    private static func head(for types: [ObjCType]) -> GroupHead {
        GroupHead(typeString: ArraySlice(types.map(\.encoding).joined().utf8), types: types, decision: nil)
    }

    /// The head of groups of type string `typeString`, parsed once and shared by its groups.
    private func parsed(_ typeString: String) throws(CoderError) -> GroupHead {
        let utf8 = typeString.utf8
        if utf8.count == 1, let letter = utf8.first, letter < 128, let hit = Self.oneLetterHeads[Int(letter)] { return hit }
        if let hit = typeCache[typeString] { return hit }
        do {
            let head = Self.head(for: try ObjCType.parseGroup(typeString))
            typeCache.insert(head, for: typeString)
            return head
        } catch {
            throw CoderError(.invalidValue, "type string \(TextExcerpt.quoted(typeString)) does not parse: \(error.description)")
        }
    }

    /// Throws the error that left the bytes unusable, if there is one.
    private func checkUsable() throws(CoderError) {
        if let failure { throw failure }
    }

    /// Runs `write` on the bytes (not in a dry run, whose bytes nobody reads). A failure leaves
    /// them unusable: it is kept and thrown.
    @inline(__always)
    private func written(_ write: (inout ArchiveWriter) throws(WireError) -> Void) throws(CoderError) {
        try checkUsable()
        guard !isDryRun else { return }
        do {
            try write(&writer)
        } catch {
            let failure = CoderError(.invalidValue, at: error.offset, error.reason)
            self.failure = failure
            throw failure
        }
    }

    /// Runs `write`, which ends a group, as ``written(_:)`` does; a group ended at the top level
    /// completes what ``archive`` reads back.
    @inline(__always)
    private func groupWritten(_ write: (inout ArchiveWriter) throws(WireError) -> Void) throws(CoderError) {
        try written(write)
        if streamDepth == 0 { completeCount = writer.count }
    }

    /// Appends `group` to the object being built as a graph entry, or writes it.
    private func append(_ group: ArchivedGroup) throws(CoderError) {
        if !groupStack.isEmpty {
            groupStack[groupStack.count - 1].append(group)
            return
        }
        try groupWritten { (writer) throws(WireError) in try writer.writeGroup(group) }
    }

    /// The head of a group of `count` values of type string `typeString`. Throws
    /// `invalidValue` when the type string does not parse or holds another number of types.
    private func head(_ typeString: String, holding count: Int) throws(CoderError) -> GroupHead {
        let head = try parsed(typeString)
        guard head.types.count == count else {
            throw CoderError(.invalidValue, "'\(typeString)' has \(head.types.count) types but \(count) values were given")
        }
        return head
    }

    /// Appends one group of `values` with the type string `typeString` (`encodeValuesOfObjCTypes:`).
    /// Throws ``CoderError`` `invalidValue` when the values do not match the types.
    public func encodeValues(_ values: [ArchivedValue], ofObjCTypes typeString: String) throws(CoderError) {
        let head = try head(typeString, holding: values.count)
        for (value, type) in zip(values, head.types) {
            try Self.check(value, against: type)
        }
        try append(ArchivedGroup(head: head, storage: GroupValues(values), offset: nil))
    }

    /// Appends one group holding one value of type `typeString` (`encodeValueOfObjCType:at:`).
    public func encodeValue(_ value: ArchivedValue, ofObjCType typeString: String) throws(CoderError) {
        let head = try head(typeString, holding: 1)
        let type = head.types[0]
        try Self.check(value, against: type)
        guard groupStack.isEmpty else {
            return try append(ArchivedGroup(head: head, storage: GroupValues([value]), offset: nil))
        }
        // Written straight away: no group is made.
        try groupWritten { (writer) throws(WireError) in
            try writer.writeTypeString(of: head)
            try writer.write(value, as: type)
        }
    }

    /// A new key for a graph entry this encoder makes (see ``nextEntryKey``).
    private func takeEntryKey() -> Int {
        defer { nextEntryKey += 1 }
        return nextEntryKey
    }

    // MARK: - Objects

    /// Appends an `"@"` group with `object` (`nil` writes nil). The object must be an
    /// ``ArchivableObject``; its contents are written the first time it is met.
    public func encodeObject(_ object: AnyObject?) throws(CoderError) {
        if let object {
            if try encodeExisting(object) { return }
            if groupStack.isEmpty, !(object is ClassReference), let archivable = object as? ArchivableObject {
                return try streamNewObject(object, archivable)
            }
        }
        try encodeValue(archivedValue(for: object), ofObjCType: "@")
    }

    /// Where an object met before was written.
    private enum Written {
        /// Written whole by the stream, in this object-table slot.
        case slot(Int)
        /// Made into a graph entry (written where a value first holds it).
        case entry(ArchivedObject)
    }

    /// Writes an `"@"` group referring to the object written in `slot`.
    private func writeReference(toSlot slot: Int) throws(CoderError) {
        let head = try parsed("@")
        try groupWritten { (writer) throws(WireError) in
            try writer.writeTypeString(of: head)
            try writer.writeObjectReference(toSlot: slot)
        }
    }

    /// The `"@"` group for `object` if it was met before: a reference — written to the slot of
    /// a streamed object straight away, or as the object's graph entry (into the groups of an
    /// entry being built, or written where the entry is).
    private func encodeExisting(_ object: AnyObject) throws(CoderError) -> Bool {
        guard let place = known(ObjectIdentifier(object)) else { return false }
        if groupStack.isEmpty, case .slot(let slot) = place {
            try writeReference(toSlot: slot)
        } else {
            try encodeValue(.object(try entry(for: object, place), referenceWidth: nil), ofObjCType: "@")
        }
        return true
    }

    /// Writes the `"@"` group of `object`, met for the first time, with its contents encoded
    /// by its codec right there. No graph entry is made: the object is known by its slot.
    private func streamNewObject(_ object: AnyObject, _ archivable: ArchivableObject) throws(CoderError) {
        try checkUsable()
        let head = try parsed("@")
        let archivedClass = try newObjectClass(object, archivable)
        var slot = 0
        try written { (writer) throws(WireError) in
            try writer.writeTypeString(of: head)
            slot = try writer.writeNewObject(ofClass: archivedClass)
        }
        register(object, as: .slot(slot))
        streamDepth += 1
        do {
            try encodeContents(of: archivable)
        } catch {
            streamDepth -= 1
            if failure == nil { failure = error }  // the object is half written
            throw error
        }
        streamDepth -= 1
        try groupWritten { (writer) throws(WireError) in try writer.writeEndOfObject() }
    }

    /// The class entry of `object`, met for the first time (checking its chain and the nesting).
    private func newObjectClass(_ object: AnyObject, _ archivable: ArchivableObject) throws(CoderError) -> ArchivedClass {
        let chain = archivable.archiveClassChain
        guard !chain.isEmpty else { throw CoderError(.invalidValue, "\(type(of: object)) has an empty class chain") }
        let deepest = min(limits.maximumNesting, ArchiveWriter.maximumNesting)
        guard groupStack.count + streamDepth < deepest else {
            throw CoderError(.invalidValue, "objects nested deeper than \(deepest); readers refuse them (DecodingLimits.maximumNesting)")
        }
        return try classEntry(for: chain[...])
    }

    /// Records `object`, met for the first time, as `written`, and keeps it alive (so its
    /// identity is not taken by another).
    private func register(_ object: AnyObject, as place: Written) {
        let id = ObjectIdentifier(object)
        record(place, for: id)
        retained.append(object)
        if isDryRun { reached.insert(id) }
    }

    /// Records `place` for the object `id`.
    private func record(_ place: Written, for id: ObjectIdentifier) {
        switch place {
        case .slot(let slot):
            objects.record(slot, for: id)
        case .entry(let entry):
            objects.record(-1 - entries.count, for: id)
            entries.append(entry)
        }
    }

    /// Where the object `id` was written, if it was met before.
    @inline(__always)
    private func known(_ id: ObjectIdentifier) -> Written? {
        guard let code = objects[id] else { return nil }
        return code >= 0 ? .slot(code) : .entry(entries[-1 - code])
    }

    /// A graph entry standing for `object`, met before and written as `place` says.
    private func entry(for object: AnyObject, _ place: Written) throws(CoderError) -> ArchivedObject {
        switch place {
        case .entry(let entry):
            return entry
        case .slot(let slot):
            // Written already: the entry is a reference to its slot.
            guard let archivable = object as? ArchivableObject, !archivable.archiveClassChain.isEmpty else {
                throw CoderError(.invalidValue, "\(type(of: object)) is not an ArchivableObject")
            }
            let entry = ArchivedObject(archivedClass: try classEntry(for: archivable.archiveClassChain[...]))
            entry.sourceIndex = takeEntryKey()
            writer.register(entry, asSlot: slot)
            record(.entry(entry), for: ObjectIdentifier(object))
            return entry
        }
    }

    /// Has `archivable` encode its contents; a codec's error that is not a ``CoderError`` is
    /// wrapped in one.
    private func encodeContents(of archivable: ArchivableObject) throws(CoderError) {
        do {
            try archivable.encodeContents(with: self)
        } catch let error as CoderError {
            throw error
        } catch {
            throw CoderError(.invalidValue, "\(archivable.archiveClassChain.first?.name ?? "an object"): \(error)")
        }
    }

    /// Appends `object` only if something encodes it unconditionally within the root object
    /// being archived; otherwise nil (`encodeConditionalObject:`). Outside
    /// ``encodeRootObject(_:)`` it writes a reference when the object was already written, else nil.
    public func encodeConditionalObject(_ object: AnyObject?) throws(CoderError) {
        guard let object else { return try encodeObject(nil) }
        let id = ObjectIdentifier(object)
        if isDryRun { return try encodeValue(.object(nil, referenceWidth: nil), ofObjCType: "@") }
        if singlePass.active {
            // Written already: a reference, as the two passes would write. Otherwise only the
            // dry run can tell whether it is reached later.
            if try encodeExisting(object) { return }
            singlePass.conditionalMet = true
            throw CoderError(.invalidValue, "a conditional object not yet written: the root object is encoded again in two passes")
        }
        if let unconditional, unconditional.contains(id) { return try encodeObject(object) }
        if try encodeExisting(object) { return }
        try encodeObject(nil)
    }

    /// Archives `root` with NSArchiver's two passes: a dry run finds the objects reached
    /// unconditionally, then the real pass writes conditional objects only if they are among them.
    ///
    /// The dry run is needed only for a conditional object met before it is written: the root
    /// is first encoded in one pass, and only when such an object comes is that pass undone and
    /// the root encoded in two. The bytes are the same either way.
    public func encodeRootObject(_ root: AnyObject?) throws(CoderError) {
        guard !isDryRun, !singlePass.active, unconditional == nil else { return try encodeInTwoPasses(root) }
        try checkUsable()
        // What the single pass may have to give back (the writer's tables are values: this
        // copy shares them until the pass changes them).
        let before = (writer: writer, completeCount: completeCount, stack: groupStack, objects: objects, entries: entries, retained: retained.count)
        singlePass = (true, false)
        var failed: CoderError?
        do {
            try encodeObject(root)
        } catch {
            failed = error
        }
        let conditionalMet = singlePass.conditionalMet
        singlePass = (false, false)
        guard conditionalMet || failed != nil else { return }
        // Undone: the encoder is as it was before the call (so a root whose codec fails leaves
        // it usable, as the two passes did: their dry run fails before anything is written).
        writer = before.writer
        failure = nil
        completeCount = before.completeCount
        streamDepth = 0
        groupStack = before.stack
        objects = before.objects
        entries = before.entries
        retained.removeSubrange(before.retained...)
        // A codec's own error ends the call, unless a conditional object came before it.
        if let failed, !conditionalMet { throw failed }
        try encodeInTwoPasses(root)
    }

    /// ``encodeRootObject(_:)`` with NSArchiver's two passes.
    private func encodeInTwoPasses(_ root: AnyObject?) throws(CoderError) {
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
        if let existing = known(id) { return .object(try entry(for: object, existing), referenceWidth: nil) }
        if let reference = object as? ClassReference, let entry = reference.entry {
            return .objectSlotClass(try classEntry(for: entry), referenceWidth: nil)
        }
        guard let archivable = object as? ArchivableObject else {
            throw CoderError(.invalidValue, "\(type(of: object)) is not an ArchivableObject")
        }
        let entry = ArchivedObject(archivedClass: try newObjectClass(object, archivable))
        entry.sourceIndex = takeEntryKey()
        register(object, as: .entry(entry))
        groupStack.append([])
        do {
            try encodeContents(of: archivable)
        } catch {
            groupStack.removeLast()
            throw error
        }
        entry.groups = groupStack.removeLast()
        return .object(entry, referenceWidth: nil)
    }

    /// The class entry for a chain, shared by class name. Throws `invalidValue` for a chain
    /// that names a class twice (possible only in a chain read from a hostile archive): entries
    /// are shared by name, so the class would become its own superclass — an archive no reader
    /// takes, and a reference cycle never freed.
    private func classEntry(for chain: ArraySlice<ArchiveClassLink>) throws(CoderError) -> ArchivedClass {
        if let first = chain.first {
            if let recent = recentClass, recent.name == first.name { return recent.entry }
            if let existing = classes[substituted(first.name)] {
                recentClass = (first.name, existing)
                return existing
            }
        }
        // A class met for the first time: its chain is checked once (chains are short: each
        // name against those before it, without hashing).
        let names = chain.map { substituted($0.name) }
        if let problem = LimitTally(limits: limits).checkClassChain(length: names.count) {
            throw CoderError(.invalidValue, "the class chain of \(TextExcerpt.quoted(names.first ?? "?")): \(problem); readers refuse it")
        }
        for (index, name) in names.enumerated() where names[..<index].contains(name) {
            throw CoderError(.invalidValue, "the class chain of \(TextExcerpt.quoted(names.first ?? "?")) names \(TextExcerpt.quoted(name)) twice")
        }
        return sharedClassEntry(for: chain)
    }

    /// ``classEntry(for:)-(ArraySlice<ArchiveClassLink>)`` for a chain of distinct names.
    private func sharedClassEntry(for chain: ArraySlice<ArchiveClassLink>) -> ArchivedClass {
        guard let first = chain.first else { return ArchivedClass(name: [], version: 0) }
        let name = substituted(first.name)
        if let existing = classes[name] { return existing }
        let entry = ArchivedClass(name: Array(name.utf8), version: first.version)
        entry.sourceIndex = takeEntryKey()
        classes.insert(entry, for: name)
        entry.superclass = chain.count > 1 ? sharedClassEntry(for: chain.dropFirst()) : nil
        return entry
    }

    /// The name written for the class named `name`.
    private func substituted(_ name: String) -> String {
        classNameSubstitutions.isEmpty ? name : classNameSubstitutions[name] ?? name
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
        try append(ArchivedGroup(head: group.head.undecided, storage: GroupValues(values), offset: nil))
    }

    private func remap(_ value: ArchivedValue, _ decoded: [ObjectIdentifier: AnyObject]) throws(CoderError) -> ArchivedValue {
        try value.mappingLeaves { (leaf) throws(CoderError) -> ArchivedValue in
            switch leaf {
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
            default:
                return leaf
            }
        }
    }

    /// A C-string value, shared by content as NSArchiver shares constant `objCType` strings.
    public func cString(_ text: some Collection<UInt8>) -> ArchivedCString {
        let key = ArraySlice(text)
        let first = cStringIndex.firstSlot(of: key, filing: cStrings.count) { self.cStrings[$0].text }
        if first < cStrings.count { return cStrings[first] }
        let entry = ArchivedCString(text: key)
        entry.sourceIndex = takeEntryKey()
        cStrings.append(entry)
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
