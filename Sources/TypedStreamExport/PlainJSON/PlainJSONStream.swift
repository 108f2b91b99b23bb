import ObjCTypeEncoding
import TypedStream

/// The archive read once, front to back, for plain JSON: the converter takes the top-level
/// values, and the values of the containers it writes as they are read (``next()``), from one
/// token reader, and holds one value at a time — its tokens, with every object inside it — in a
/// window (``fill(_:)``), from which the views of those objects are made when asked for
/// (``view(_:)``) without reading the bytes again.
///
/// The window keeps, per new object, where its end of object is, so a view is made from the
/// object's own tokens only (the contents of the objects it holds are stepped over). Memory is
/// one value's tokens, 28 bytes each; the window is emptied when the next value is read.
struct PlainJSONStream {
    let index: ArchiveIndex
    /// The archive's tokens, read again in batches.
    private var tokens: ReadAheadTokens
    /// The tokens of the value in the window (a type string's shared-string number in `value`).
    private var items: [PlainItem] = []
    /// Per item: for an object's `new`, the item of its end of object; else 0.
    private var ends: [Int32] = []
    /// The first object-table slot taken in the window.
    private var firstSlot = 0
    /// Per slot from ``firstSlot``: the item of that object's `new`, −1 for none.
    private var starts: [Int32] = []
    /// Open objects while filling: their `new` items (−1 past the limit).
    private var open: [Int32] = []
    /// Whether the object being read into the window passed ``objectTokenLimit``: the rest of
    /// it is read past, and the views of its objects are read again from the bytes.
    private var overflowed = false
    /// Whether the value being read is an object (kept to ``objectTokenLimit`` tokens).
    private var limited = false
    /// The most tokens of an object the window keeps: as many as the archive has bytes (a token
    /// takes at least one), at least 2²⁰ (28 MiB) and at most 2²⁴ (448 MiB). A larger one's
    /// views are read again from the bytes, object by object, which costs about ten times as
    /// much per object as writing it from the window.
    let objectTokenLimit: Int
    /// The window's size from which it makes room at once for the rest of a long object (up to
    /// ``objectTokenLimit`` tokens), rather than doubling (a doubling copies, and holds the old
    /// and new arrays at once).
    static let growthStep = 1 << 20

    /// A stream of `index`'s archive whose window keeps objects of up to `objectTokenLimit`
    /// tokens (`nil`: the default described at ``objectTokenLimit``).
    init(index: ArchiveIndex, objectTokenLimit: Int? = nil) {
        self.index = index
        self.objectTokenLimit = objectTokenLimit ?? max(1 << 20, min(index.bytes.count, 1 << 24))
        tokens = ReadAheadTokens(index: index, batchSize: 512)
    }

    /// The next token of the archive; `nil` at its end.
    @inline(__always)
    mutating func next() -> CompactToken? { tokens.next() }

    /// The token `ahead` places after the next one (0: the next); `nil` past the end. Tokens
    /// looked at this way stay to be read by ``next()`` (or passed over with ``advance(_:)``).
    @inline(__always)
    mutating func peek(_ ahead: Int) -> CompactToken? { tokens.peek(ahead) }

    /// Passes over `count` tokens looked at with ``peek(_:)``.
    @inline(__always)
    mutating func advance(_ count: Int) { tokens.advance(count) }

    /// The types of the type string with shared-string number `textIndex`.
    func types(ofSharedString textIndex: Int) -> [ObjCType] {
        tokens.types(ofSharedString: textIndex) ?? []
    }

    // MARK: - The window

    /// Empties the window.
    mutating func clear() {
        items.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        overflowed = false
        limited = false
    }

    /// Puts the value that starts with `first` in the window (emptied first), reading the rest
    /// of it: an array's or struct's elements to its end, an object's chain and contents to its
    /// end of object, a new class's superclasses.
    mutating func fill(_ first: CompactToken) {
        clear()
        if first.code == .object, first.form == .new {
            limited = true
            append(first)
            readObjectRest()
        } else {
            append(first)
            readValueRest(of: first)
        }
    }

    /// ``fill(_:)`` for an object whose `new` and first class link have been read.
    mutating func fill(object first: CompactToken, link: CompactToken) {
        clear()
        limited = true
        append(first)
        append(link)
        readObjectRest()
    }

    /// Reads past the value that starts with `first` (read into the window, which is emptied).
    mutating func skip(_ first: CompactToken) {
        fill(first)
        clear()
    }

    /// Reads past the rest of an object whose `new` and first class link have been read.
    mutating func skipObjectRest() {
        var depth = 1
        while depth > 0, let token = next() {
            if token.code == .object, token.form == .new { depth += 1 }
            if token.code == .endOfObject { depth -= 1 }
        }
    }

    private mutating func readObjectRest() {
        while !open.isEmpty, let token = next() { append(token) }
    }

    /// Reads the rest of a value that is not an object: to its array's or struct's end, or to
    /// the end of a new class's chain.
    private mutating func readValueRest(of first: CompactToken) {
        switch first.code {
        case .arrayStart, .structStart:
            var aggregates = 1
            while aggregates > 0, let token = next() {
                // Objects inside are read whole with their own arrays; only this level counts.
                let atValueLevel = open.isEmpty
                append(token)
                guard atValueLevel else { continue }
                switch token.code {
                case .arrayStart, .structStart: aggregates += 1
                case .arrayEnd, .structEnd: aggregates -= 1
                default: break
                }
            }
        case .classLink where first.form == .new:
            // A `#` value's superclasses follow a new link, to a reference or nil.
            while let token = next() {
                append(token)
                if token.form != .new { return }
            }
        default:
            return
        }
    }

    @inline(__always)
    private mutating func append(_ token: CompactToken) {
        if limited, overflowed || items.count >= objectTokenLimit {
            // Past the limit only the nesting of objects is followed, to find the value's end.
            if !overflowed {
                // No view is made from an overflowed window: its memory goes now, before the
                // value's views are read again from the bytes.
                overflowed = true
                items = []
                ends = []
                starts = []
            }
            if token.code == .object, token.form == .new { open.append(-1) }
            if token.code == .endOfObject { _ = open.popLast() }
            return
        }
        if items.count == Self.growthStep {
            // The rest of the archive bounds the rest of the value: room for that at once.
            let room = max(items.count, min(objectTokenLimit, items.count + index.bytes.count - token.start))
            items.reserveCapacity(room)
            ends.reserveCapacity(room)
        }
        var item = PlainItem(token)
        if token.code == .typeString { item.value = Int64(token.textIndex) }
        let position = Int32(truncatingIfNeeded: items.count)
        items.append(item)
        ends.append(0)
        switch token.code {
        case .object where token.form == .new:
            if starts.isEmpty { firstSlot = token.slot }
            let place = token.slot - firstSlot
            if place >= 0 {
                if place >= starts.count { starts.append(contentsOf: repeatElement(-1, count: place + 1 - starts.count)) }
                starts[place] = position
            }
            open.append(position)
        case .endOfObject:
            if let start = open.popLast(), start >= 0 { ends[Int(start)] = position }
        default:
            break
        }
    }

    // MARK: - Views

    /// The view of the object in `slot` when its `new` is in the window; else `nil`.
    func view(_ slot: Int) -> PlainJSONObject? {
        let place = slot - firstSlot
        guard !overflowed, !starts.isEmpty, place >= 0, place < starts.count, starts[place] >= 0 else { return nil }
        let start = Int(starts[place])
        var builder = PlainJSONObject.Builder(slot: slot)
        // Room for its groups and values at once (its own tokens bound both).
        var groups = 0, own = 0
        var j = start + 1
        while j < min(Int(ends[start]), items.count) {
            if items[j].code == .typeString || items[j].code == .untypedGroup { groups += 1 } else { own += 1 }
            j = items[j].code == .object && items[j].form == .new && ends[j] > Int32(j) ? Int(ends[j]) + 1 : j + 1
        }
        builder.reserve(groups: groups, items: own)
        var i = start
        while i < items.count {
            let item = items[i]
            builder.feed(item, item.code == .typeString ? types(ofSharedString: Int(item.value)) : [], index)
            if builder.isDone { break }
            // An object inside: on to its end of object, which closes it for the builder.
            if i != start, item.code == .object, item.form == .new, ends[i] > Int32(i) {
                i = Int(ends[i])
            } else {
                i += 1
            }
        }
        return builder.object(index)
    }

    /// Where the `new` of the object in `slot` is in the window (for ``item(_:)``); `nil` when
    /// it is not there or the window overflowed.
    func start(ofSlot slot: Int) -> Int? {
        let place = slot - firstSlot
        guard !overflowed, place >= 0, place < starts.count, starts[place] >= 0 else { return nil }
        return Int(starts[place])
    }

    /// For the `new` of an object at `position` of the window: where its end of object is (0
    /// when not read).
    @inline(__always)
    func end(ofNew position: Int) -> Int {
        Int(ends[position])
    }

    /// The item at `position` of the window; `nil` past its end.
    @inline(__always)
    func item(_ position: Int) -> PlainItem? {
        position < items.count ? items[position] : nil
    }

    /// The value in the window as the only value of a one-group object: its own tokens, the
    /// contents of the objects in it stepped over (as ``PlainJSONObject/items`` holds them).
    func valueItems() -> [PlainItem] {
        var own: [PlainItem] = []
        var i = 0
        // Reading past the superclasses of a `#` value (as ``PlainJSONObject/Builder`` does).
        var inValueChain = false
        while i < items.count {
            let item = items[i]
            if inValueChain {
                if item.code == .classLink {
                    if item.form != .new { inValueChain = false }
                    i += 1
                    continue
                }
                inValueChain = false
            }
            own.append(item)
            if item.code == .object, item.form == .new, ends[i] > Int32(i) {
                i = Int(ends[i]) + 1
            } else {
                if item.code == .classLink, item.form == .new { inValueChain = true }
                i += 1
            }
        }
        return own
    }
}
