import ObjCTypeEncoding

/// What a streaming decode keeps (see ``Unarchiver/Options/streaming``): `NSUnarchiver`'s own
/// way of reading, straight from the bytes. A token reader stands where the next group of the
/// object being decoded (or of the top level) starts; a codec's `decode` reads that group's
/// values from the bytes, and `decodeObject()` on a new object decodes its contents right
/// there, in stream order, after registering the instance under its object-table slot (so
/// references back to it, cycles included, find it).
///
/// Only what codecs of well-formed archives usually ask for is streamed: values, objects and
/// their class chains, with the type string spelled exactly as asked. Anything else — a group
/// as graph values (`decodeGroup()`), the current graph entry, a C string, a class value, an
/// object inside a multi-value group, another spelling of a type string, a codec that leaves
/// groups unread, any error — marks the stream as needing the graph, and the top-level call
/// under way is done again on the graph (``Unarchiver/switchToGraph(from:)``), from the same
/// top-level group, with the instances decoded by earlier calls carried over by slot. Results,
/// warnings and errors are therefore those of a decode over the graph.
struct StreamingState {
    /// The reader, standing at the next group or end of object.
    var reader: TokenReader
    /// The slot of the class of the object decoded at each object-table slot (`-1` elsewhere).
    var instanceClassSlots: [Int32] = []
    /// The decoded instance per object-table slot (`nil`: a class, or not decoded).
    var instances: [AnyObject?] = []
    /// The class read at each class slot.
    var classes: [StreamedClass?] = []
    /// The C string read at each C-string slot.
    var cStrings: [ArchivedCString?] = []
    /// The text of the C string read at each C-string slot, once a codec asked for it as text.
    var cStringTexts: [String?] = []
    /// The objects being decoded, innermost last.
    var open: [StreamedObject] = []
    /// Per shared-string slot: the type string a group with that type string was last taken as.
    var typeStrings: [StreamedTypeString?] = []
    /// Per shared-string slot: the head of the groups taken whole with that type string (see
    /// ``Unarchiver/streamGroupAsArchived()``), as the graph reader shares them.
    var groupHeads: [GroupHead?] = []
    /// Per object-table slot: the graph-style entry that groups taken whole refer to the object
    /// by (made when first needed; `nil` elsewhere).
    var entries: [ArchivedObject?] = []
    /// The top-level groups taken so far.
    var topLevelGroupsTaken = 0
    /// Set when the stream cannot go on: the top-level call under way is done again on the graph.
    var needsGraph = false

    /// A state reading `reader`, which stands after the header, of an archive of `slotCount`
    /// object-table slots (known from its index: the per-slot tables are made whole at once,
    /// rather than grown and checked at every object).
    init(reader: TokenReader, slotCount: Int = 0) {
        self.reader = reader
        instances = [AnyObject?](repeating: nil, count: slotCount)
        instanceClassSlots = [Int32](repeating: -1, count: slotCount)
        classes.reserveCapacity(TokenReader.firstTableRoom)
        open.reserveCapacity(TokenReader.firstTableRoom)
    }
}

/// A class read from a chain: its link and its superclass's slot. A class, so that looking one
/// up by slot (once per object decoded) costs a retain, not a copy of its fields.
final class StreamedClass {
    /// Its name and version.
    let link: ArchiveClassLink
    /// Its name as archived.
    let name: ArraySlice<UInt8>
    /// The slot of its superclass; `nil` for a root class.
    var superclassSlot: Int?
    /// The width of the reference that named its superclass (`nil` when the superclass was new).
    var superclassReferenceWidth: IntegerWidth?
    /// Its chain, most derived class first, once worked out.
    var chain: [ArchiveClassLink]? {
        didSet { chainIsAtVersionZero = chain?.isAtVersionZero ?? true }
    }
    /// Whether every class of ``chain`` is at version 0.
    private(set) var chainIsAtVersionZero = true
    /// The type that decodes its objects, once worked out (forgotten when the class
    /// substitutions change).
    var type: (any ArchivableObject.Type)?
    /// The token that defined it (for its graph-style entry: name decision, version width, slot).
    let token: CompactToken
    /// Its graph-style entry, once a group taken whole needed it.
    var entry: ArchivedClass?

    /// A class named `name` (as archived) with link `link`, defined by `token`; its superclass
    /// is set when read.
    init(link: ArchiveClassLink, name: ArraySlice<UInt8>, token: CompactToken) {
        self.link = link
        self.name = name
        self.token = token
    }
}

/// A type string taken by a group: as asked for, its types, and whether its values can be read
/// one operation at a time (see ``TokenReader/isStraightLine(_:)``).
final class StreamedTypeString {
    /// The type string as a codec asked for it.
    let text: String
    /// The types it parses to.
    let types: [ObjCType]
    /// Whether its groups are read without the reader's group frame.
    let isStraightLine: Bool

    init(text: String, types: [ObjCType], isStraightLine: Bool) {
        self.text = text
        self.types = types
        self.isStraightLine = isStraightLine
    }
}

/// The group whose values are being read: its next operation and end in the reader's program,
/// and whether they are read one by one (``TokenReader/directValue(at:)``) or through the
/// reader's group frame.
struct StreamedGroup {
    var pc: Int
    let end: Int
    let isDirect: Bool
}

/// An object whose contents are being decoded.
struct StreamedObject {
    /// The slot of its class in the stream's class table (a number, not the chain: opening and
    /// closing an object then costs no reference count).
    let classSlot: Int
    /// The offset of its `0x84`.
    let offset: Int
    /// Its object-table slot.
    let slot: Int
}

/// Where a top-level call began, to do it again on the graph.
struct StreamCheckpoint {
    let topLevelGroupsTaken: Int
    /// The object-table slots read before the call (the reader's next slot then).
    let slotsRead: Int
    let warningCount: Int
    let seenChainCount: Int
}

extension Unarchiver {
    /// The error a stream gives when it needs the graph; never seen by callers (the call is
    /// done again on the graph).
    private static var streamingStops: CoderError {
        CoderError(.badContents, "the streaming decode needs the graph here")
    }

    /// Marks the stream as needing the graph and returns the error to throw.
    func streamNeedsGraph() -> CoderError {
        stream.needsGraph = true
        return Self.streamingStops
    }

    /// Runs `body` on the reader; a wire error marks the stream as needing the graph.
    @inline(__always)
    func streamRead<Result>(_ body: (inout TokenReader) throws(WireError) -> Result) throws(CoderError) -> Result {
        guard !stream.needsGraph else { throw Self.streamingStops }
        do {
            return try body(&stream.reader)
        } catch {
            stream.needsGraph = true
            throw CoderError(error)
        }
    }

    /// The next token of a group entered with the reader's frame, or of an array inside one;
    /// marks the stream as needing the graph on any error or at the end.
    func streamNextToken() throws(CoderError) -> CompactToken {
        guard let token = try streamRead({ (reader) throws(WireError) in try reader.nextCompact() }) else { throw streamNeedsGraph() }
        return token
    }

    /// Takes the next group's type string, which must be spelled exactly `typeString`, and
    /// returns its types and where its values come from. A type string is matched against the
    /// bytes once per shared string; later groups that refer to it compare two strings.
    private func streamGroup(_ typeString: String) throws(CoderError) -> (types: [ObjCType], group: StreamedGroup) {
        let (token, operations) = try streamRead { (reader) throws(WireError) in try reader.directGroupStart() }
        let index = token.textIndex
        let known: StreamedTypeString
        if index < stream.typeStrings.count, let entry = stream.typeStrings[index], entry.text == typeString {
            known = entry
        } else {
            guard stream.reader.bytes[token.payload].sameBytes(asUTF8Of: typeString) else { throw streamNeedsGraph() }
            known = StreamedTypeString(text: typeString, types: try parsedTypes(typeString),
                                       isStraightLine: stream.reader.isStraightLine(operations))
            stream.typeStrings.pad(toInclude: index, with: nil)
            stream.typeStrings[index] = known
        }
        if stream.open.isEmpty { stream.topLevelGroupsTaken += 1 }
        if !known.isStraightLine { stream.reader.enterGroup(operations) }
        return (known.types, StreamedGroup(pc: operations.lowerBound, end: operations.upperBound, isDirect: known.isStraightLine))
    }

    /// The next value token of `group`.
    private func streamNext(in group: inout StreamedGroup) throws(CoderError) -> CompactToken {
        guard group.isDirect else { return try streamNextToken() }
        guard group.pc < group.end else { throw streamNeedsGraph() }
        let pc = group.pc
        group.pc += 1
        return try streamRead { (reader) throws(WireError) in try reader.directValue(at: pc) }
    }

    /// Checks that every value of `group` was read and leaves it, so the next group can start.
    private func streamFinish(_ group: StreamedGroup) throws(CoderError) {
        if group.isDirect {
            guard group.pc == group.end else { throw streamNeedsGraph() }
        } else {
            guard stream.reader.leaveFinishedGroup() else { throw streamNeedsGraph() }
        }
    }

    /// Takes the next group, of type string `typeString`, and returns its values.
    func streamValues(_ typeString: String) throws(CoderError) -> [ArchivedValue] {
        var (types, group) = try streamGroup(typeString)
        if group.isDirect { return try streamStraightLineValues(group.pc..<group.end).array }
        var values: [ArchivedValue] = []
        values.reserveCapacity(types.count)
        for type in types { values.append(try streamValue(type, in: &group)) }
        try streamFinish(group)
        return values
    }

    /// Takes the next group, which must be the single type `typeString`, and returns its value.
    func streamValue(_ typeString: String) throws(CoderError) -> ArchivedValue {
        // A one-letter scalar group referring to its type string (nearly every `i`, `c`, `f` …):
        // its value read straight, without the group's bookkeeping.
        let utf8 = typeString.utf8
        if utf8.count == 1, let letter = utf8.first, !stream.needsGraph, let (pc, code) = stream.reader.peekOneLetterGroup(letter) {
            switch code {
            case .rawByte, .short, .integer, .float, .double, .counted:
                streamTakeOneLetterGroup()
                return try streamScalar(streamRead { (reader) throws(WireError) in try reader.directValue(at: pc) })
            case .cString:
                streamTakeOneLetterGroup()
                return try streamCStringValue(streamRead { (reader) throws(WireError) in try reader.directValue(at: pc) })
            default:
                break
            }
        }
        var (types, group) = try streamGroup(typeString)
        guard types.count == 1 else { throw streamNeedsGraph() }
        // A straight-line group (`{?=ffff}`, `{_NSRange=II}` …) is read by its compiled
        // operations, as a group taken whole is, without walking its type tree.
        if group.isDirect {
            guard case .one(let value) = try streamStraightLineValues(group.pc..<group.end) else { throw streamNeedsGraph() }
            return value
        }
        let value = try streamValue(types[0], in: &group)
        try streamFinish(group)
        return value
    }

    /// Takes the one-letter type string the reader found (``TokenReader/peekOneLetterGroup(_:)``),
    /// counting the group when it is a top-level one; its value comes next.
    @inline(__always)
    func streamTakeOneLetterGroup() {
        stream.reader.takeOneLetterGroup()
        if stream.open.isEmpty { stream.topLevelGroupsTaken += 1 }
    }

    /// Takes the next group, which must be `"+"`, and returns its bytes (`nil` for NULL): what
    /// ``streamValue(_:)`` gives as an ``ArchivedValue/unsharedString(_:lengthWidth:)``,
    /// without making the value.
    func streamCountedBytes() throws(CoderError) -> ArraySlice<UInt8>? {
        if !stream.needsGraph, let (_, code) = stream.reader.peekOneLetterGroup(UInt8(ascii: "+")), code == .counted {
            streamTakeOneLetterGroup()
            guard let payload = try streamRead({ (reader) throws(WireError) in try reader.directCounted() }) else { return nil }
            return stream.reader.bytes[payload]
        }
        var (_, group) = try streamGroup("+")
        let token = try streamNext(in: &group)
        guard token.code == .unsharedString else { throw streamNeedsGraph() }
        try streamFinish(group)
        return token.form == .null ? nil : stream.reader.bytes[token.payload]
    }

    /// Reads one value of `type` (objects, classes and C strings are left to the graph).
    private func streamValue(_ type: ObjCType, in group: inout StreamedGroup) throws(CoderError) -> ArchivedValue {
        switch type {
        case .qualified(_, let inner):
            return try streamValue(inner, in: &group)
        case .array(let count, let element):
            if case .char = element.unqualified { return try streamRawBytes(in: &group) }
            if case .unsignedChar = element.unqualified { return try streamRawBytes(in: &group) }
            guard try streamNext(in: &group).code == .arrayStart else { throw streamNeedsGraph() }
            var values: [ArchivedValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try streamValue(element, in: &group)) }
            guard try streamNext(in: &group).code == .arrayEnd else { throw streamNeedsGraph() }
            return .array(values)
        case .structure(_, let fields):
            guard try streamNext(in: &group).code == .structStart else { throw streamNeedsGraph() }
            var values: [ArchivedValue] = []
            values.reserveCapacity(fields.count)
            for field in fields { values.append(try streamValue(field.type, in: &group)) }
            guard try streamNext(in: &group).code == .structEnd else { throw streamNeedsGraph() }
            return .structure(values)
        case .union:
            return try streamRawBytes(in: &group)
        case .cString:
            return try streamCString(in: &group)
        case .object:
            // Inside a group of several values: a new object is decoded where it stands.
            let token = try streamNext(in: &group)
            guard token.code == .object else { throw streamNeedsGraph() }
            return try streamObjectValue(token)
        case .classObject, .pointer, .bitfield, .void, .unknown:
            throw streamNeedsGraph()
        default:
            return try streamScalar(streamNext(in: &group))
        }
    }

    /// A `*` value: a C string, one entry per slot as in the graph.
    private func streamCString(in group: inout StreamedGroup) throws(CoderError) -> ArchivedValue {
        let token = try streamNext(in: &group)
        guard token.code == .cString else { throw streamNeedsGraph() }
        return try streamCStringValue(token)
    }

    /// The value of a `*` token.
    func streamCStringValue(_ token: CompactToken) throws(CoderError) -> ArchivedValue {
        switch token.form {
        case .null:
            return .cString(nil, referenceWidth: nil)
        case .reference:
            guard token.slot < stream.cStrings.count, let entry = stream.cStrings[token.slot] else { throw streamNeedsGraph() }
            return .cString(entry, referenceWidth: token.width)
        default:
            let entry = ArchivedCString(text: stream.reader.bytes[token.payload], textDecision: token.textDecision, sourceIndex: token.slot)
            stream.cStrings.pad(toInclude: token.slot, with: nil)
            stream.cStrings[token.slot] = entry
            return .cString(entry, referenceWidth: nil)
        }
    }

    /// Takes a one-letter `"*"` group and returns its C string's text: `.some(nil)` for NULL,
    /// `nil` (taking nothing) when the next group is not such a group, for the general way.
    func streamCStringText() throws(CoderError) -> String?? {
        guard !stream.needsGraph, let (pc, code) = stream.reader.peekOneLetterGroup(UInt8(ascii: "*")), code == .cString else { return nil }
        streamTakeOneLetterGroup()
        let token = try streamRead { (reader) throws(WireError) in try reader.directValue(at: pc) }
        guard token.code == .cString else { throw streamNeedsGraph() }
        switch token.form {
        case .null:
            return .some(nil)
        case .reference:
            if token.slot < stream.cStringTexts.count, let text = stream.cStringTexts[token.slot] { return text }
            guard token.slot < stream.cStrings.count, let entry = stream.cStrings[token.slot] else { throw streamNeedsGraph() }
            return noteCStringText(entry.string, slot: token.slot)
        default:
            _ = try streamCStringValue(token)  // the slot's entry, for groups taken whole later
            return noteCStringText(String(decoding: stream.reader.bytes[token.payload], as: UTF8.self), slot: token.slot)
        }
    }

    /// Keeps `text` as the text of the C string in `slot` and returns it.
    private func noteCStringText(_ text: String, slot: Int) -> String {
        stream.cStringTexts.pad(toInclude: slot, with: nil)
        stream.cStringTexts[slot] = text
        return text
    }

    /// A `[Nc]` or union value: raw bytes.
    private func streamRawBytes(in group: inout StreamedGroup) throws(CoderError) -> ArchivedValue {
        let token = try streamNext(in: &group)
        guard token.code == .rawBytes else { throw streamNeedsGraph() }
        return .bytes(stream.reader.bytes[token.payload])
    }

    /// The value of a scalar token, as the graph reader makes it.
    private func streamScalar(_ token: CompactToken) throws(CoderError) -> ArchivedValue {
        guard token.code != .rawBytes, let value = ArchivedValue(plainToken: token, in: stream.reader.bytes) else { throw streamNeedsGraph() }
        return value
    }

    /// Takes the next `"@"` group and returns its object, decoding a new one there.
    func streamObject() throws(CoderError) -> AnyObject? {
        // The commonest group of all: `@` referring to its type string, read in one go.
        if !stream.needsGraph, let (_, code) = stream.reader.peekOneLetterGroup(UInt8(ascii: "@")), code == .object {
            streamTakeOneLetterGroup()
            switch try streamRead({ (reader) throws(WireError) in try reader.directObject() }) {
            case .null:
                return nil
            case .reference(let slot):
                guard slot < stream.instances.count, let instance = stream.instances[slot] else {
                    throw streamNeedsGraph()  // a class in an object slot, or an object left undecoded
                }
                return instance
            case .new(let slot, let start, let classSlot):
                return try streamDecodeNewObject(slot: slot, offset: start, classSlot: classSlot)
            }
        }
        var (types, group) = try streamGroup("@")
        guard types.count == 1 else { throw streamNeedsGraph() }
        let token = try streamNext(in: &group)
        guard token.code == .object else { throw streamNeedsGraph() }
        try streamFinish(group)
        switch token.form {
        case .null:
            return nil
        case .reference:
            guard token.slot < stream.instances.count, let instance = stream.instances[token.slot] else {
                throw streamNeedsGraph()  // a class in an object slot, or an object left undecoded
            }
            return instance
        default:
            return try streamDecodeNewObject(slot: token.slot, offset: token.start)
        }
    }

    /// Reads the class chain of the new object in `slot` (at `offset`), then decodes it.
    /// `classSlot`: the object's class when the reader took its chain already (one reference to
    /// a class read before), else `nil`.
    func streamDecodeNewObject(slot: Int, offset: Int, classSlot: Int? = nil) throws(CoderError) -> AnyObject {
        guard stream.open.count < options.limits.maximumNesting else { throw streamNeedsGraph() }
        let first: Int
        if let classSlot {
            guard classSlot < stream.classes.count, stream.classes[classSlot] != nil else { throw streamNeedsGraph() }
            first = classSlot
        } else {
            first = try streamClassChain()
        }
        let type = streamClassType(first)
        // The tables hold every slot of the archive from the start (see `StreamingState.init`).
        guard slot < stream.instances.count, slot < stream.instanceClassSlots.count else { throw streamNeedsGraph() }
        let instance = type.init()
        stream.instances[slot] = instance
        stream.instanceClassSlots[slot] = Int32(truncatingIfNeeded: first)
        stream.open.append(StreamedObject(classSlot: first, offset: offset, slot: slot))
        defer { stream.open.removeLast() }
        do {
            try instance.decodeContents(with: self)
        } catch {
            // A codec's own error too: the graph decode gives it (or, for an unsupported
            // version, a generic object) with the graph's offsets.
            throw streamNeedsGraph()
        }
        guard stream.reader.directEndOfObject() else { throw streamNeedsGraph() }  // groups left
        return instance
    }

    /// Reads a class chain and returns the slot of its first class.
    private func streamClassChain() throws(CoderError) -> Int {
        var first: Int?
        var previous: Int?
        while true {
            let link = try streamRead { (reader) throws(WireError) in try reader.directClassLink() }
            switch link.form {
            case .new:
                let name = stream.reader.bytes[link.payload]
                stream.classes.pad(toInclude: link.slot, with: nil)
                stream.classes[link.slot] = StreamedClass(link: ArchiveClassLink(String(decoding: name, as: UTF8.self), version: link.value), name: name, token: link)
                if let previous { stream.classes[previous]?.superclassSlot = link.slot }
                previous = link.slot
                if first == nil { first = link.slot }
                continue
            case .reference:
                guard link.slot < stream.classes.count, stream.classes[link.slot] != nil else { throw streamNeedsGraph() }
                if let previous {
                    stream.classes[previous]?.superclassSlot = link.slot
                    stream.classes[previous]?.superclassReferenceWidth = link.width
                }
                if first == nil { first = link.slot }
            default:
                break  // nil ends the chain
            }
            guard let first else { throw streamNeedsGraph() }  // an object without a class
            return first
        }
    }

    /// The decoding type of the class in `slot`, which is read (worked out once per class,
    /// with its chain).
    private func streamClassType(_ slot: Int) -> any ArchivableObject.Type {
        guard let entry = stream.classes[slot] else { return GenericObject.self }
        if let known = entry.type { return known }
        let (chain, type) = classInfo(forChain: streamChain(ofClassIn: slot))
        entry.chain = chain
        entry.type = type
        return type
    }

    /// The chain of the class in `slot`, most derived class first.
    private func streamChain(ofClassIn slot: Int) -> [ArchiveClassLink] {
        if let known = stream.classes[slot]?.chain { return known }
        var chain: [ArchiveClassLink] = []
        var current: Int? = slot
        // The index refused chains that loop; the bound (a chain has each class once) only
        // keeps a bug from hanging.
        while let index = current, let link = stream.classes[index], chain.count < stream.classes.count {
            chain.append(link.link)
            current = link.superclassSlot
        }
        return chain
    }

    /// The chain of the object being streamed (`[]` at the top level).
    var streamCurrentChain: [ArchiveClassLink] {
        guard let last = stream.open.last else { return [] }
        return stream.classes[last.classSlot]?.chain ?? []
    }

    /// Whether every class of the chain of the object being streamed is at version 0.
    var streamCurrentChainIsAtVersionZero: Bool {
        guard let last = stream.open.last else { return true }
        return stream.classes[last.classSlot]?.chainIsAtVersionZero ?? true
    }

    /// The first link of the chain of the object being streamed, read in place.
    var streamCurrentClassLink: ArchiveClassLink? {
        guard let last = stream.open.last else { return nil }
        return stream.classes[last.classSlot]?.chain?.first
    }

    /// Whether the stream's current object (or the top level) has groups left.
    var streamHasMoreGroups: Bool {
        guard !stream.needsGraph else { return false }
        let offset = stream.reader.offset
        guard offset < stream.reader.bytes.count else { return false }
        return stream.open.isEmpty || stream.reader.bytes[offset] != HeadByte.endOfObject
    }

    /// The type string of the stream's next group, without taking it.
    var streamPeekTypeString: String? {
        streamPeekTypeStringBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the next group's type string, without taking the group.
    var streamPeekTypeStringBytes: ArraySlice<UInt8>? {
        guard streamHasMoreGroups else { return nil }
        if let text = stream.reader.peekSharedStringText() { return text }
        var probe = stream.reader
        guard let token = try? probe.nextCompact(), token.code == .typeString else { return nil }
        return probe.bytes[token.payload]
    }

    /// Forgets the decoding types worked out for the classes read (the class substitutions
    /// changed).
    func forgetStreamedClassTypes() {
        for case let entry? in stream.classes { entry.type = nil }
    }

    /// Where the stream stands, for doing the call about to start again on the graph.
    var streamCheckpoint: StreamCheckpoint {
        StreamCheckpoint(topLevelGroupsTaken: stream.topLevelGroupsTaken, slotsRead: stream.reader.nextSlot,
                         warningCount: warnings.count, seenChainCount: seenChains.count)
    }
}

extension Unarchiver {
    /// Calls `body` for every object decoded so far, in object-table order, with the name of
    /// its class as archived (before ``classSubstitutions``) and its decoded instance. After
    /// ``decodeRootObject()`` or `decodeTopLevelItems()` that is every object of the archive.
    public func forEachDecodedObject(_ body: (_ className: ArraySlice<UInt8>, _ instance: AnyObject) throws -> Void) rethrows {
        if isStreaming {
            try forEachDecodedObjectInSlot { _, className, instance in try body(className, instance) }
            return
        }
        guard let owner = archive.ownedObjects else { return }
        for entry in owner.objects {
            if let instance = decodedInstance(of: entry) { try body(entry.archivedClass.name, instance) }
        }
    }

    /// How many of the objects decoded so far are of each class, as archived (before
    /// ``classSubstitutions``), and how many of those are ``GenericObject``s: one entry per class
    /// name that has decoded objects, in no particular order. Counts by class slot, so a name is
    /// handled once per class rather than once per object.
    public func decodedObjectCounts() -> [(className: ArraySlice<UInt8>, decoded: Int, generic: Int)] {
        var result: [(className: ArraySlice<UInt8>, decoded: Int, generic: Int)] = []
        // Each name's entry of `result`, found by content (an archive may hold a million classes).
        var entryOfName = ByteStringIndex()
        func tally(_ name: ArraySlice<UInt8>, decoded: Int, generic: Int) {
            let entry = entryOfName.firstSlot(of: name, filing: result.count) { result[$0].className }
            if entry == result.count { result.append((name, 0, 0)) }
            result[entry].decoded += decoded
            result[entry].generic += generic
        }
        guard isStreaming else {
            forEachDecodedObject { name, instance in tally(name, decoded: 1, generic: instance is GenericObject ? 1 : 0) }
            return result
        }
        // Per class slot: objects decoded, and generic ones among them.
        var decoded = [Int](repeating: 0, count: stream.classes.count)
        var generic = [Int](repeating: 0, count: stream.classes.count)
        let genericType = ObjectIdentifier(GenericObject.self)
        let classSlots = stream.instanceClassSlots
        stream.instances.withUnsafeBufferPointer { instances in
            for slot in 0..<min(instances.count, classSlots.count) {
                let classSlot = Int(classSlots[slot])
                guard classSlot >= 0, classSlot < decoded.count, let instance = instances[slot] else { continue }
                decoded[classSlot] += 1
                if ObjectIdentifier(type(of: instance)) == genericType { generic[classSlot] += 1 }
            }
        }
        // Classes of one name in several slots (an archive may define a name twice) are summed.
        for classSlot in decoded.indices where decoded[classSlot] > 0 {
            guard let entry = stream.classes[classSlot] else { continue }
            tally(entry.name, decoded: decoded[classSlot], generic: generic[classSlot])
        }
        return result
    }

    /// ``forEachDecodedObject(_:)`` with each object's object-table slot (`#n` in `decode` and
    /// `tokens`); objects of a graph that was not read from bytes (no slot) are left out.
    public func forEachDecodedObjectInSlot(_ body: (_ slot: Int, _ className: ArraySlice<UInt8>, _ instance: AnyObject) throws -> Void) rethrows {
        if isStreaming {
            for (slot, instance) in stream.instances.enumerated() {
                guard let instance, slot < stream.instanceClassSlots.count else { continue }
                let classSlot = Int(stream.instanceClassSlots[slot])
                guard classSlot >= 0, classSlot < stream.classes.count, let entry = stream.classes[classSlot] else { continue }
                try body(slot, entry.name, instance)
            }
            return
        }
        guard let owner = archive.ownedObjects else { return }
        for entry in owner.objects {
            if let slot = entry.sourceIndex, let instance = decodedInstance(of: entry) { try body(slot, entry.archivedClass.name, instance) }
        }
    }
}
