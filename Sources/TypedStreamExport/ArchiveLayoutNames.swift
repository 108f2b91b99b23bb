import TypedStream
import TypedStreamFoundation

/// The field names (``ClassLayouts``) of every object of a catalogued class in an archive,
/// found in one pass over its tokens: what the tree writes beside each value. Objects of other
/// classes, and objects whose groups match no layout, have none.
///
/// The pass keeps a stack of the open objects (no recursion) and, for catalogued ones only,
/// the type string and top-level integer values of each group until the object ends.
struct ArchiveLayoutNames {
    /// The match of each object-table slot that has one.
    private(set) var matches: [Int: LayoutMatch] = [:]

    /// One object whose groups are being read.
    private struct Open {
        let slot: Int
        /// Whether its class is catalogued (set when its first class link is read).
        var catalogued: Bool? = nil
        /// The type string of each group (`nil` for an untyped one).
        var typeStrings: [ArraySlice<UInt8>?] = []
        /// The top-level values of each group: the integer or byte, or `nil` for others.
        var integers: [[Int64?]] = []
        /// Arrays and structs open inside the current group.
        var nesting = 0
    }

    /// Reads `index`'s archive once.
    init(index: ArchiveIndex) {
        var reader = TokenReader(bytes: index.bytes)
        var open: [Open] = []
        // Class links still belonging to a chain (after an object's `new`, or a `#` value's new link).
        var inChain = false
        while let token = try? reader.nextCompact() {
            if token.code == .classLink {
                if inChain {
                    if open.last?.catalogued == nil, let top = open.indices.last {
                        let name = token.form == .null ? nil : index.text(ofSlot: token.slot)
                        open[top].catalogued = name.map { ClassLayouts.describes(String(decoding: $0, as: UTF8.self)) } ?? false
                    }
                    inChain = token.form == .new
                    continue
                }
                // A `#` value: its superclasses follow a new link.
                Self.note(nil, in: &open)
                inChain = token.form == .new
                continue
            }
            inChain = false
            switch token.code {
            case .object where token.form == .new:
                Self.note(nil, in: &open)
                open.append(Open(slot: token.slot))
                inChain = true
            case .endOfObject:
                guard let done = open.popLast() else { break }
                if done.catalogued == true {
                    let chain = index.classLinks(ofObject: done.slot)
                    let match = ClassLayouts.match(chain: chain, groupCount: done.typeStrings.count,
                                                   typeString: { done.typeStrings[$0] },
                                                   integer: { g, v in v < done.integers[g].count ? done.integers[g][v] : nil })
                    if let match { matches[done.slot] = match }
                }
            case .typeString, .untypedGroup:
                guard let top = open.indices.last, open[top].catalogued == true else { break }
                open[top].typeStrings.append(token.code == .typeString ? index.bytes[token.payload] : nil)
                open[top].integers.append([])
                open[top].nesting = 0
            case .arrayStart, .structStart:
                Self.note(nil, in: &open)
                if let top = open.indices.last { open[top].nesting += 1 }
            case .arrayEnd, .structEnd:
                if let top = open.indices.last { open[top].nesting -= 1 }
            case .integer, .byte:
                Self.note(token.value, in: &open)
            case .header, .instanceSize:
                break
            default:
                Self.note(nil, in: &open)
            }
        }
    }

    /// Notes a top-level value of the current group of the innermost open object.
    private static func note(_ integer: Int64?, in open: inout [Open]) {
        guard let top = open.indices.last, open[top].catalogued == true, open[top].nesting == 0,
              let group = open[top].integers.indices.last else { return }
        open[top].integers[group].append(integer)
    }
}
