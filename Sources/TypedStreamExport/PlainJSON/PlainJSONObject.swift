import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

/// One object of an archive as plain JSON sees it: its class and the values of its groups,
/// with the objects it holds named by their object-table number, not opened.
///
/// A ``PlainJSON/NaturalValue`` hook is handed one to decide, from the class and the shape of
/// the groups, what to write instead of the generic `{"$class", "$id", "contents"}` form.
/// It is read again from the archive's bytes when needed and kept only while its object is
/// being written.
public struct PlainJSONObject: Sendable {
    /// The object's object-table number (`#n` in `decode` and `tokens`).
    public let slot: Int
    /// The object-table number of its class.
    public let classSlot: Int
    /// Its class name as bytes.
    public let classNameBytes: ArraySlice<UInt8>
    /// Its groups, in order.
    public let groups: [Group]
    /// The values of all groups, in order: leaves, array and struct markers, objects.
    let items: [PlainItem]

    /// Its class name (bytes that are not UTF-8 decoded with replacement characters).
    public var className: String { String(decoding: classNameBytes, as: UTF8.self) }

    /// One group: its type string and types, and where its values are.
    public struct Group: Sendable {
        /// The type string, `nil` for a streamer-3 object written without one.
        public let typeString: ArraySlice<UInt8>?
        /// The types the type string splits into, one per value (`[@]` when untyped).
        public let types: [ObjCType]
        /// Its values in the object's item list.
        let items: Range<Int>

        /// The type string as text (`"@"` when untyped).
        public var typeText: String { typeString.map { String(decoding: $0, as: UTF8.self) } ?? "@" }
        /// The number of values.
        public var valueCount: Int { types.count }
    }
}

/// One token of an object's own values, reduced to what plain JSON needs.
struct PlainItem: Sendable {
    // (Widest first, so an item takes 24 bytes.)
    /// Its integer value, real bit pattern, byte or element count.
    var value: Int64 = 0
    /// The object-table slot it takes or refers to (objects, classes, C strings).
    var slot: Int32 = 0
    /// Its text or bytes in the input (strings, C strings, raw bytes).
    var payloadStart: Int32 = 0
    var payloadEnd: Int32 = 0
    /// What it is.
    var code: CompactToken.Code
    /// How it was written (nil, new, reference; a real's form).
    var form: CompactToken.Form

    init(_ token: CompactToken) {
        code = token.code
        form = token.form
        value = token.value
        slot = Int32(truncatingIfNeeded: token.slot)
        payloadStart = Int32(truncatingIfNeeded: token.payloadStart)
        payloadEnd = Int32(truncatingIfNeeded: token.payloadEnd)
    }

    var payload: Range<Int> { Int(payloadStart)..<Int(payloadEnd) }

    /// An item that stands for no token (an `ignored` one).
    static let empty = PlainItem(code: .ignored, form: .none)

    private init(code: CompactToken.Code, form: CompactToken.Form) {
        self.code = code
        self.form = form
    }
}

extension PlainJSONObject {
    /// Reads the object in `slot` again from `index`: its groups and its own values. The
    /// objects inside it are read past (they are written from their own reading), except that
    /// the views of its first `childLimit` objects are made on the way and handed to `children`
    /// (a child is read in the same pass as its parent). Returns `nil` when `slot` is not an
    /// object.
    static func read(slot: Int, from index: ArchiveIndex, childLimit: Int = 0,
                     children: (PlainJSONObject) -> Void = { _ in }) -> PlainJSONObject? {
        guard index.kind(ofSlot: slot) == .object else { return nil }
        var reader = index.tokens(ofObject: slot)
        var me = Builder(slot: slot)
        var child: Builder?
        var childrenMade = 0
        while let token = try? reader.nextCompact() {
            // A group's types, looked up only when a builder takes the group (not for every
            // token, and without handing the reader itself over).
            let types = token.code == .typeString && (me.nested == 0 || child?.nested == 0)
                ? reader.types(ofSharedString: token.textIndex) ?? [] : []
            if child != nil {
                child!.feed(PlainItem(token), types, index)
                if child!.isDone {
                    children(child!.object(index))
                    child = nil
                }
            }
            let wasOpen = me.nested
            me.feed(PlainItem(token), types, index)
            if me.isDone { return me.object(index) }
            if token.code == .object, token.form == .new, wasOpen == 0, me.nested == 1, childrenMade < childLimit {
                var made = Builder(slot: token.slot)
                made.feed(PlainItem(token), [], index)
                child = made
                childrenMade += 1
            }
        }
        return me.object(index)
    }

    /// Makes a ``PlainJSONObject`` from the tokens of its object, fed one by one from its `new`.
    struct Builder {
        private enum State { case start, chain, body, done }
        let slot: Int
        private var state = State.start
        private var classSlot = -1
        private var groups: [Group] = []
        private var items: [PlainItem] = []
        private var groupStart = 0
        private var groupType: ArraySlice<UInt8>?? = nil
        private var groupTypes: [ObjCType] = []
        /// Objects opened inside this one whose contents are being read past.
        private(set) var nested = 0
        /// Reading past the superclasses of a `#` value.
        private var inValueChain = false

        init(slot: Int) { self.slot = slot }

        var isDone: Bool { state == .done }

        /// Makes room for `groups` groups and `items` values.
        mutating func reserve(groups: Int, items: Int) {
            self.groups.reserveCapacity(groups)
            self.items.reserveCapacity(items)
        }

        private mutating func closeGroup() {
            if let type = groupType {
                groups.append(Group(typeString: type, types: groupTypes, items: groupStart..<items.count))
            }
            groupType = nil
        }

        /// Takes the next token; `types` are the types of its type string when it starts a group.
        mutating func feed(_ token: PlainItem, _ types: [ObjCType], _ index: ArchiveIndex) {
            switch state {
            case .done:
                return
            case .start:
                // The object's own `new`; its class chain follows.
                state = .chain
                return
            case .chain:
                if token.code == .classLink {
                    if classSlot < 0, token.form != .null { classSlot = Int(token.slot) }
                    if token.form != .new { state = .body }
                    return
                }
                state = .body
            case .body:
                break
            }
            if nested > 0 {
                if token.code == .object, token.form == .new { nested += 1 }
                if token.code == .endOfObject { nested -= 1 }
                return
            }
            if inValueChain {
                if token.code == .classLink {
                    if token.form != .new { inValueChain = false }
                    return
                }
                inValueChain = false
            }
            switch token.code {
            case .typeString:
                closeGroup()
                groupType = .some(index.bytes[token.payload])
                groupTypes = types
                groupStart = items.count
            case .untypedGroup:
                closeGroup()
                groupType = .some(nil)
                groupTypes = [.object(className: nil)]
                groupStart = items.count
            case .endOfObject:
                closeGroup()
                state = .done
            case .object where token.form == .new:
                items.append(token)
                // Its class chain and contents are read past.
                nested = 1
            case .classLink:
                // A `#` value: its first link names the class; a new one's superclasses follow.
                items.append(token)
                if token.form == .new { inValueChain = true }
            case .instanceSize, .header:
                break
            default:
                items.append(token)
            }
        }

        func object(_ index: ArchiveIndex) -> PlainJSONObject {
            var copy = self
            if state != .done { copy.closeGroup() }
            return PlainJSONObject(slot: slot, classSlot: classSlot, classNameBytes: index.text(ofSlot: classSlot) ?? [],
                                   groups: copy.groups, items: copy.items)
        }
    }
}

extension PlainJSONObject {
    /// Where value `value` of group `group` starts in ``items``; `nil` when there is no such
    /// value. (A value is one item, or an array's or struct's items up to its end marker.)
    func itemIndex(group: Int, value: Int) -> Int? {
        guard group >= 0, group < groups.count else { return nil }
        var nesting = 0
        var seen = 0
        let range = groups[group].items
        for index in range {
            let code = items[index].code
            if code == .arrayEnd || code == .structEnd {
                nesting -= 1
                continue
            }
            if nesting == 0 {
                if seen == value { return index }
                seen += 1
            }
            if code == .arrayStart || code == .structStart { nesting += 1 }
        }
        return nil
    }

    /// The integer or byte that is value `value` of group `group`; `nil` for another kind of
    /// value or no such value.
    func integer(group: Int, value: Int) -> Int64? {
        guard let index = itemIndex(group: group, value: value) else { return nil }
        let item = items[index]
        return item.code == .integer || item.code == .byte ? item.value : nil
    }

    /// The field names ``ClassLayouts`` gives its groups, for its class chain `chain`; `nil`
    /// when its class is not catalogued or its groups match no layout.
    func layoutMatch(chain: [ArchiveClassLink]) -> LayoutMatch? {
        guard let name = chain.first?.name, ClassLayouts.describes(name) else { return nil }
        return ClassLayouts.match(chain: chain, groupCount: groups.count,
                                  typeString: { groups[$0].typeString ?? nil },
                                  integer: { integer(group: $0, value: $1) })
    }

}
