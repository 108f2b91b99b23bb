/// A whole archive read and checked once, kept as a compact index over its bytes: the object
/// graph without copies.
///
/// Reading an index checks everything ``TokenReader`` checks (every value, length, reference
/// and limit) and records where each object-table slot's item starts. Everything else — an
/// object's class, a class's superclass, values — is read again from the bytes when asked for
/// (``classSlot(ofObject:)``, ``tokens(ofObject:)``), and since the archive was checked as a
/// whole, such a re-read meets the same tokens the first read did. That makes an index cheap —
/// 8 bytes per object, class or C string on top of the input, plus the shared strings — and
/// fast to build, so it suits large files and many small ones; ``ArchiveReader`` builds the
/// editable graph of ``ArchivedObject``s instead.
///
/// ```swift
/// let index = try ArchiveIndex(bytes: archive)
/// if let root = index.rootObject {
///     print(index.className(ofObject: root) ?? "?")
///     var reader = index.tokens(ofObject: root)
///     while let token = try reader.next() { print(token.kind) }
/// }
/// ```
public struct ArchiveIndex: Sendable {
    /// What an object-table slot holds (the same as ``TokenReader/SlotKind``).
    public typealias SlotKind = TokenReader.SlotKind

    /// The archive's bytes.
    public var bytes: [UInt8] { reader.bytes }
    /// The header.
    public let header: StreamHeader
    /// The reader as it was at the end: both reference tables complete (with the offset where
    /// each slot's item starts: the `0x84` of a new object or C string, a new class's link),
    /// type strings compiled.
    private let reader: TokenReader
    /// The byte offsets of the top-level groups.
    public let topLevelGroupOffsets: [Int]
    /// The object-table slot of the first object written at the top level, if any.
    public let rootObject: Int?
    /// The type strings compiled while reading it (and those it started with): a reader of the
    /// same bytes made with them (``TokenReader/init(bytes:limits:compiled:)``) compiles none again.
    public var compiledTypeStrings: CompiledTypeStrings { reader.compiledTypeStrings }

    /// Reads and checks `bytes`. Throws ``WireError`` exactly where ``TokenReader`` would.
    /// Inputs must be smaller than 4 GiB (offsets are kept in 32 bits).
    public init(bytes: [UInt8], limits: DecodingLimits = .default) throws(WireError) {
        var compiled = CompiledTypeStrings()
        try self.init(bytes: bytes, limits: limits, compiled: &compiled)
    }

    /// Reads and checks `bytes`, starting with the type strings in `compiled` and adding those
    /// it compiles (see ``CompiledTypeStrings``): the way to index many small archives.
    public init(bytes: [UInt8], limits: DecodingLimits = .default, compiled: inout CompiledTypeStrings) throws(WireError) {
        guard bytes.count <= Int(UInt32.max) else {
            throw WireError(.limitExceeded, at: 0, "the input has \(bytes.count) bytes; an index holds at most 4 GiB")
        }
        var reader = TokenReader(bytes: bytes, limits: limits, compiled: compiled)
        var builder = Builder(bytes: bytes, limits: limits)
        do {
            self.header = try reader.readToEnd(checking: &builder)
        } catch {
            compiled = reader.compiledTypeStrings
            throw error
        }
        compiled = reader.compiledTypeStrings
        // Moved, not copied (a copy retained each of the reader's tables, and the local's end
        // released them again: about a twentieth of indexing a message body).
        self.reader = consume reader
        self.topLevelGroupOffsets = builder.topLevelGroups
        self.rootObject = builder.root
    }

    /// Builds the index from the token stream, and checks what makes tokens a graph: every
    /// object has a class, and no class chain loops (as ``ArchiveReader`` does).
    private struct Builder: CheckingTokenVisitor {
        let bytes: [UInt8]
        var topLevelGroups: [Int] = []
        var root: Int?
        var error: WireError?
        /// The checks of class links (every object has a class, no chain loops, none too long).
        var chains: ClassChainCheck

        init(bytes: [UInt8], limits: DecodingLimits) {
            self.bytes = bytes
            chains = ClassChainCheck(limits: limits)
        }

        @inline(__always)
        mutating func visit(_ token: CompactToken) -> Bool {
            switch token.code {
            case .typeString, .untypedGroup:
                if token.depth == 0 { topLevelGroups.append(token.start) }
            case .object:
                if token.form == .new {
                    chains.newObject(slot: token.slot)
                    if root == nil, token.depth == 0 { root = token.slot }
                }
            case .classLink:
                if let found = chains.check(token, in: bytes) { fail(found) }
            default:
                break
            }
            return true
        }

        mutating func fail(_ found: WireError) {
            if error == nil { error = found }
        }
    }

    // MARK: - The object table

    /// The number of object-table slots (objects, classes and C strings).
    public var slotCount: Int { reader.slotEntries.count }

    /// Where the item in `slot` (which exists) starts.
    private func start(ofSlot slot: Int) -> Int { Int(reader.slotEntries[slot].offset) }

    /// What slot `slot` holds, `nil` when there is no such slot.
    public func kind(ofSlot slot: Int) -> SlotKind? {
        reader.kind(ofSlot: slot)
    }

    /// The byte offset where the item in `slot` starts.
    public func offset(ofSlot slot: Int) -> Int? {
        slot >= 0 && slot < slotCount ? start(ofSlot: slot) : nil
    }

    /// The class slot of the object in `slot`, `nil` when `slot` is not an object.
    public func classSlot(ofObject slot: Int) -> Int? {
        guard kind(ofSlot: slot) == .object else { return nil }
        // The class link follows the object's `0x84`.
        return link(at: start(ofSlot: slot) + 1, nextSlot: slot + 1, skippingClass: false)
    }

    /// The superclass slot of the class in `slot`, `nil` for a root class or when `slot` is
    /// not a class.
    public func superclassSlot(ofClass slot: Int) -> Int? {
        guard kind(ofSlot: slot) == .class else { return nil }
        // The superclass link follows the class's own link (name and version).
        return link(at: start(ofSlot: slot), nextSlot: slot, skippingClass: true)
    }

    /// Re-reads the class link at `offset` (after skipping one new class link there when
    /// `skippingClass`) and returns the slot it names: a new class's or a referenced one's.
    private func link(at offset: Int, nextSlot: Int, skippingClass: Bool) -> Int? {
        var part = partReader(at: offset, nextSlot: nextSlot)
        if skippingClass {
            guard (try? part.readClassLink())?.form == .new else { return nil }
        }
        guard let link = try? part.readClassLink(), link.form != .null else { return nil }
        return link.slot
    }

    /// The name of the class in `slot`, or the text of the C string in `slot`.
    public func text(ofSlot slot: Int) -> ArraySlice<UInt8>? { reader.text(ofSlot: slot) }

    /// The class name of the object in `slot`.
    public func className(ofObject slot: Int) -> String? {
        classSlot(ofObject: slot).flatMap { text(ofSlot: $0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The class names of the object in `slot`, its own class first, then its superclasses.
    public func classChain(ofObject slot: Int) -> [String] {
        var names: [String] = []
        var current = classSlot(ofObject: slot)
        while let c = current, names.count < slotCount, let name = text(ofSlot: c) {
            names.append(String(decoding: name, as: UTF8.self))
            current = superclassSlot(ofClass: c)
        }
        return names
    }

    /// The class chain of the object in `slot` as links (name and version), its own class
    /// first; stops at a class met twice.
    public func classLinks(ofObject slot: Int) -> [ArchiveClassLink] {
        var links: [ArchiveClassLink] = []
        var seen: Set<Int> = []
        var current = classSlot(ofObject: slot)
        while let c = current, seen.insert(c).inserted, let name = text(ofSlot: c) {
            var part = partReader(at: start(ofSlot: c), nextSlot: c)
            guard let link = try? part.readClassLink(), link.form == .new else { break }
            links.append(ArchiveClassLink(String(decoding: name, as: UTF8.self), version: link.value))
            current = superclassSlot(ofClass: c)
        }
        return links
    }

    /// The number of entries in the shared-string table (literal shared strings).
    public var sharedStringCount: Int { reader.sharedStringRanges.count }

    // MARK: - Writing

    /// Writes the archive again from the index: every token is read again and encoded anew by
    /// ``TokenWriter`` with its recorded wire decisions (nothing is copied as a block), in
    /// `byteOrder` — by default the archive's own, which gives back the same bytes.
    public func write(byteOrder: ByteOrder? = nil) throws(WireError) -> [UInt8] {
        var again = TokenReader(bytes: bytes, limits: reader.limits, compiled: reader.compiledTypeStrings)
        var header = self.header
        if let byteOrder { header.byteOrder = byteOrder }
        var transcoder = Transcoder(source: bytes, header: header)
        transcoder.writer = TokenWriter(capacity: bytes.count)
        try again.readToEnd(into: &transcoder)
        if let error = transcoder.error { throw error }
        return transcoder.writer.bytes
    }

    /// Writes each token it is given; the header as `header` says.
    private struct Transcoder: CompactTokenVisitor {
        let source: [UInt8]
        let header: StreamHeader
        var writer = TokenWriter()
        var error: WireError?

        @inline(__always)
        mutating func visit(_ token: CompactToken) -> Bool {
            do {
                if token.code == .header {
                    try writer.write(.header(header))
                } else {
                    try writer.write(token, from: source)
                }
                return true
            } catch {
                self.error = error
                return false
            }
        }
    }

    // MARK: - Reading parts again

    /// A token reader over the object in `slot` alone: its `new` token, class chain, groups
    /// (with every nested object) and end-of-object marker; then `nil`. Slot numbers,
    /// shared-string numbers and offsets in its tokens are those of the whole archive; depths
    /// count from the object (its `new` token has depth 0). Empty when `slot` is not an object.
    public func tokens(ofObject slot: Int) -> TokenReader {
        guard kind(ofSlot: slot) == .object else { return partReader(at: bytes.count, nextSlot: slotCount) }
        let start = start(ofSlot: slot)
        // The object's head comes first; the frames for its chain and contents follow it.
        var part = partReader(at: start + 1, nextSlot: slot)
        part.top = TokenReader.Frame(kind: .singleObject)
        guard let head = try? part.readObject(head: HeadByte.new, at: start) else {
            part.offset = part.bytes.count
            return part
        }
        part.pending = head
        return part
    }

    /// A reader of the archive again from `offset`, the end of its header: the index's tables
    /// complete (shared with it, not copied), each new item checked against them rather than
    /// appended. What the streaming ``Unarchiver`` reads with.
    func rereader(fromHeaderEnd offset: Int) -> TokenReader {
        partReader(at: offset, nextSlot: 0)
    }

    /// The link that defined the class in `slot` and the link after it (its superclass: nil,
    /// a reference, or a new class); `nil` when `slot` is not a class.
    func classLinks(ofClass slot: Int) -> (link: CompactToken, superclass: CompactToken)? {
        guard kind(ofSlot: slot) == .class else { return nil }
        var part = partReader(at: start(ofSlot: slot), nextSlot: slot)
        guard let link = try? part.readClassLink(), link.form == .new, let superclass = try? part.readClassLink() else { return nil }
        return (link, superclass)
    }

    /// The token that defined the C string in `slot` (form `new`, its text fields set); `nil`
    /// when `slot` is not a C string.
    func cStringToken(ofSlot slot: Int) -> CompactToken? {
        guard kind(ofSlot: slot) == .cString else { return nil }
        let start = start(ofSlot: slot)
        // The C string's `0x84` takes the slot; its text (a shared string) follows.
        var part = partReader(at: start + 1, nextSlot: slot + 1)
        var token = CompactToken(.cString, start: start, end: start, depth: 0)
        guard (try? part.readSharedString(into: &token, what: "the text of a C string", allowNil: false)) == true else { return nil }
        token.form = .new
        token.slot = slot
        token.end = part.offset
        return token
    }

    /// The reader as it was at the end (tables complete), set to read again from `offset`,
    /// where the next new item takes object-table slot `nextSlot`: nothing open, nothing pending.
    private func partReader(at offset: Int, nextSlot: Int) -> TokenReader {
        var part = reader
        part.offset = offset
        part.nextSlot = nextSlot
        part.nextSharedString = literalsBefore(offset)
        part.frames = []
        part.top = TokenReader.Frame(kind: .topLevel)
        part.nesting = 0
        part.pending = nil
        part.emptyValues = 0
        return part
    }

    /// Moves `reader` — a reader of this archive's parts that has just read the `new` token of
    /// an object — over that object's class chain and groups, to its end-of-object marker at
    /// `marker`, as if it had read them: the slots and literal shared strings they take are
    /// counted as taken. The archive was checked whole, so nothing in between needs checking
    /// again. Does nothing when `reader` is not just past a `new` object token or no
    /// end-of-object marker is at `marker` (the reader then reads the object's tokens).
    func passOverObject(endingAt marker: Int, reader: inout TokenReader) {
        guard reader.top.kind == .objectClassChain, reader.pending == nil, marker >= reader.offset,
              marker < bytes.count, bytes[marker] == HeadByte.endOfObject else { return }
        reader.offset = marker
        reader.nextSlot = slotsBefore(marker)
        reader.nextSharedString = literalsBefore(marker)
        reader.top = TokenReader.Frame(kind: .objectContents)
    }

    /// The number of object-table slots taken before `offset` (whose first byte is earlier).
    private func slotsBefore(_ offset: Int) -> Int {
        let entries = reader.slotEntries
        return entries.indices.partitionPoint { Int(entries[$0].offset) < offset }
    }

    /// The number of literal shared strings written before `offset` (whose text ends there or
    /// earlier; an empty text counts too).
    private func literalsBefore(_ offset: Int) -> Int {
        reader.sharedStringRanges.partitionPoint { $0.upperBound <= offset }
    }
}
