import ObjCTypeEncoding
import TypedStream

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
}

extension PlainJSONObject {
    /// Reads the object in `slot` again from `index`: its groups and its own values. The
    /// objects inside it are read past (they are written from their own reading). Returns `nil`
    /// when `slot` is not an object.
    static func read(slot: Int, from index: ArchiveIndex) -> PlainJSONObject? {
        guard index.kind(ofSlot: slot) == .object else { return nil }
        var reader = index.tokens(ofObject: slot)
        var groups: [Group] = []
        var items: [PlainItem] = []
        var classSlot = -1
        var groupStart = 0
        var groupType: ArraySlice<UInt8>?? = nil
        var groupTypes: [ObjCType] = []
        /// Objects opened inside this one whose contents are being read past.
        var nested = 0
        func closeGroup() {
            if let type = groupType {
                groups.append(Group(typeString: type, types: groupTypes, items: groupStart..<items.count))
            }
            groupType = nil
        }
        // The object's own token and its class chain.
        guard (try? reader.nextCompact()) != nil else { return nil }
        while let link = try? reader.nextCompact() {
            if link.code == .classLink {
                if classSlot < 0 { classSlot = link.form == .null ? -1 : link.slot }
                if link.form == .new { continue }
            }
            if link.code == .classLink { break }
            // A streamer-3 instance size (or anything else) ends the chain too.
            if link.code != .instanceSize { items.append(PlainItem(link)) }
            break
        }
        while let token = try? reader.nextCompact() {
            if nested > 0 {
                if token.code == .object, token.form == .new { nested += 1 }
                if token.code == .endOfObject { nested -= 1 }
                continue
            }
            switch token.code {
            case .typeString:
                closeGroup()
                groupType = .some(index.bytes[token.payload])
                groupTypes = reader.types(ofSharedString: token.textIndex) ?? []
                groupStart = items.count
            case .untypedGroup:
                closeGroup()
                groupType = .some(nil)
                groupTypes = [.object(className: nil)]
                groupStart = items.count
            case .endOfObject:
                closeGroup()
                return PlainJSONObject(slot: slot, classSlot: classSlot, classNameBytes: index.text(ofSlot: classSlot) ?? [],
                                       groups: groups, items: items)
            case .object where token.form == .new:
                items.append(PlainItem(token))
                // Its class chain, then its contents, are read past.
                while let link = try? reader.nextCompact() {
                    if link.code == .classLink, link.form == .new { continue }
                    break
                }
                nested = 1
            case .classLink:
                // A `#` value: its first link names the class; the superclasses of a new one follow.
                items.append(PlainItem(token))
                if token.form == .new {
                    while let link = try? reader.nextCompact() {
                        if link.code == .classLink, link.form == .new { continue }
                        break
                    }
                }
            case .instanceSize, .header:
                break
            default:
                items.append(PlainItem(token))
            }
        }
        closeGroup()
        return PlainJSONObject(slot: slot, classSlot: classSlot, classNameBytes: index.text(ofSlot: classSlot) ?? [],
                               groups: groups, items: items)
    }
}
