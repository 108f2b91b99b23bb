import TypedStream
import TypedStreamFoundation

/// The field names (``ClassLayouts``) of every object of a catalogued class in an archive,
/// found in one pass over its tokens: what the tree writes beside each value. Objects of other
/// classes, and objects whose groups match no layout, have none.
///
/// Each catalogued object's groups and values are gathered as plain JSON gathers them
/// (``PlainJSONObject/Builder``) and matched as plain JSON matches them
/// (``PlainJSONObject/layoutMatch(chain:)``), so the tree and plain JSON name the same fields.
/// The pass keeps a stack of the open objects (no recursion); an object's builder is handed
/// its own tokens only, and of the objects inside it their `new` and end of object.
struct ArchiveLayoutNames {
    /// The match of each object-table slot that has one.
    private(set) var matches: [Int: LayoutMatch] = [:]

    /// Reads `index`'s archive once.
    init(index: ArchiveIndex) {
        var reader = TokenReader(bytes: index.bytes)
        // The open objects, innermost last, each with a builder when its class is catalogued.
        var open: [(slot: Int, builder: PlainJSONObject.Builder?)] = []
        // The `new` of the object read last, until its first class link names its class.
        var awaitingClass: PlainItem?
        while let token = try? reader.nextCompact() {
            let item = PlainItem(token)
            if let new = awaitingClass {
                awaitingClass = nil
                let name = token.code == .classLink && token.form != .null ? index.text(ofSlot: token.slot) : nil
                if let name, ClassLayouts.describes(String(decoding: name, as: UTF8.self)), let top = open.indices.last {
                    var builder = PlainJSONObject.Builder(slot: open[top].slot)
                    builder.feed(new, [], index)
                    builder.feed(item, [], index)
                    open[top].builder = builder
                    continue
                }
            }
            switch token.code {
            case .object where token.form == .new:
                // A value of the object it is in; its own tokens go to its own builder.
                Self.feed(item, to: &open, index)
                open.append((token.slot, nil))
                awaitingClass = item
            case .endOfObject:
                guard let done = open.popLast() else { break }
                if var builder = done.builder {
                    builder.feed(item, [], index)
                    let object = builder.object(index)
                    if let match = object.layoutMatch(chain: index.classLinks(ofObject: done.slot)) { matches[done.slot] = match }
                }
                // The end of an object inside the one now innermost.
                Self.feed(item, to: &open, index)
            default:
                Self.feed(item, to: &open, index)
            }
        }
    }

    /// Hands `item` to the builder of the innermost open object, if it has one.
    private static func feed(_ item: PlainItem, to open: inout [(slot: Int, builder: PlainJSONObject.Builder?)], _ index: ArchiveIndex) {
        guard let top = open.indices.last, open[top].builder != nil else { return }
        open[top].builder!.feed(item, [], index)
    }
}
