import ObjCTypeEncoding

/// The ordered, non-keyed decoder: Objective-C's `NSUnarchiver` / `NXReadType` for Swift.
///
/// Values come back in the order they were written, one *group* per call, and each call names
/// the type it expects. When the archive holds something else — the classic bug of decoding in a
/// different order than encoding — the call throws ``CoderError`` with the offset, the type
/// expected and the type found, instead of silently misreading.
///
/// Made from bytes, it reads and checks the whole archive first, then decodes straight from the
/// bytes as codecs ask, making the editable graph only when something asks for graph values
/// (see ``Options/streaming``).
///
/// Class codecs see it as an ``ObjectDecoder``, the vocabulary they are written against.
///
/// ```swift
/// let decoder = try Unarchiver(bytes: archive, registry: myClasses)
/// let root = try decoder.decodeRootObject()
/// ```
public final class Unarchiver: ObjectDecoder {
    /// How strictly types are checked.
    public struct Options: Sendable {
        /// Accept an integer group of another width (e.g. `s` where `i` is asked) and record a
        /// warning. Default `false`: types must match exactly.
        public var lenientIntegers = false
        /// Throw when a class codec leaves groups of its object undecoded. Default `true`.
        public var requireAllGroupsDecoded = true
        /// Limits applied while reading bytes.
        public var limits = DecodingLimits.default
        /// Decode straight from the bytes, as `NSUnarchiver` does, making the editable graph
        /// (``Unarchiver/archive``) only when something asks for it. Default `true`. Results,
        /// warnings and errors are the same either way: a top-level call that needs the graph —
        /// a codec asking for graph values (`decodeGroup()`, ``Unarchiver/currentObject``),
        /// C strings or classes as values, a type string spelled another way, an unknown class,
        /// any error — is done again on the graph, from the same top-level group. Applies to
        /// streamer-4 archives decoded from bytes.
        public var streaming = true
        /// Creates the default options.
        public init() {}
    }

    private struct Cursor {
        var groups: [ArchivedGroup]
        var next = 0
        var owner: ArchivedObject?
        var chain: [ArchiveClassLink]
    }

    /// The archive being decoded, as its editable graph. A streaming decode makes it when it
    /// is first asked for (see ``Options/streaming``).
    public var archive: Archive {
        if let graph { return graph }
        let built = (try? buildGraph()) ?? Archive(header: header)
        graph = built
        return built
    }
    /// The graph, once made.
    @exclusivity(unchecked) private var graph: Archive?
    /// The bytes decoded (empty when made from a graph).
    private let source: [UInt8]
    /// The archive's header.
    private let header: StreamHeader
    /// The archive's index, while streaming (what compact generic objects read their groups from).
    let streamIndex: ArchiveIndex?
    /// Where the generic objects of this decode read their groups again, once one is made.
    @exclusivity(unchecked) var genericSource: GenericObjectSource?
    /// The type strings compiled while reading `source`, for making its graph.
    private let compiledForGraph: CompiledTypeStrings
    /// Whether values come straight from the bytes (``stream``) rather than from the graph.
    @exclusivity(unchecked) private(set) var isStreaming: Bool
    /// The streaming decode's state (unused once ``isStreaming`` is false).
    @exclusivity(unchecked) var stream: StreamingState
    /// The classes that decode to typed objects.
    public let registry: ClassRegistry
    /// The options in force.
    public let options: Options
    /// Notes about lenient conversions and unsupported versions, in the order they happened.
    public private(set) var warnings: [String] = []
    /// Archived class name → name to look up in the registry (`setClass:forClassName:`).
    public var classSubstitutions: [String: String] = [:] {
        didSet {
            classCache = [:]
            lastClass = nil
            forgetStreamedClassTypes()
            substituting = !classSubstitutions.isEmpty
        }
    }
    /// Whether ``classSubstitutions`` has entries (read per ``version(ofClass:)`` call, which
    /// codecs make for every object: a public property's read costs a run-time exclusivity check).
    @exclusivity(unchecked) private var substituting = false

    // The decoder's own state. Only this class touches it, never with overlapping accesses, so
    // it opts out of the runtime's exclusivity checks (`@exclusivity(unchecked)`): they would cost a
    // call per access on every value decoded (about an eighth of a typed decode).
    @exclusivity(unchecked) private var cursors: [Cursor]
    @exclusivity(unchecked) private var decoded = WordTable<AnyObject>()
    /// Every class chain met so far, in order (the first link of a name gives its version; a
    /// list, as archives hold few classes and most lookups hit the current chain).
    @exclusivity(unchecked) var seenChains: [[ArchiveClassLink]] = []
    @exclusivity(unchecked) private var typeCache: [String: ParsedTypes] = [:]
    /// The type strings asked for most recently (a few, searched before ``typeCache``: codecs
    /// ask for the same handful of short strings over and over, and comparing a short string
    /// costs less than hashing it).
    @exclusivity(unchecked) private var recentTypes: [ParsedTypes] = []
    /// A class entry's chain as links and the type that decodes its objects.
    typealias ClassInfo = (chain: [ArchiveClassLink], type: any ArchivableObject.Type)
    /// Per class entry of the archive (shared by identity): its ``ClassInfo``, worked out once
    /// rather than per object.
    @exclusivity(unchecked) private var classCache: [ObjectIdentifier: ClassInfo] = [:]
    /// The class entry looked up last, and what ``classCache`` holds for it (objects of one
    /// class often come in a row).
    @exclusivity(unchecked) private var lastClass: (id: ObjectIdentifier, info: ClassInfo)?

    /// Reads and checks `bytes` and prepares to decode its top-level groups (streaming from the
    /// bytes, or over the graph: see ``Options/streaming``). Throws ``CoderError`` (code
    /// `malformed`) on bad bytes.
    public convenience init(bytes: [UInt8], registry: ClassRegistry = ClassRegistry(), options: Options = Options()) throws(CoderError) {
        var compiled = CompiledTypeStrings()
        try self.init(bytes: bytes, registry: registry, options: options, compiled: &compiled)
    }

    /// Reads and checks `bytes` as ``init(bytes:registry:options:)`` does, starting with the
    /// type strings in `compiled` and adding those it compiles (see ``CompiledTypeStrings``):
    /// the way to decode many small archives, such as message bodies, one after another.
    ///
    /// ```swift
    /// var compiled = CompiledTypeStrings()
    /// for body in bodies {
    ///     let text = try Unarchiver(bytes: body, registry: registry, compiled: &compiled).decodeRootObject()
    /// }
    /// ```
    public init(bytes: [UInt8], registry: ClassRegistry = ClassRegistry(), options: Options = Options(), compiled: inout CompiledTypeStrings) throws(CoderError) {
        self.registry = registry
        self.options = options
        self.source = bytes
        // A streamer-4 archive is read and checked whole first (as for the graph, so bad bytes
        // throw here either way), then its tokens are read again as codecs ask for them. Where
        // the index refuses what the graph reader takes (an input over 4 GiB) the graph is used,
        // and where both refuse, the graph reader's error is the one thrown.
        // The stream reads with the index's tables (complete, shared rather than copied), and
        // the index stays for the generic objects it keeps compact (see `GenericObject.groups`).
        var streamed: (index: ArchiveIndex, reader: TokenReader)?
        if options.streaming, bytes.first == 4, let index = try? ArchiveIndex(bytes: bytes, limits: options.limits, compiled: &compiled) {
            var headerReader = TokenReader(bytes: bytes, limits: options.limits, compiled: compiled)
            if (try? headerReader.nextCompact()) != nil { streamed = (index, index.rereader(fromHeaderEnd: headerReader.offset)) }
        }
        if let streamed {
            header = streamed.index.header
            compiledForGraph = compiled
            graph = nil
            isStreaming = true
            stream = StreamingState(reader: streamed.reader, slotCount: streamed.index.slotCount)
            streamIndex = streamed.index
            cursors = []
        } else {
            let archive: Archive
            do { archive = try ArchiveReader.read(bytes, limits: options.limits, compiled: &compiled) } catch { throw CoderError(error) }
            header = archive.header
            compiledForGraph = compiled
            streamIndex = nil
            graph = archive
            isStreaming = false
            stream = StreamingState(reader: TokenReader(bytes: []))
            cursors = [Cursor(groups: archive.groups, owner: nil, chain: [])]
            decoded = WordTable(capacity: archive.ownedObjects?.count ?? 0)
        }
    }

    /// Prepares to read the top-level groups of `archive`.
    public init(archive: Archive, registry: ClassRegistry = ClassRegistry(), options: Options = Options()) {
        self.graph = archive
        self.source = []
        self.header = archive.header
        self.compiledForGraph = CompiledTypeStrings()
        self.streamIndex = nil
        self.isStreaming = false
        self.stream = StreamingState(reader: TokenReader(bytes: []))
        self.registry = registry
        self.options = options
        self.cursors = [Cursor(groups: archive.groups, owner: nil, chain: [])]
        decoded = WordTable(capacity: archive.ownedObjects?.count ?? 0)
    }

    /// The archive's system version (1000 for Mac OS X; NeXT values below).
    public var systemVersion: Int64 { header.systemVersion.value }

    /// The object whose contents are being decoded, or `nil` at the top level. Asked while a
    /// streaming decode is inside an object, it makes the call under way go over the graph.
    public var currentObject: ArchivedObject? {
        if isStreaming {
            if !stream.open.isEmpty { _ = streamNeedsGraph() }
            return nil
        }
        return cursors.last?.owner
    }

    /// The object being decoded when decoding over the graph; `nil` while streaming (without
    /// making the call go over the graph, as ``currentObject`` does).
    public var currentGraphObject: ArchivedObject? { isStreaming ? nil : cursors.last?.owner }

    /// The byte offset of the current object's end-of-object marker (`0x86`) in the source
    /// archive, once all its groups are taken while streaming (over the graph, at any time);
    /// `nil` at the top level or for an object not read from bytes.
    public var currentObjectEndOffset: Int? {
        guard isStreaming else { return cursors.last?.owner?.endOffset }
        guard !stream.open.isEmpty, !stream.needsGraph, !streamHasMoreGroups, stream.reader.offset < stream.reader.bytes.count else { return nil }
        return stream.reader.offset
    }

    /// The byte offset of the current object's `0x84` in the source archive, or `nil` at the
    /// top level (or for an object not read from bytes): what codecs name in their errors.
    public var currentObjectOffset: Int? {
        if isStreaming { return stream.open.last?.offset }
        return cursors.last?.owner?.sourceOffset
    }

    /// The class chain of the object being decoded (empty at the top level).
    public var currentClassChain: [ArchiveClassLink] {
        if isStreaming { return streamCurrentChain }
        return cursors.last?.chain ?? []
    }

    /// Whether every class of the current object's chain was archived at version 0 (worked
    /// out once per class while streaming).
    public var currentClassChainIsAtVersionZero: Bool {
        if isStreaming { return streamCurrentChainIsAtVersionZero }
        return currentClassChain.isAtVersionZero
    }

    /// Whether the current object (or the top level) has groups left.
    public var hasMoreGroups: Bool {
        if isStreaming { return streamHasMoreGroups }
        guard let cursor = cursors.last else { return false }
        return cursor.next < cursor.groups.count
    }

    /// Checks, before anything is allocated, that the object being decoded (or the top level)
    /// holds at least `needed` groups in all — so a count read from the file cannot ask for more
    /// elements than the bytes carry. Throws ``CoderError`` `badContents` naming `what`.
    ///
    /// A streaming decode does not count groups ahead: it checks that the bytes left could
    /// carry `needed` groups (each takes at least one byte), and a count that turns out larger
    /// than the groups makes the call go over the graph, where this check names it.
    public func requireGroups(_ needed: Int, for what: @autoclosure () -> String) throws(CoderError) {
        try streamingOrGraph({ () throws(CoderError) in
            guard needed <= stream.reader.bytes.count - stream.reader.offset else { throw streamNeedsGraph() }
        }, { () throws(CoderError) in
            let available = cursors.last?.owner?.groups.count ?? archive.groups.count
            guard needed <= available else {
                throw CoderError(.badContents, at: currentObjectOffset,
                                 "\(what()) needs \(needed) groups but the object holds only \(available)")
            }
        })
    }

    /// Whether no object is being decoded.
    private var isAtTopLevel: Bool { isStreaming ? stream.open.isEmpty : cursors.count == 1 }

    /// Makes the graph from the bytes decoded.
    private func buildGraph() throws(CoderError) -> Archive {
        var compiled = compiledForGraph
        do { return try ArchiveReader.read(source, limits: options.limits, compiled: &compiled) } catch { throw CoderError(error) }
    }

    /// Runs `streamed` while streaming, `graphed` otherwise. A call begun at the top level whose
    /// streaming needed the graph (or failed) is done again by `graphed` on the graph, from the
    /// top-level group where it began; inside an object the stream's caller decides.
    @inline(__always)
    private func streamingOrGraph<Result>(_ streamed: () throws(CoderError) -> Result, _ graphed: () throws(CoderError) -> Result) throws(CoderError) -> Result {
        guard isStreaming else { return try graphed() }
        guard stream.open.isEmpty else { return try streamed() }
        let checkpoint = streamCheckpoint
        do {
            let result = try streamed()
            if !stream.needsGraph { return result }
        } catch {
            // Done again below, on the graph.
        }
        try switchToGraph(from: checkpoint)
        return try graphed()
    }

    /// Leaves the stream for the graph, as it was at `checkpoint` (the start of a top-level
    /// call): the top level resumes at the same group, the instances decoded before stay the
    /// decoded instances of their graph entries (found by slot), and what the abandoned call
    /// noted is forgotten.
    func switchToGraph(from checkpoint: StreamCheckpoint) throws(CoderError) {
        let archive: Archive
        if let graph { archive = graph } else { archive = try buildGraph() }
        graph = archive
        isStreaming = false
        warnings.removeSubrange(checkpoint.warningCount...)
        seenChains.removeSubrange(checkpoint.seenChainCount...)
        decoded = WordTable(capacity: archive.ownedObjects?.count ?? 0)
        let instances = stream.instances
        if let owner = archive.ownedObjects {
            for entry in owner.objects {
                if let slot = entry.sourceIndex, slot < checkpoint.slotsRead, slot < instances.count, let instance = instances[slot] {
                    decoded.set(instance, for: ObjectIdentifier(entry))
                }
            }
        }
        cursors = [Cursor(groups: archive.groups, next: checkpoint.topLevelGroupsTaken, owner: nil, chain: [])]
        stream = StreamingState(reader: TokenReader(bytes: []))
    }

    /// The version of `className` as archived: from the current object's chain, else from any
    /// class seen so far (`versionForClassName:`). `nil` if the archive has no such class.
    /// A class substituted with ``classSubstitutions`` answers to its new name too.
    public func version(ofClass className: String) -> Int64? {
        // The commonest question, a codec asking for its own class: the first link of the
        // object being streamed, read in place (no copy of the chain).
        if isStreaming, let link = streamCurrentClassLink, link.name == className {
            return link.version
        }
        let substitutes = substituting
        for link in currentClassChain where link.name == className || (substitutes && classSubstitutions[link.name] == className) {
            return link.version
        }
        if let version = firstVersion(ofClass: className) { return version }
        guard substitutes else { return nil }
        return classSubstitutions.first { $0.value == className }.flatMap { firstVersion(ofClass: $0.key) }
    }

    /// The version of the first class named `className` met so far.
    private func firstVersion(ofClass className: String) -> Int64? {
        for chain in seenChains {
            if let link = chain.first(where: { $0.name == className }) { return link.version }
        }
        return nil
    }

    // MARK: - Groups

    private var positionDescription: String {
        if let owner = currentObject { return "end of object #\(owner.sourceIndex ?? -1) (\(owner.className))" }
        return "end of the archive"
    }

    private var currentEndOffset: Int? {
        currentObject?.endOffset
    }

    /// Takes the next group whatever its type (for generic decoding). Throws at the end.
    public func decodeGroup() throws(CoderError) -> ArchivedGroup {
        try streamingOrGraph({ () throws(CoderError) in try streamGroupAsArchived() }, { () throws(CoderError) in try graphGroup() })
    }

    private func graphGroup() throws(CoderError) -> ArchivedGroup {
        guard let cursor = cursors.last, cursor.next < cursor.groups.count else {
            throw CoderError(.noMoreValues, at: currentEndOffset, "expected a value, found \(positionDescription)")
        }
        cursors[cursors.count - 1].next += 1
        return cursor.groups[cursor.next]
    }

    /// The type string the next group carries, without taking it.
    public func peekTypeString() -> String? {
        if isStreaming { return streamPeekTypeString }
        guard let cursor = cursors.last, cursor.next < cursor.groups.count else { return nil }
        return cursor.groups[cursor.next].typeText
    }

    /// Whether the next group's type string is `typeString`, compared as bytes (no text is made:
    /// a type string can be a megabyte long, and a top level can hold 100 000 groups of it).
    public func nextGroupHasTypeString(_ typeString: String) -> Bool {
        if isStreaming { return streamPeekTypeStringBytes?.elementsEqual(typeString.utf8) ?? false }
        guard let cursor = cursors.last, cursor.next < cursor.groups.count else { return false }
        // An untyped streamer-3 group holds one object: its type is "@".
        guard let text = cursor.groups[cursor.next].typeString else { return typeString == "@" }
        return text.elementsEqual(typeString.utf8)
    }

    /// A type string a caller asked for, parsed. (A class: handed out for every value decoded,
    /// it costs one reference count where a structure of its three fields would cost three.)
    private final class ParsedTypes: Sendable {
        /// The string as asked for.
        let text: String
        /// Its canonical spelling (braces, never the `<…>` alias), as archives carry it.
        let bytes: [UInt8]
        let types: [ObjCType]

        private init(text: String, bytes: [UInt8], types: [ObjCType]) {
            self.text = text
            self.bytes = bytes
            self.types = types
        }

        /// `text`, which parsed to `types`.
        static func parsed(_ text: String, as types: [ObjCType]) -> ParsedTypes {
            var bytes: [UInt8] = []
            for type in types { type.append(to: &bytes) }
            return ParsedTypes(text: text, bytes: bytes, types: types)
        }
    }

    /// How many type strings ``recentTypes`` keeps.
    private static let recentTypeCount = 8

    /// Every type string of one ASCII character that parses, by its byte: most requests are
    /// one of these (`@`, `i`, `+` …), parsed once per process.
    private static let oneLetterTypes: [ParsedTypes?] = (0..<128).map { code in
        let text = String(UnicodeScalar(UInt8(code)))
        return (try? ObjCType.parseGroup(text)).map { ParsedTypes.parsed(text, as: $0) }
    }

    /// The types `typeString` parses to (throws `invalidValue` when it does not parse).
    func parsedTypes(_ typeString: String) throws(CoderError) -> [ObjCType] {
        try parsed(typeString).types
    }

    private func parsed(_ typeString: String) throws(CoderError) -> ParsedTypes {
        let utf8 = typeString.utf8
        if utf8.count == 1, let letter = utf8.first, letter < 128, let entry = Self.oneLetterTypes[Int(letter)] {
            return entry
        }
        for recent in recentTypes where recent.text == typeString { return recent }
        let entry: ParsedTypes
        if let hit = typeCache[typeString] {
            entry = hit
        } else {
            do {
                entry = ParsedTypes.parsed(typeString, as: try ObjCType.parseGroup(typeString))
            } catch {
                throw CoderError(.invalidValue, "type string '\(typeString)' does not parse: \(error.description)")
            }
            typeCache[typeString] = entry
        }
        if recentTypes.count == Self.recentTypeCount { recentTypes.removeFirst() }
        recentTypes.append(entry)
        return entry
    }

    /// Takes the next group, which must have exactly the type string `typeString` (for example
    /// `"iI"`), and returns its values. Throws ``CoderError`` `typeMismatch` naming the offset,
    /// the expected and the found type.
    public func decodeValues(ofObjCTypes typeString: String) throws(CoderError) -> [ArchivedValue] {
        try streamingOrGraph({ () throws(CoderError) in try streamValues(typeString) }, { () throws(CoderError) in try takeGroup(ofObjCTypes: typeString).array })
    }

    /// ``decodeValues(ofObjCTypes:)``, giving the values as the group keeps them (a single value
    /// without an array).
    private func takeGroup(ofObjCTypes typeString: String) throws(CoderError) -> GroupValues {
        guard let top = cursors.indices.last, cursors[top].next < cursors[top].groups.count else {
            _ = try parsed(typeString)  // a string that does not parse says so first
            throw CoderError(.noMoreValues, at: currentEndOffset, "expected type '\(typeString)', found \(positionDescription)")
        }
        // The group's fields are read in place: copying the whole group costs a reference
        // count per field.
        let next = cursors[top].next
        // The group's type string spelled exactly as asked (nearly always): it matches, and the
        // string asked for parses, as the reader parsed the group's. Only another spelling is
        // parsed and compared by its types.
        if let found = cursors[top].groups[next].typeString, found.sameBytes(asUTF8Of: typeString) {
            cursors[top].next += 1
            return cursors[top].groups[next].storage
        }
        let expected = try parsed(typeString)
        let matches: Bool
        if let found = cursors[top].groups[next].typeString {
            matches = found.sameBytes(as: expected.bytes[...]) || cursors[top].groups[next].types == expected.types
        } else {
            matches = expected.types.count == 1 && expected.types[0].unqualified.letter == UInt8(ascii: "@")
        }
        if !matches {
            let group = cursors[top].groups[next]
            guard options.lenientIntegers, let converted = Self.lenientConversion(group, to: expected.types) else {
                throw CoderError(.typeMismatch, at: group.offset, "expected type '\(typeString)', found '\(group.typeText)'")
            }
            warnings.append("offset \(group.offset ?? 0): read '\(group.typeText)' as '\(typeString)' (lenient integer conversion)")
            cursors[top].next += 1
            return GroupValues(converted)
        }
        cursors[top].next += 1
        return cursors[top].groups[next].storage
    }

    private static func lenientConversion(_ group: ArchivedGroup, to types: [ObjCType]) -> [ArchivedValue]? {
        let integers: Set<UInt8> = Set("sSiIlLqQ".utf8)
        guard group.types.count == types.count else { return nil }
        for (found, wanted) in zip(group.types, types) {
            guard let f = found.unqualified.letter, let w = wanted.unqualified.letter,
                  integers.contains(f), integers.contains(w) else { return nil }
        }
        return group.values
    }

    /// Takes the next group, which must be a single value of type `typeString`.
    public func decodeValue(ofObjCType typeString: String) throws(CoderError) -> ArchivedValue {
        try streamingOrGraph({ () throws(CoderError) in try streamValue(typeString) }, { () throws(CoderError) in try graphValue(typeString) })
    }

    private func graphValue(_ typeString: String) throws(CoderError) -> ArchivedValue {
        let values = try takeGroup(ofObjCTypes: typeString)
        guard values.count == 1 else {
            throw CoderError(.typeMismatch, "'\(typeString)' is not a single type")
        }
        return values[0]
    }

    /// The offset of the next group of the current object (or top level), if there is one.
    public var nextGroupOffset: Int? {
        if isStreaming { return streamHasMoreGroups ? stream.reader.offset : nil }
        guard let cursor = cursors.last, cursor.next < cursor.groups.count else { return nil }
        return cursor.groups[cursor.next].offset
    }

    /// Decodes counted bytes as a slice of the archive's buffer (no copy); `nil` for NULL.
    public func decodeByteSlice() throws(CoderError) -> ArraySlice<UInt8>? {
        // Inside an object a streaming decode takes the bytes straight from the token (the
        // most common value of all: every string's contents).
        if isStreaming, !stream.open.isEmpty { return try streamCountedBytes() }
        guard case .unsharedString(let payload, _) = try decodeValue(ofObjCType: "+") else {
            throw CoderError(.badContents, "counted bytes expected")
        }
        return payload
    }

    /// Takes a C string (`"*"`) and returns its text, `nil` for NULL (an `NSValue`'s objCType).
    public func decodeCString() throws(CoderError) -> String? {
        // Inside an object a streaming decode takes the text straight from the token, made once
        // per C string however often the archive refers to it (every number names its type).
        if isStreaming, !stream.open.isEmpty, let text = try streamCStringText() { return text }
        guard case .cString(let entry, _) = try decodeValue(ofObjCType: "*") else {
            throw CoderError(.typeMismatch, at: currentObjectOffset, "a C string expected")
        }
        return entry?.string
    }

    // MARK: - Objects

    /// Decodes the next `"@"` group: the object (typed if its class is registered, else a
    /// ``GenericObject``), or `nil`.
    public func decodeObject() throws(CoderError) -> AnyObject? {
        // Closures, not method references: a method reference holds `self` (a retain and a
        // release per object decoded).
        try streamingOrGraph({ () throws(CoderError) in try streamObject() }, { () throws(CoderError) in try graphObject(for: graphValue("@")) })
    }

    /// The decoded instance for an `@` value (`nil` for nil).
    public func object(for value: ArchivedValue) throws(CoderError) -> AnyObject? {
        try streamingOrGraph({ () throws(CoderError) in
            switch value {
            case .object(nil, _): return nil
            case .object(let entry?, _): return try streamedObject(for: entry)
            case .objectSlotClass(let entry, _): return ClassReference(entry)
            default: throw streamNeedsGraph()
            }
        }, { () throws(CoderError) in try graphObject(for: value) })
    }

    /// The instance a group taken while streaming refers to by `entry`.
    private func streamedObject(for entry: ArchivedObject) throws(CoderError) -> AnyObject {
        guard let instance = streamInstance(of: entry) else { throw streamNeedsGraph() }
        return instance
    }

    private func graphObject(for value: ArchivedValue) throws(CoderError) -> AnyObject? {
        switch value {
        case .object(let entry, _):
            guard let entry else { return nil }
            return try graphObject(for: entry)
        case .objectSlotClass(let entry, _):
            return ClassReference(entry)
        default:
            throw CoderError(.typeMismatch, "expected an object, found \(value.kindName)")
        }
    }

    /// The instance decoded for a graph object, or `nil` if it was not decoded (yet).
    func decodedInstance(of entry: ArchivedObject) -> AnyObject? { decoded[ObjectIdentifier(entry)] }

    /// The decoded instance for a graph object, decoding it on first use. The instance is
    /// registered before its contents are read, so cycles resolve to it.
    public func object(for entry: ArchivedObject) throws(CoderError) -> AnyObject {
        try streamingOrGraph({ () throws(CoderError) in try streamedObject(for: entry) }, { () throws(CoderError) in try graphObject(for: entry) })
    }

    private func graphObject(for entry: ArchivedObject) throws(CoderError) -> AnyObject {
        let id = ObjectIdentifier(entry)
        if let done = decoded[id] { return done }
        guard cursors.count <= options.limits.maximumNesting else {
            throw CoderError(.malformed, at: entry.sourceOffset, "objects nested deeper than \(options.limits.maximumNesting)")
        }
        let (chain, type) = classInfo(entry.archivedClass)
        do {
            return try decode(entry, as: type, chain: chain)
        } catch where error.code == .unsupportedVersion && type != GenericObject.self {
            warnings.append("\(error.description); kept as a generic object")
            return try decode(entry, as: GenericObject.self, chain: chain)
        }
    }

    /// The chain and decoding type of a class entry (cached by identity).
    private func classInfo(_ entry: ArchivedClass) -> ClassInfo {
        let id = ObjectIdentifier(entry)
        if let last = lastClass, last.id == id { return last.info }
        if let known = classCache[id] {
            lastClass = (id, known)
            return known
        }
        let info = classInfo(forChain: entry.links)
        if classCache.isEmpty { classCache.reserveCapacity(Self.usualClassCount) }
        classCache[id] = info
        lastClass = (id, info)
        return info
    }

    /// The chain and decoding type of an object of class chain `chain` (noted in
    /// ``seenChains`` for ``version(ofClass:)``).
    func classInfo(forChain chain: [ArchiveClassLink]) -> ClassInfo {
        seenChains.append(chain)
        let name = chain.first.map { (substituting ? classSubstitutions[$0.name] : nil) ?? $0.name } ?? ""
        return (chain, registry.type(forClassName: name) ?? GenericObject.self)
    }

    /// Room made in ``classCache`` at its first entry: a message body has about five classes,
    /// and a dictionary that grows from nothing reallocates at each doubling.
    private static let usualClassCount = 8

    private func decode(_ entry: ArchivedObject, as type: any ArchivableObject.Type, chain: [ArchiveClassLink]) throws(CoderError) -> AnyObject {
        let instance = type.init()
        decoded.set(instance, for: ObjectIdentifier(entry))
        cursors.append(Cursor(groups: entry.groups, owner: entry, chain: chain))
        defer { cursors.removeLast() }
        do {
            try instance.decodeContents(with: self)
        } catch let error as CoderError {
            throw error
        } catch {
            throw CoderError(.badContents, at: entry.sourceOffset, "\(chain.first?.name ?? "?"): \(error)")
        }
        if options.requireAllGroupsDecoded, let cursor = cursors.last, cursor.next < cursor.groups.count {
            let group = cursor.groups[cursor.next]
            throw CoderError(.unconsumedValues, at: group.offset, "\(type) decoded \(cursor.next) of the \(cursor.groups.count) groups of \(entry.className); next is '\(group.typeText)'")
        }
        return instance
    }

    /// Decodes the root object: the first top-level `"@"` group. Throws `trailingValues` when
    /// more top-level groups follow (use ``decodeObject()`` repeatedly to read several roots).
    public func decodeRootObject() throws(CoderError) -> AnyObject? {
        let root = try decodeObject()
        if isAtTopLevel, hasMoreGroups {
            throw CoderError(.trailingValues, at: nextGroupOffset, "values left over after the root object: \(archive.groups.count - 1) more top-level group(s)")
        }
        return root
    }
}
