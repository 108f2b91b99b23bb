import ObjCTypeEncoding

/// Writes an ``Archive`` graph to bytes.
///
/// Two policies share one mechanism:
/// - ``Policy/recorded`` follows every wire decision recorded in the graph (integer widths,
///   integral reals, literal-versus-reference), falling back to NSArchiver's choice where a
///   decision is missing or no longer fits. A graph read by ``ArchiveReader`` is written back
///   byte for byte.
/// - ``Policy/archiver`` ignores recorded decisions and writes exactly what Apple's `NSArchiver`
///   writes for these values: smallest integer widths, the integral-real rule, shared strings and
///   C strings de-duplicated by content, objects and classes by identity.
///
/// Either way it refuses, with `limitExceeded`, to write what a reader with the same
/// ``DecodingLimits`` would refuse (too many objects, shared strings or values that take no
/// bytes, nesting too deep, a class name or chain too long, a type string nested too deep, an
/// archive too large): see ``LimitTally``. The error names the object being written.
public struct ArchiveWriter {
    /// Which decisions to follow.
    public enum Policy: Hashable, Sendable {
        /// Follow recorded decisions where present.
        case recorded
        /// Decide everything as NSArchiver does.
        case archiver
    }

    /// Deepest object/array/struct nesting the writer follows whatever its limits (it walks a
    /// graph's values recursively): 1024.
    public static let maximumNesting = 1024

    private var tokens: TokenWriter
    private let policy: Policy
    private let header: StreamHeader
    /// The shared-string table written so far.
    private var sharedStrings = SharedStringTable()
    /// The slot written for each object, class and C string.
    private var slots = EntryTable()
    /// Each distinct C string text written, with the slot of its first literal, for
    /// ``Policy/archiver``, which de-duplicates C strings by content (kept under that policy
    /// only), found by content through ``cStringIndex``.
    private var cStringFirsts: [(text: ArraySlice<UInt8>, slot: Int)] = []
    private var cStringIndex = ByteStringIndex()
    private var slotCount = 0
    private var depth = 0
    /// What readers count against their limits, counted as it is written.
    private var tally: LimitTally
    /// The slots of the objects being written, innermost last (for messages).
    private var openObjects: [Int] = []
    /// The shared-string slot of the type strings of the first heads written (without a
    /// recorded decision): a group of such a head refers to it without looking its text up by
    /// content. Holds the heads, so their identity cannot pass to another.
    private var recentHeads: [(head: GroupHead, index: Int)] = []
    /// How many heads ``recentHeads`` keeps.
    private static let recentHeadCount = 8

    /// A writer that has written nothing yet (``writeHeader()`` comes first).
    init(header: StreamHeader, policy: Policy, capacity: Int = 0, limits: DecodingLimits = .default) {
        self.header = header
        self.policy = policy
        self.tokens = TokenWriter(capacity: capacity)
        self.tally = LimitTally(limits: limits)
    }

    /// Writes `archive`; `byteOrder` overrides the header's byte order (to convert between
    /// NeXT big-endian and Intel little-endian). Throws ``WireError`` `invalidToken` when a
    /// value does not match its group's type, `limitExceeded` when a reader with `limits`
    /// would refuse what it writes.
    public static func write(_ archive: Archive, policy: Policy = .recorded, byteOrder: ByteOrder? = nil, capacity: Int = 0,
                             limits: DecodingLimits = .default) throws(WireError) -> [UInt8] {
        var header = archive.header
        if let byteOrder { header.byteOrder = byteOrder }
        if policy == .archiver { header.systemVersion.width = .archiverChoice(for: header.systemVersion.value) }
        var writer = try ArchiveWriter(startingWith: header, policy: policy, capacity: capacity, limits: limits)
        for group in archive.groups {
            try writer.write(group)
        }
        return try writer.checkedBytes()
    }

    // MARK: - Writing piece by piece (the streaming `Archiver`)

    /// A writer that has written `header` and takes groups, or the pieces of an object, one
    /// after the other. Throws when the header cannot be written.
    init(startingWith header: StreamHeader, policy: Policy, capacity: Int = 0, limits: DecodingLimits = .default) throws(WireError) {
        self.init(header: header, policy: policy, capacity: capacity, limits: limits)
        try writeHeader()
    }

    /// Writes the header; throws when it cannot be written.
    mutating func writeHeader() throws(WireError) {
        try tokens.write(.header(header))
    }

    /// The bytes written so far (a copy).
    var bytes: [UInt8] { tokens.bytes }

    /// The bytes written so far (a copy); throws when they are more than readers accept
    /// (``DecodingLimits/maximumInputSize``).
    func checkedBytes() throws(WireError) -> [UInt8] {
        if let problem = tally.checkSize(tokens.count) { throw WireError(.limitExceeded, at: tokens.count, problem) }
        return tokens.bytes
    }

    /// The number of bytes written so far.
    var count: Int { tokens.count }

    /// Writes `group` (its objects met for the first time are written in it, whole).
    mutating func writeGroup(_ group: ArchivedGroup) throws(WireError) {
        try write(group)
    }

    /// Writes the type string that starts a group of `head`, without values: what follows
    /// is the group's values, written by the caller.
    mutating func writeTypeString(of head: GroupHead) throws(WireError) {
        if let typeString = head.typeString, head.decision == nil {
            // A head written before refers to its slot; a head met anew is looked up by
            // content as any text is, and remembered.
            if let position = recentHeads.firstIndex(where: { $0.head === head }) {
                let index = recentHeads[position].index
                return try tokens.write(.typeString(SharedString(form: .reference(index: index, width: referenceWidth(nil, index: index)), bytes: typeString)))
            }
            let text = try sharedString(typeString, nil)
            let index: Int
            switch text.form {
            case .literal(let literal, _):
                try checkTypeString(typeString)
                index = literal
            case .reference(let reference, _): index = reference
            }
            try tokens.write(.typeString(text))
            // The first heads met stay (an archive's groups mostly use a few type strings,
            // met early); later ones take the last place.
            if recentHeads.count == Self.recentHeadCount { recentHeads.removeLast() }
            recentHeads.append((head, index))
        } else if let typeString = head.typeString {
            let text = try sharedString(typeString, head.decision)
            if case .literal = text.form { try checkTypeString(typeString) }
            try tokens.write(.typeString(text))
        } else if header.streamerVersion == 3 {
            try tokens.write(.untypedGroup)
        } else {
            try tokens.write(.typeString(sharedString(ArraySlice("@".utf8), nil)))
        }
    }

    /// Throws when readers would not parse `typeString` within their type nesting limit.
    private func checkTypeString(_ typeString: ArraySlice<UInt8>) throws(WireError) {
        if let problem = tally.checkTypeString(typeString) { throw refused(problem) }
    }

    /// Writes `object`, met for the first time, up to its contents: its `0x84`, class chain
    /// (and streamer-3 instance size). Its groups come next, then ``writeEndOfObject()``.
    mutating func writeNewObject(_ object: ArchivedObject) throws(WireError) {
        try nest()
        let index = try claimSlot(object, source: object.sourceIndex)
        try writeObjectHead(index, object.archivedClass, classReferenceWidth: object.classReferenceWidth, instanceSize: object.instanceSize)
    }

    /// Writes a new object of class `archivedClass` that has no graph entry, as
    /// ``writeNewObject(_:)`` does, and returns its slot: later references to it name the slot
    /// (``writeObjectReference(toSlot:)``), or an entry given that slot (``register(_:asSlot:)``).
    mutating func writeNewObject(ofClass archivedClass: ArchivedClass) throws(WireError) -> Int {
        try nest()
        try countSlot()
        let index = slotCount
        slotCount += 1
        try writeObjectHead(index, archivedClass, classReferenceWidth: nil, instanceSize: nil)
        return index
    }

    /// The `0x84` of a new object in slot `index`, its class chain and, in streamer 3, its
    /// instance size.
    private mutating func writeObjectHead(_ index: Int, _ archivedClass: ArchivedClass, classReferenceWidth: IntegerWidth?,
                                          instanceSize: WireInteger?) throws(WireError) {
        try tokens.write(.object(.new(index: index)))
        openObjects.append(index)
        try writeClassChain(archivedClass, referenceWidth: classReferenceWidth)
        if header.streamerVersion == 3 {
            let size = instanceSize ?? WireInteger(0, width: .inline)
            try tokens.write(.instanceSize(WireInteger(size.value, width: width(size.width, for: size.value, .counted))))
        }
    }

    /// Writes a reference to the object in slot `index` (an object value, without its group's
    /// type string).
    mutating func writeObjectReference(toSlot index: Int) throws(WireError) {
        try tokens.write(.object(.reference(index: index, width: referenceWidth(nil, index: index))))
    }

    /// Records that `entry` stands for the object written in slot `index`: values holding it
    /// are written as references to that slot.
    mutating func register(_ entry: ArchivedObject, asSlot index: Int) {
        slots.record(index, for: entry, source: entry.sourceIndex)
    }

    /// Ends the object begun by the last ``writeNewObject(_:)`` still open.
    mutating func writeEndOfObject() throws(WireError) {
        try tokens.write(.endOfObject)
        depth -= 1
        openObjects.removeLast()
    }

    // MARK: - Decisions

    private func invalid(_ reason: String) -> WireError {
        WireError(.invalidToken, at: tokens.count, reason)
    }

    /// A `limitExceeded` error for `problem` (from ``tally``), naming the object being written.
    private func refused(_ problem: String) -> WireError {
        let place = openObjects.last.map { "in object #\($0): " } ?? "at the top level: "
        return WireError(.limitExceeded, at: tokens.count, place + problem + "; readers refuse it")
    }

    /// Counts one more entry of the object table.
    private mutating func countSlot() throws(WireError) {
        if let problem = tally.countObject() { throw refused(problem) }
    }

    /// Counts the value of `type` (see ``LimitTally/countValue(of:)``).
    private mutating func countValue(of type: ObjCType) throws(WireError) {
        if let problem = tally.countValue(of: type) { throw refused(problem) }
    }

    /// The width of `value` in `place`: the recorded one under ``Policy/recorded`` when it is
    /// allowed there and fits (``IntegerPlace/width(recorded:for:)``), else NSArchiver's.
    private func width(_ recorded: IntegerWidth?, for value: Int64, _ place: IntegerPlace) -> IntegerWidth {
        place.width(recorded: policy == .recorded ? recorded : nil, for: value)
    }

    private func referenceWidth(_ recorded: IntegerWidth?, index: Int) -> IntegerWidth {
        IntegerPlace.referenceWidth(recorded: policy == .recorded ? recorded : nil, slot: index)
    }

    /// NeXT's `FloorOrZero`: the truncated value inside ±2 147 483 646, else 0.
    @usableFromInline
    static func floorOrZero(_ x: Double) -> Int64 {
        guard x.isFinite, x < 2147483646, x >= -2147483646 else { return 0 }
        return Int64(x)
    }

    /// The form NSArchiver gives a `float`: integral when `(float)(int)x == x` in NeXT's window.
    @inlinable
    public static func archiverForm(_ x: Float) -> RealForm {
        let n = floorOrZero(Double(x))
        return Float(n) == x ? .integral(.archiverChoice(for: n)) : .ieee
    }

    /// The form NSArchiver gives a `double`: Apple (system ≥ 1000) tests `(double)(int)x == x`;
    /// NeXT truncated through `float` first.
    @inlinable
    public static func archiverForm(_ x: Double, systemVersion: Int64) -> RealForm {
        let n = systemVersion >= 1000 ? floorOrZero(x) : floorOrZero(Double(Float(x)))
        return Double(n) == x ? .integral(.archiverChoice(for: n)) : .ieee
    }

    private func realForm(_ recorded: RealForm?, integral value: Int64?, fallback: RealForm) -> RealForm {
        Self.followedForm(policy == .recorded ? recorded : nil, integral: value, fallback: fallback)
    }

    /// The form the writer follows for a real whose exact integer value (if any) is `value`:
    /// `fallback` (NSArchiver's, ``archiverForm(_:)``) without a recorded form; IEEE when
    /// recorded so; integral when recorded so and the value is an integer, with the recorded
    /// width when it holds the value, else NSArchiver's.
    @inlinable
    public static func followedForm(_ recorded: RealForm?, integral value: Int64?, fallback: RealForm) -> RealForm {
        guard let recorded else { return fallback }
        switch recorded {
        case .ieee: return .ieee
        case .integral(let w):
            guard let value else { return fallback }
            return .integral(w.canHold(value) ? w : .archiverChoice(for: value))
        }
    }

    /// Writes `text` as the shared-string table decides (``SharedStringTable/decision(for:recorded:)``),
    /// following `decision` under ``Policy/recorded``.
    private mutating func sharedString(_ text: ArraySlice<UInt8>, _ decision: SharedStringDecision?) throws(WireError) -> SharedString {
        switch sharedStrings.decision(for: text, recorded: policy == .recorded ? decision : nil) {
        case .reference(let index, let width):
            return SharedString(form: .reference(index: index, width: width), bytes: text)
        case .literal(let width):
            if let problem = tally.countSharedString() { throw refused(problem) }
            let index = sharedStrings.count
            sharedStrings.record(text, .literal(length: width))
            return SharedString(form: .literal(index: index, length: width), bytes: text)
        }
    }

    /// Gives `entry` (source slot `source`) the next object-table slot.
    private mutating func claimSlot(_ entry: AnyObject, source: Int?) throws(WireError) -> Int {
        try countSlot()
        let index = slotCount
        slots.record(index, for: entry, source: source)
        slotCount += 1
        return index
    }

    // MARK: - Groups and values

    private mutating func write(_ group: ArchivedGroup) throws(WireError) {
        guard group.valueCount == group.types.count else {
            throw invalid("group \(TextExcerpt.quoted(group.typeText)) has \(group.types.count) types but \(group.valueCount) values")
        }
        try writeTypeString(of: group.head)
        for (index, type) in group.types.enumerated() {
            try write(group.value(at: index), as: type)
        }
    }

    private mutating func nest() throws(WireError) {
        depth += 1
        if let problem = tally.checkNesting(depth) { throw refused(problem) }
        guard depth <= Self.maximumNesting else { throw invalid("nesting deeper than \(Self.maximumNesting), the most this writer follows") }
    }

    mutating func write(_ value: ArchivedValue, as type: ObjCType) throws(WireError) {
        switch (type.unqualified, value) {
        case (.short, .integer(let v, let w)), (.unsignedShort, .integer(let v, let w)):
            guard v >= -32768 && v <= 65535 else { throw invalid("\(v) does not fit a short") }
            let signed = Int64(Int16(truncatingIfNeeded: v))
            try tokens.write(.integer(WireInteger(signed, width: width(w, for: signed, .short))))
        case (.int, .integer(let v, let w)), (.unsignedInt, .integer(let v, let w)),
             (.long, .integer(let v, let w)), (.unsignedLong, .integer(let v, let w)),
             (.longLong, .integer(let v, let w)), (.unsignedLongLong, .integer(let v, let w)):
            try tokens.write(.integer(WireInteger(v, width: width(w, for: v, .integer))))
        case (.float, .float(let x, let form)):
            let fallback = Self.archiverForm(x)
            try tokens.write(.float(x, realForm(form, integral: x.isFinite ? Int64(exactly: x) : nil, fallback: fallback)))
        case (.double, .double(let x, let form)):
            let fallback = Self.archiverForm(x, systemVersion: header.systemVersion.value)
            try tokens.write(.double(x, realForm(form, integral: x.isFinite ? Int64(exactly: x) : nil, fallback: fallback)))
        case (.char, .byte(let b)), (.unsignedChar, .byte(let b)), (.bool, .byte(let b)):
            try tokens.write(.byte(b))
        case (.array(let count, let element), .bytes(let payload)) where element.unqualified == .char || element.unqualified == .unsignedChar:
            guard payload.count == count else { throw invalid("\(TextExcerpt.quoted(type.encoding)) needs \(count) bytes, the value has \(payload.count)") }
            if count == 0 { try countValue(of: type) }
            try tokens.write(.rawBytes(payload))
        case (.union, .bytes(let payload)):
            guard payload.count == type.layout(.ilp32)?.size else { throw invalid("union \(TextExcerpt.quoted(type.encoding)) has the wrong number of bytes (\(payload.count))") }
            if payload.isEmpty { try countValue(of: type) }
            try tokens.write(.rawBytes(payload))
        case (.bytes, .unsharedString(let payload, let w)):
            let length = Int64(payload?.count ?? 0)
            try tokens.write(.unsharedString(payload, length: width(w, for: length, .counted)))
        case (.atom, .sharedString(let text, let decision)), (.selector, .sharedString(let text, let decision)):
            if let text {
                try tokens.write(.sharedString(sharedString(text, decision)))
            } else {
                try tokens.write(.sharedString(nil))
            }
        case (.cString, .cString(let entry, let w)):
            try writeCString(entry, referenceWidth: w)
        case (.object, .object(let object, let w)):
            try writeObject(object, referenceWidth: w)
        case (.object, .objectSlotClass(let entry, let w)):
            guard let index = slots.value(for: entry, source: entry.sourceIndex) else {
                throw invalid("an object slot refers to class \(TextExcerpt.quoted(entry.name)) before it was written")
            }
            try tokens.write(.object(.reference(index: index, width: referenceWidth(w, index: index))))
        case (.classObject, .classObject(let entry, let w)):
            try writeClassChain(entry, referenceWidth: w)
        case (.array(let count, let element), .array(let values)):
            guard values.count == count else { throw invalid("\(TextExcerpt.quoted(type.encoding)) needs \(count) elements, the value has \(values.count)") }
            try countValue(of: type)
            try nest()
            try tokens.write(.arrayStart(count: count))
            for v in values { try write(v, as: element) }
            try tokens.write(.arrayEnd)
            depth -= 1
        case (.structure(_, let fields), .structure(let values)):
            guard values.count == fields.count else { throw invalid("\(TextExcerpt.quoted(type.encoding)) has \(fields.count) members, the value has \(values.count)") }
            if fields.isEmpty { try countValue(of: type) }
            try nest()
            try tokens.write(.structStart)
            for (v, field) in zip(values, fields) { try write(v, as: field.type) }
            try tokens.write(.structEnd)
            depth -= 1
        case (.ignored, .ignored):
            try countValue(of: type)
            try tokens.write(.ignored)
        default:
            throw invalid("a value of the wrong kind for type \(TextExcerpt.quoted(type.encoding))")
        }
    }

    private mutating func writeCString(_ entry: ArchivedCString?, referenceWidth w: IntegerWidth?) throws(WireError) {
        guard let entry else { return try tokens.write(.cString(.null)) }
        let source = entry.sourceIndex
        if let index = slots.value(for: entry, source: source) {
            return try tokens.write(.cString(.reference(index: index, width: referenceWidth(w, index: index))))
        }
        if policy == .archiver, let known = firstCString(entry.text, filing: false) {
            let index = cStringFirsts[known].slot
            slots.record(index, for: entry, source: source)
            return try tokens.write(.cString(.reference(index: index, width: referenceWidth(nil, index: index))))
        }
        let index = try claimSlot(entry, source: source)
        if policy == .archiver {
            _ = firstCString(entry.text, filing: true)
            cStringFirsts.append((entry.text, index))
        }
        try tokens.write(.cString(.literal(index: index, text: try sharedString(entry.text, entry.textDecision))))
    }

    /// The entry of ``cStringFirsts`` whose text is `text`, if any; with `filing`, a text not
    /// there is filed as the entry about to be appended.
    private mutating func firstCString(_ text: ArraySlice<UInt8>, filing: Bool) -> Int? {
        // The entries, borrowed for the lookup only: appending after it copies nothing.
        let firsts = cStringFirsts
        guard filing else { return cStringIndex.slot(of: text) { firsts[$0].text } }
        let first = cStringIndex.firstSlot(of: text, filing: firsts.count) { firsts[$0].text }
        return first < firsts.count ? first : nil
    }

    private mutating func writeObject(_ object: ArchivedObject?, referenceWidth w: IntegerWidth?) throws(WireError) {
        guard let object else { return try tokens.write(.object(.null)) }
        let source = object.sourceIndex
        if let index = slots.value(for: object, source: source) {
            return try tokens.write(.object(.reference(index: index, width: referenceWidth(w, index: index))))
        }
        try writeNewObject(object)
        for group in object.groups {
            try write(group)
        }
        try writeEndOfObject()
    }

    private mutating func writeClassChain(_ first: ArchivedClass?, referenceWidth firstWidth: IntegerWidth?) throws(WireError) {
        var current = first
        var linkWidth = firstWidth
        var links = 0
        let chainStart = slotCount
        while let entry = current {
            let source = entry.sourceIndex
            if let index = slots.value(for: entry, source: source) {
                // A class this chain wrote already: the chain loops (a graph made by hand or
                // from JSON can say so; readers refuse it).
                if links > 0, index >= chainStart {
                    throw invalid("the class chain of \(TextExcerpt.quoted(first?.name ?? [])) loops: \(TextExcerpt.quoted(entry.name)) is its own superclass")
                }
                // Readers refuse a chain longer than their limit: the new classes and the chain
                // of the class written before count together.
                if links > 0 { try checkChainLength(links, continuingAt: entry) }
                return try tokens.write(.classLink(.reference(index: index, width: referenceWidth(linkWidth, index: index))))
            }
            links += 1
            try checkChainLength(links, continuingAt: nil)
            if let problem = tally.checkClassName(length: entry.name.count) { throw refused(problem) }
            let name = try sharedString(entry.name, entry.nameDecision)
            let version = WireInteger(entry.version, width: width(entry.versionWidth, for: entry.version, .counted))
            let index = slotCount
            try tokens.write(.classLink(.new(index: index, name: name, version: version)))
            _ = try claimSlot(entry, source: source)
            current = entry.superclass
            linkWidth = entry.superclassReferenceWidth
        }
        try tokens.write(.classLink(.null))
    }

    /// Throws when `links` new classes followed by the chain of `tail` make a chain longer than
    /// readers accept (``DecodingLimits/maximumClassChainLength``).
    private func checkChainLength(_ links: Int, continuingAt tail: ArchivedClass?) throws(WireError) {
        let longest = tally.limits.maximumClassChainLength
        var length = links
        var current = tail
        while let entry = current, length <= longest {
            length += 1
            current = entry.superclass
        }
        if let problem = tally.checkClassChain(length: length) { throw refused(problem) }
    }
}
