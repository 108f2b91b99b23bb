import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

/// Writes an archive as an indented tree for people: one object per line with its class chain
/// and versions, its values beneath it, references as `→ #n`.
///
/// ```
/// "@" #0 NSMutableArray v0 : NSArray v0 : NSObject v0
///   "i" 2
///   "@" #3 NSString v1 : NSObject v0
///     "+" "first"
///   "@" → #3 NSString
/// ```
///
/// Fonts, colours and RTF bytes also get a readable form (``ReadableValues``): `= NSFont
/// "LucidaGrande" 13` after the object's class chain (and in place of the class name where it
/// is referred to again: `→ #12 NSFont "LucidaGrande" 13`), a line `RTF text: "…"` beneath RTF
/// bytes, and a colour list's names and colours after the tree. With `--deep`, bytes that hold
/// an archive or a property list show it beneath them (``NestedTree``).
///
/// Object numbers are the object-table slots of the archive (what references use), so they
/// match `typedstream tokens` and `inspect`.
///
/// The tree is written as the archive's tokens are read again from a checked ``ArchiveIndex``,
/// straight into an ``OutputWriter``: nothing of the output is kept, and no call recurses on
/// the archive's nesting. Text the archive holds once but the tree would repeat at every use is
/// written out once (see ``OutputLimits``): a type string longer than
/// ``OutputLimits/longTypeString`` bytes appears in full at its first group and as its first 64
/// bytes after (`"{?=iiii…" (type string of 1048576 bytes, shared string #3, written out in
/// full earlier)`); a class chain whose text from some class on is longer than
/// ``OutputLimits/longClassChain`` bytes stops at that class once it has been written out
/// (`Foo v1 : … (class #12 and its 4999 superclasses, written out in full earlier)`). So the
/// output grows at most linearly with the input.
///
/// ```swift
/// let index = try ArchiveIndex(bytes: bytes)
/// var out = OutputWriter(sink: FileDescriptorOutput.standardOutput)
/// ArchiveTree.write(index, to: &out)
/// out.flush()
/// ```
public enum ArchiveTree {
    /// How much to show.
    public struct Options: Sendable {
        /// Longest string or data preview, in characters. Default 120.
        public var previewLength = 120
        /// Deepest object nesting printed; deeper objects print as `…`. Default 256.
        public var maximumDepth = 256
        /// When repeated text is abbreviated.
        public var limits = OutputLimits.default
        /// Decode archives and property lists held as bytes in place, within these limits
        /// (`--deep`, ``NestedTree``). Default
        /// `nil`: bytes are shown as bytes.
        public var nestedArchives: NestedArchives?
        /// Spaces before every line (a nested archive's tree is indented under its bytes).
        var indent = 0
        /// How deep this archive is nested (0: the file itself).
        var nestingDepth = 0
        /// Creates the defaults.
        public init() {}
    }

    /// Writes the tree of the archive `index` was built from to `out`, line by line; stops
    /// early when `out` fails.
    public static func write(_ index: ArchiveIndex, options: Options = Options(), to out: inout OutputWriter) {
        var writer = ArchiveTreeWriter(index: index, options: options)
        writer.run(&out)
        if !out.failed, let list = ReadableValues.colorList(index) { writeColorList(list, indent: options.indent, to: &out) }
    }

    /// `colour list: 2 colours` and one line per entry: `  "Red" NSColor calibratedRGB 1 0 0 1`.
    static func writeColorList(_ list: ColorListDocument, indent: Int = 0, to out: inout OutputWriter) {
        out.appendSpaces(indent)
        out.append("colour list: \(list.entries.count) colour\(list.entries.count == 1 ? "" : "s")\n")
        for entry in list.entries {
            out.appendSpaces(indent)
            out.append("  \(ReadableValues.quoted(entry.name)) NSColor \(ReadableValues.colorText(entry.color))\n")
        }
    }

    /// The integer as its type reads it: unsigned types reinterpret the sign-extended value.
    static func integerText(_ v: Int64, _ type: ObjCType?) -> String {
        switch type?.unqualified {
        case .unsignedShort?: return "\(UInt16(truncatingIfNeeded: v))"
        case .unsignedInt?, .unsignedLong?: return "\(UInt32(truncatingIfNeeded: v))"
        case .unsignedLongLong?: return "\(UInt64(bitPattern: v))"
        default: return "\(v)"
        }
    }
}

/// One run of ``ArchiveTree``: reads tokens (from the start, and again from the index for an
/// object first met at a reference) and writes lines, with an explicit stack for the nesting.
struct ArchiveTreeWriter {
    /// What the next value belongs to, innermost last.
    private enum Frame {
        /// The top level or an object's groups: groups start at `depth`. `object` is the
        /// object's slot when its groups have field names (−1 otherwise), `nextGroup` the index
        /// of its next group.
        case groups(depth: Int, object: Int = -1, nextGroup: Int = 0)
        /// A group's values: one value written after the type (`single`), or each value on its
        /// own line at `depth + 1`; `names` are the values' field names, if known.
        case group(depth: Int, single: Bool, prefix: Prefix, types: [ObjCType], next: Int, names: [ClassLayout.Field])
        /// An array's elements, at `depth`.
        case array(depth: Int, element: ObjCType?)
        /// A struct's fields, at `depth`; its closing brace one level out.
        case structure(depth: Int, fields: [ObjCType], next: Int)
        /// One value met at a reference (an object shown where it is first referred to).
        case slot(depth: Int, prefix: Prefix, type: ObjCType?, name: String?)
        /// The contents of an object not shown (past the depth limit, or shown already), until
        /// its end; `nested` counts the objects opened inside it.
        case skip(nested: Int)
    }

    /// What a value's line starts with.
    private enum Prefix {
        case none
        case untyped
        case typeString(index: Int, text: Range<Int>)
    }

    private let index: ArchiveIndex
    private let bytes: [UInt8]
    let options: ArchiveTree.Options
    /// Readers of tokens, innermost last: the whole archive, then objects shown at references.
    private var readers: [TokenReader] = []
    /// For each reader after the first, the number of frames when it started.
    private var readerFrameCounts: [Int] = []
    private var frames: [Frame] = []

    /// Per object-table slot: whether the object there has been shown.
    private var shown: [UInt64]
    /// Per class slot: its version and superclass slot (−1: none).
    private var classes: [Int: (version: Int64, superclass: Int)] = [:]
    /// The class link read last, still waiting to learn its superclass.
    private var linkAwaitingSuperclass: Int?
    /// Per object-table slot: the class slot of the object there (−1: not an object).
    private var objectClasses: [Int32]
    /// The new object read last, still waiting for its first class link.
    private var objectAwaitingClass: Int?
    /// Per class slot: the number of classes and bytes of text in its chain from it on.
    private var chainSizes: [Int: (classes: Int, bytes: Int)] = [:]
    /// Class slots whose long chain has been written out from them on.
    private var chainsWritten: Set<Int> = []
    /// Chain texts of classes whose chain is short, as written.
    private var chainTexts: [Int: [UInt8]] = [:]
    /// The class slot and text of the chain written last from ``chainTexts``.
    private var lastChainText: (slot: Int, text: [UInt8])?
    /// Per type string, by the offset of its text: its group's types without qualifiers.
    private var unqualifiedGroupTypes: [Int: [ObjCType]] = [:]
    /// The type string (by the offset of its text) and types of the group started last.
    private var lastGroupTypes: (payloadStart: Int, types: [ObjCType])?
    /// Shared strings used as long type strings that have been written out in full.
    private var typeStringsWritten: Set<Int> = []
    /// The field names of the objects of catalogued classes (`nil` when the archive has none).
    private let names: ArchiveLayoutNames?
    /// Decodes the objects that get a readable form; made at the first one.
    private var readableContext: PlainJSONContext?
    /// The readable forms made so far, by object slot (`nil` values: objects without one).
    private var readableTexts: [Int: String?] = [:]

    init(index: ArchiveIndex, options: ArchiveTree.Options) {
        self.index = index
        self.bytes = index.bytes
        self.options = options
        shown = Array(repeating: 0, count: (index.slotCount + 63) / 64)
        objectClasses = Array(repeating: -1, count: index.slotCount)
        let catalogued = (0..<index.slotCount).contains { slot in
            index.kind(ofSlot: slot) == .class && index.text(ofSlot: slot).map {
                ClassLayouts.describes(String(decoding: $0, as: UTF8.self))
            } == true
        }
        names = catalogued ? ArchiveLayoutNames(index: index) : nil
    }

    mutating func run(_ out: inout OutputWriter) {
        let h = index.header
        out.appendSpaces(options.indent)
        out.append("typedstream v")
        out.appendDecimal(Int(h.streamerVersion))
        out.append(h.byteOrder == .big ? ", big-endian, system version " : ", little-endian, system version ")
        out.appendDecimal(h.systemVersion.value)
        out.append(0x0A)
        readers = [TokenReader(bytes: bytes)]
        frames = [.groups(depth: 0)]
        while !out.failed, !readers.isEmpty {
            let token: CompactToken?
            do throws(WireError) {
                token = try readers[readers.count - 1].nextCompact()
            } catch {
                // The index checked these bytes, so a second reading cannot fail.
                return
            }
            guard let token else {
                readers.removeLast()
                if let count = readerFrameCounts.popLast() { frames.removeSubrange(min(count, frames.count)...) }
                continue
            }
            handle(token, &out)
        }
    }

    // MARK: - Tokens

    private mutating func handle(_ token: CompactToken, _ out: inout OutputWriter) {
        if token.code == .classLink {
            noteClassLink(token)
        } else if token.code == .object, token.form == .new {
            objectAwaitingClass = token.slot
        }
        if case .skip(let nested)? = frames.last {
            switch token.code {
            case .object where token.form == .new: frames[frames.count - 1] = .skip(nested: nested + 1)
            case .endOfObject:
                if nested == 0 { frames.removeLast() } else { frames[frames.count - 1] = .skip(nested: nested - 1) }
            default: break
            }
            return
        }
        switch token.code {
        case .header, .instanceSize:
            break
        case .typeString:
            startGroup(prefix: .typeString(index: token.textIndex, text: token.payload), types: groupTypes(token), &out)
        case .untypedGroup:
            startGroup(prefix: .untyped, types: Self.untypedGroupTypes, &out)
        case .endOfObject:
            while let frame = frames.popLast() {
                if case .groups = frame { break }
            }
        case .arrayEnd:
            while let frame = frames.popLast() {
                if case .array = frame { break }
            }
        case .structEnd:
            while let frame = frames.popLast() {
                if case .structure(let depth, _, _) = frame {
                    out.appendSpaces(options.indent + 2 * (depth - 1))
                    out.append("}\n")
                    break
                }
            }
        default:
            value(token, &out)
        }
    }

    /// Records what a class link says: a new class's version, the superclass of the link read
    /// before it, the class of the object read before it.
    private mutating func noteClassLink(_ token: CompactToken) {
        let target = token.form == .null ? -1 : token.slot
        if let object = objectAwaitingClass {
            if object >= 0, object < objectClasses.count { objectClasses[object] = Int32(truncatingIfNeeded: target) }
            objectAwaitingClass = nil
        }
        if let previous = linkAwaitingSuperclass, var entry = classes[previous] {
            entry.superclass = target
            classes[previous] = entry
        }
        linkAwaitingSuperclass = nil
        if token.form == .new, classes[token.slot] == nil {
            classes[token.slot] = (token.value, -1)
            linkAwaitingSuperclass = token.slot
        }
    }

    /// The types of a streamer-3 group without a type string: one object.
    private static let untypedGroupTypes: [ObjCType] = [.object(className: nil)]

    /// The types of the group the type string `token` starts, without qualifiers; worked out
    /// once per type string (by where its text lies), not at every group.
    private mutating func groupTypes(_ token: CompactToken) -> [ObjCType] {
        // Most groups repeat the type string of the group before them (every element of an array).
        if let last = lastGroupTypes, last.payloadStart == token.payloadStart { return last.types }
        let types: [ObjCType]
        if let known = unqualifiedGroupTypes[token.payloadStart] {
            types = known
        } else {
            types = (readers[readers.count - 1].types(ofSharedString: token.textIndex) ?? []).map(\.unqualified)
            unqualifiedGroupTypes[token.payloadStart] = types
        }
        lastGroupTypes = (token.payloadStart, types)
        return types
    }

    /// Starts a group of values of `types` (without qualifiers).
    private mutating func startGroup(prefix: Prefix, types: [ObjCType], _ out: inout OutputWriter) {
        // The previous group of the same object (or the top level) is complete.
        while let last = frames.last {
            if case .groups = last { break }
            if case .slot = last { break }
            frames.removeLast()
        }
        guard case .groups(let depth, let object, let nextGroup)? = frames.last else { return }
        var fields: [ClassLayout.Field] = []
        if object >= 0 {
            frames[frames.count - 1] = .groups(depth: depth, object: object, nextGroup: nextGroup + 1)
            if let match = names?.matches[object], nextGroup < match.groups.count { fields = match.groups[nextGroup].fields }
        }
        let single = types.count == 1
        if !single {
            out.appendSpaces(options.indent + 2 * depth)
            writePrefix(prefix, &out)
            out.append(0x0A)
        }
        frames.append(.group(depth: depth, single: single, prefix: prefix, types: types, next: 0, names: fields))
    }

    /// The depth, prefix, type and field name of the next value.
    private mutating func takeSlot() -> (depth: Int, prefix: Prefix, type: ObjCType?, name: String?) {
        guard let top = frames.last else { return (0, .none, nil, nil) }
        switch top {
        case .group(let depth, let single, let prefix, let types, let next, let names):
            frames[frames.count - 1] = .group(depth: depth, single: single, prefix: prefix, types: types, next: next + 1, names: names)
            let type = next < types.count ? types[next] : nil
            let name = next < names.count ? names[next].name : nil
            return single ? (depth, prefix, type, name) : (depth + 1, .none, type, name)
        case .array(let depth, let element):
            return (depth, .none, element, nil)
        case .structure(let depth, let fields, let next):
            frames[frames.count - 1] = .structure(depth: depth, fields: fields, next: next + 1)
            return (depth, .none, next < fields.count ? fields[next].unqualified : nil, nil)
        case .slot(let depth, let prefix, let type, let name):
            frames[frames.count - 1] = .groups(depth: depth)
            return (depth, prefix, type, name)
        case .groups(let depth, _, _):
            return (depth, .none, nil, nil)
        case .skip:
            return (0, .none, nil, nil)
        }
    }

    private mutating func writePrefix(_ prefix: Prefix, _ out: inout OutputWriter) {
        switch prefix {
        case .none: break
        case .untyped: out.append("(untyped)")
        case .typeString(let index, let text): writeTypeString(index, text, &out)
        }
    }

    /// Starts a value's line: indentation, the group's type string (for a one-value group),
    /// the value's field name (`title: `).
    private mutating func lead(_ depth: Int, _ prefix: Prefix, _ name: String?, _ out: inout OutputWriter) {
        out.appendSpaces(options.indent + 2 * depth)
        switch prefix {
        case .none: break
        case .untyped: out.append("(untyped) ")
        case .typeString(let index, let text):
            writeTypeString(index, text, &out)
            out.append(0x20)
        }
        if let name {
            out.append(name)
            out.append(": ")
        }
    }

    /// `"{?=ffff}"`, or for a long type string written out before, its start and its size.
    private mutating func writeTypeString(_ index: Int, _ text: Range<Int>, _ out: inout OutputWriter) {
        out.append(UInt8(ascii: "\""))
        if text.count > options.limits.longTypeString, !typeStringsWritten.insert(index).inserted {
            var shown = text.lowerBound + 64
            while shown > text.lowerBound, shown < text.upperBound, bytes[shown] & 0xC0 == 0x80 { shown -= 1 }
            out.appendLossy(bytes[text.lowerBound..<shown])
            out.append("…\" (type string of ")
            out.appendDecimal(text.count)
            out.append(" bytes, shared string #")
            out.appendDecimal(index)
            out.append(", written out in full earlier)")
            return
        }
        out.appendLossy(bytes[text])
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Values

    private mutating func value(_ token: CompactToken, _ out: inout OutputWriter) {
        let (depth, prefix, type, name) = takeSlot()
        if token.code == .object, token.form == .new {
            return newObject(token, depth: depth, prefix: prefix, name: name, &out)
        }
        if token.code == .object, token.form == .reference, index.kind(ofSlot: token.slot) == .object, !isShown(token.slot) {
            // First met here: its definition was inside an object not shown. Show it now, read
            // again from the index.
            frames.append(.slot(depth: depth, prefix: prefix, type: type, name: name))
            readerFrameCounts.append(frames.count - 1)
            readers.append(index.tokens(ofObject: token.slot))
            return
        }
        lead(depth, prefix, name, &out)
        var nestedTree: NestedTree.Pending?
        defer {
            // Bounded: each nested tree is one level deeper, and NestedArchives stops at its maximum.
            if let nestedTree { NestedTree.write(nestedTree, to: &out) }
        }
        switch token.code {
        case .integer:
            out.append(ArchiveTree.integerText(token.value, type))
        case .float:
            let x = token.form == .ieee ? Float(bitPattern: UInt32(truncatingIfNeeded: token.value)) : Float(token.value)
            out.append("\(x)")
        case .double:
            let x = token.form == .ieee ? Double(bitPattern: UInt64(bitPattern: token.value)) : Double(token.value)
            out.append("\(x)")
        case .byte:
            let b = UInt8(truncatingIfNeeded: token.value)
            if type == .unsignedChar || type == .bool { out.appendDecimal(Int(b)) } else { out.appendDecimal(Int(Int8(bitPattern: b))) }
            if b >= 0x80 {
                out.append(" (0x")
                out.appendHex(UInt64(b), digits: 2)
                out.append(")")
            }
        case .rawBytes:
            let payload = bytes[token.payload]
            out.append("<")
            out.appendDecimal(payload.count)
            out.append(" bytes: ")
            var first = true
            for b in payload.prefix(16) {
                if !first { out.append(0x20) }
                first = false
                out.appendHex(UInt64(b), digits: 2)
            }
            if payload.count > 16 { out.append(" …") }
            out.append(">")
            if let text = ReadableValues.rtfText(payload) {
                out.append(0x0A)
                out.appendSpaces(options.indent + 2 * (depth + 1))
                out.append("RTF text: ")
                preview(ArraySlice(text.utf8), limit: 8 * options.previewLength, &out)
            }
            if let nested = options.nestedArchives {
                nestedTree = NestedTree.header(payload, budget: nested, options: options, indent: options.indent + 2 * (depth + 1), &out)
            }
        case .unsharedString, .sharedString:
            if token.form == .null { out.append("NULL") } else { preview(bytes[token.payload], &out) }
        case .cString:
            switch token.form {
            case .null: out.append("NULL")
            case .reference:
                out.append("C string ")
                preview(index.text(ofSlot: token.slot) ?? [], &out)
            default:
                out.append("C string ")
                preview(bytes[token.payload], &out)
            }
        case .classLink:
            switch token.form {
            case .null:
                out.append("Nil")
            case .reference:
                out.append("class ")
                writeChain(token.slot, &out)
            default:
                readChain()
                out.append("class ")
                writeChain(token.slot, &out)
            }
        case .ignored:
            out.append("(ignored)")
        case .arrayStart:
            out.append("[")
            out.appendDecimal(token.value)
            out.append(" elements]")
            var element: ObjCType? = nil
            if case .array(_, let e)? = type { element = e.unqualified }
            frames.append(.array(depth: depth + 1, element: element))
        case .structStart:
            out.append("{")
            var fields: [ObjCType] = []
            if case .structure(_, let f)? = type { fields = f.map(\.type) }
            frames.append(.structure(depth: depth + 1, fields: fields, next: 0))
        case .object:
            if token.form == .null {
                out.append("nil")
            } else if index.kind(ofSlot: token.slot) == .class {
                out.append("→ class ")
                writeChain(token.slot, &out)
            } else {
                writeReference(token.slot, &out)
            }
        default:
            break
        }
        out.append(0x0A)
    }

    private mutating func newObject(_ token: CompactToken, depth: Int, prefix: Prefix, name: String?, _ out: inout OutputWriter) {
        readChain()
        let n = token.slot
        lead(depth, prefix, name, &out)
        if isShown(n) {
            writeReference(n, &out)
            out.append(0x0A)
            frames.append(.skip(nested: 0))
            return
        }
        markShown(n)
        out.append("#")
        out.appendDecimal(n)
        out.append(" ")
        guard depth < options.maximumDepth else {
            out.appendLossy(className(ofObject: n))
            out.append(" …\n")
            frames.append(.skip(nested: 0))
            return
        }
        writeChain(classSlot(ofObject: n), &out)
        writeReadable(n, &out)
        out.append(0x0A)
        frames.append(.groups(depth: depth + 1, object: names?.matches[n] == nil ? -1 : n))
    }

    /// Reads the rest of a class chain whose first link (new) was just read.
    private mutating func readChain() {
        while let link = try? readers[readers.count - 1].nextCompact() {
            noteClassLink(link)
            if link.code != .classLink || link.form != .new { break }
        }
    }

    /// ` = NSFont "Helvetica" 12` for a font or colour (``ReadableValues``).
    private mutating func writeReadable(_ slot: Int, _ out: inout OutputWriter) {
        guard let text = readableText(slot) else { return }
        out.append(" = ")
        out.append(text)
    }

    /// `→ #12 NSFont "Helvetica" 12` for a reference to a font or colour (its readable form in
    /// place of the bare class name), `→ #12 NSButton` for any other object.
    private mutating func writeReference(_ slot: Int, _ out: inout OutputWriter) {
        out.append("→ #")
        out.appendDecimal(slot)
        out.append(" ")
        if let text = readableText(slot) { out.append(text) } else { out.appendLossy(className(ofObject: slot)) }
    }

    /// The readable form of the font or colour in `slot` (``ReadableValues/text(_:)``), made
    /// once per object; `nil` for other objects.
    private mutating func readableText(_ slot: Int) -> String? {
        let name = className(ofObject: slot)
        guard ReadableValues.isReadableClass(name) else { return nil }
        if let known = readableTexts[slot] { return known }
        if readableContext == nil { readableContext = PlainJSONContext(index: index) }
        guard let context = readableContext, let object = context.object(slot),
              let typed = context.typedObject(object, registry: .foundation) else { return nil }
        let text = ReadableValues.text(typed)
        readableTexts[slot] = .some(text)
        return text
    }

    // MARK: - Classes

    private func isShown(_ slot: Int) -> Bool {
        slot >= 0 && slot / 64 < shown.count && shown[slot / 64] & (1 << UInt64(slot % 64)) != 0
    }

    private mutating func markShown(_ slot: Int) {
        guard slot >= 0, slot / 64 < shown.count else { return }
        shown[slot / 64] |= 1 << UInt64(slot % 64)
    }

    private func classSlot(ofObject slot: Int) -> Int {
        slot >= 0 && slot < objectClasses.count ? Int(objectClasses[slot]) : -1
    }

    private func className(ofObject slot: Int) -> ArraySlice<UInt8> {
        let c = classSlot(ofObject: slot)
        return c >= 0 ? index.text(ofSlot: c) ?? [] : []
    }

    /// The number of classes and bytes of text (`Name vN`, ` : ` between) of the chain from
    /// class `slot` on; computed once per class, without recursion.
    private mutating func chainSize(_ slot: Int) -> (classes: Int, bytes: Int) {
        if let known = chainSizes[slot] { return known }
        var pending: [Int] = []
        var current = slot
        var guardCount = 0
        while current >= 0, chainSizes[current] == nil, guardCount <= index.slotCount {
            pending.append(current)
            current = classes[current]?.superclass ?? -1
            guardCount += 1
        }
        var next: (classes: Int, bytes: Int) = current >= 0 ? chainSizes[current] ?? (0, 0) : (0, 0)
        for slot in pending.reversed() {
            let own = (index.text(ofSlot: slot)?.count ?? 0) + 2 + Self.decimalLength(classes[slot]?.version ?? 0)
            next = (next.classes + 1, own + (next.classes > 0 ? 3 + next.bytes : 0))
            chainSizes[slot] = next
        }
        return chainSizes[slot] ?? (0, 0)
    }

    private static func decimalLength(_ value: Int64) -> Int {
        var digits = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// `NSMutableArray v0 : NSArray v0 : NSObject v0`, stopping at a class whose long chain has
    /// been written out before.
    private mutating func writeChain(_ slot: Int, _ out: inout OutputWriter) {
        // Objects of one class often come in a row: the chain written last is tried first.
        if let last = lastChainText, last.slot == slot { return out.append(last.text) }
        if let text = chainTexts[slot] {
            lastChainText = (slot, text)
            return out.append(text)
        }
        let size = chainSize(slot)
        if size.bytes <= options.limits.longClassChain {
            var text: [UInt8] = []
            text.reserveCapacity(size.bytes)
            var current = slot
            var links = 0
            while current >= 0, links < size.classes {
                if links > 0 { text.append(contentsOf: " : ".utf8) }
                text.appendLossy(index.text(ofSlot: current) ?? [])
                text.append(contentsOf: " v".utf8)
                text.append(contentsOf: String(classes[current]?.version ?? 0).utf8)
                current = classes[current]?.superclass ?? -1
                links += 1
            }
            if chainTexts.count < 4096 { chainTexts[slot] = text }
            return out.append(text)
        }
        var current = slot
        var links = 0
        while current >= 0, links <= index.slotCount {
            let rest = chainSize(current)
            if rest.bytes > options.limits.longClassChain, chainsWritten.contains(current) {
                if links > 0 { out.append(" : ") }
                out.append("… (class #")
                out.appendDecimal(current)
                out.append(" and its ")
                out.appendDecimal(rest.classes - 1)
                out.append(rest.classes == 2 ? " superclass, written out in full earlier)" : " superclasses, written out in full earlier)")
                return
            }
            if rest.bytes > options.limits.longClassChain { chainsWritten.insert(current) }
            if links > 0 { out.append(" : ") }
            out.appendLossy(index.text(ofSlot: current) ?? [])
            out.append(" v")
            out.appendDecimal(classes[current]?.version ?? 0)
            current = classes[current]?.superclass ?? -1
            links += 1
        }
    }
}
