/// An `NSKeyedArchiver` property list whose structure has been checked, before anything
/// decodes an object from it: what every keyed-archive import (``KeyedArchiveImporter``, and
/// the keyed readers of higher modules) reads through.
///
/// Checked: `$archiver` is `"NSKeyedArchiver"`; `$objects` is an array starting with `"$null"`;
/// `$top` is a dictionary; every UID anywhere is inside `$objects`; every `$class` is a UID of a
/// class entry (a dictionary with a `$classname` string and a non-empty `$classes` array of
/// strings). With ``Options/allowsCycles`` off, the UID graph reachable from `$top` must be
/// acyclic (an array holding itself, two arrays holding each other) and no deeper than
/// ``Options/maximumDepth`` objects. Every walk keeps an explicit stack and visits each value
/// once, so the check is linear in the size of the property list (which the readers bound,
/// see ``PlistLimits``). Errors are one line naming the object and the key path:
/// `keyed archive: UID 900 is outside $objects (42 objects) at $objects[3].NS.objects[1]`.
///
/// ```swift
/// let graph = try KeyedArchiveGraph(KeyedArchiveImporter.plist(from: bytes))
/// let root = graph.top.first { $0.key == "root" }
/// ```
public struct KeyedArchiveGraph: Sendable {
    /// What the check demands beyond a well-formed archive.
    public struct Options: Hashable, Sendable {
        /// Whether objects may refer to themselves, directly or through others. Default `true`
        /// (typedstream cycles come back through keyed archives).
        public var allowsCycles = true
        /// With cycles refused: the deepest chain of objects, counted from a `$top` entry.
        /// Default 256 (as `DecodingLimits.maximumNesting`).
        public var maximumDepth = 256

        /// The defaults.
        public init() {}
    }

    /// `$objects`; entry 0 is `"$null"`.
    public let objects: [PlistValue]
    /// `$top`, in order.
    public let top: [PlistEntry]

    /// Checks `archive`. Throws ``KeyedArchiveError``: `notAKeyedArchive` for the outer shape,
    /// `badReference` for a UID outside `$objects` or a cycle, `badObject` for a `$class` that is
    /// not a class, `tooDeep` for a chain deeper than ``Options/maximumDepth``.
    public init(_ archive: PlistValue, options: Options = Options()) throws(KeyedArchiveError) {
        guard case .dictionary = archive else {
            throw Self.error(.notAKeyedArchive, "the property list is \(Self.kind(of: archive)), not a dictionary with $archiver")
        }
        guard archive["$archiver"] == .string("NSKeyedArchiver") else {
            let found = archive["$archiver"].map { Self.kind(of: $0) } ?? "missing"
            throw Self.error(.notAKeyedArchive, "$archiver is not \"NSKeyedArchiver\" (\(found))")
        }
        guard case .array(let list)? = archive["$objects"], list.first == .string("$null") else {
            throw Self.error(.notAKeyedArchive, "$objects is missing or does not start with \"$null\"")
        }
        guard case .dictionary(let top)? = archive["$top"] else {
            throw Self.error(.notAKeyedArchive, "$top is missing or not a dictionary")
        }
        objects = list
        self.top = top
        let collect = !options.allowsCycles
        var edgeStart: [Int] = collect ? [0] : []
        var edges: [Int] = []
        for index in list.indices {
            try checkEntry(index, collect: collect, into: &edges)
            if collect { edgeStart.append(edges.count) }
        }
        var roots: [(Int, String)] = []
        for entry in top {
            try Self.forEachUID(in: entry.value, base: "$top" + Self.keyComponent(entry.key)) { (uid, _, path) throws(KeyedArchiveError) in
                guard Int(uid) < list.count else { throw Self.outOfRange(uid, list.count, path()) }
                if uid != 0 { roots.append((Int(uid), path())) }
            }
        }
        if collect {
            try checkGraph(roots: roots, edgeStart: edgeStart, edges: edges, maximumDepth: options.maximumDepth)
        }
    }

    // MARK: - Reading

    /// The entry a UID points at (checked to be inside `$objects`). Throws `badReference` when
    /// `ref` is not a UID; `place` names where it was found.
    public func entry(_ ref: PlistValue, at place: @autoclosure () -> String) throws(KeyedArchiveError) -> (uid: UInt32, value: PlistValue) {
        guard case .uid(let uid) = ref else {
            throw Self.error(.badReference, "\(place()) is \(Self.kind(of: ref)), not a UID")
        }
        return (uid, objects[Int(uid)])
    }

    /// The `$classes` of an object entry (checked to be a non-empty list of names), or nil when
    /// it has no `$class`.
    public func classNames(of value: PlistValue) -> [String]? {
        guard case .uid(let uid)? = value["$class"], case .array(let names)? = objects[Int(uid)]["$classes"] else { return nil }
        return names.map { if case .string(let s) = $0 { s } else { "" } }
    }

    /// "a string", "an array of 3", "a dictionary (NSArray object)", … for messages.
    public static func kind(of value: PlistValue) -> String {
        switch value {
        case .string: "a string"
        case .integer(let v): "the integer \(v)"
        case .real: "a real"
        case .bool: "a boolean"
        case .data(let d): "data of \(d.count) bytes"
        case .date: "a date"
        case .array(let a): "an array of \(a.count)"
        case .dictionary(let entries): entries.contains { $0.key == "$classname" } ? "a class entry" : "a dictionary"
        case .uid(let u): "UID \(u)"
        }
    }

    /// `text` quoted and escaped, at most 32 characters of it: how messages show input text.
    public static func excerpt(_ text: String) -> String {
        AnnotatedDumpText.quoted(ArraySlice(text.utf8), limit: 32)
    }

    /// A one-line keyed-archive error: `keyed archive: reason`.
    public static func error(_ code: KeyedArchiveError.Code, _ reason: String) -> KeyedArchiveError {
        KeyedArchiveError(code, "keyed archive: " + reason)
    }

    static func outOfRange(_ uid: UInt32, _ count: Int, _ path: String) -> KeyedArchiveError {
        error(.badReference, "UID \(uid) is outside $objects (\(count) objects) at \(path)")
    }

    // MARK: - Entries

    /// Checks one `$objects` entry: UIDs in range, `$class` a class; appends the UIDs it refers
    /// to (not `$class`, not `$null`) when collecting.
    private func checkEntry(_ index: Int, collect: Bool, into edges: inout [Int]) throws(KeyedArchiveError) {
        let value = objects[index]
        if let cls = value["$class"] {
            guard case .uid(let uid) = cls else {
                throw Self.error(.badObject, "$objects[\(index)].$class is \(Self.kind(of: cls)), not a UID")
            }
            guard Int(uid) < objects.count else { throw Self.outOfRange(uid, objects.count, "$objects[\(index)].$class") }
            try checkClass(Int(uid), from: index)
        }
        let count = objects.count
        try Self.forEachUID(in: value, base: "$objects[\(index)]") { (uid, isClass, path) throws(KeyedArchiveError) in
            guard Int(uid) < count else { throw Self.outOfRange(uid, count, path()) }
            if collect, !isClass, uid != 0 { edges.append(Int(uid)) }
        }
    }

    /// Checks that `$objects[uid]` is a class entry.
    private func checkClass(_ uid: Int, from index: Int) throws(KeyedArchiveError) {
        let target = objects[uid]
        let named: Bool
        if case .string? = target["$classname"], case .array(let names)? = target["$classes"], !names.isEmpty,
           names.allSatisfy({ if case .string = $0 { true } else { false } }) {
            named = true
        } else {
            named = false
        }
        guard named else {
            let what = uid == index ? "itself" : "$objects[\(uid)], \(Self.kind(of: target))"
            throw Self.error(.badObject, "$objects[\(index)].$class refers to \(what), not a class (a dictionary with a $classname string and $classes strings)")
        }
    }

    /// A key as a path component: `.NS.objects`, or `["…"]` (escaped, shortened) when it is not
    /// a plain name.
    public static func keyComponent(_ key: String) -> String {
        let plain = key.utf8.count <= 40 && !key.isEmpty && key.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        return plain ? "." + key : "[" + AnnotatedDumpText.quoted(ArraySlice(key.utf8), limit: 24) + "]"
    }

    /// Calls `visit` for every UID inside `value`, in order, with whether it is the `$class` of
    /// `value` itself and a closure that spells where it is (`base.NS.objects[3]`). Explicit stack.
    static func forEachUID(in value: PlistValue, base: String,
                           _ visit: (UInt32, Bool, () -> String) throws(KeyedArchiveError) -> Void) throws(KeyedArchiveError) {
        enum Container { case array([PlistValue]), dictionary([PlistEntry]) }
        struct Frame { var container: Container; var next: Int; var label: String }
        var stack: [Frame] = []
        func path(_ last: String) -> String { base + stack.map(\.label).joined() + last }
        var current: (PlistValue, String)? = (value, "")
        while true {
            if let (item, label) = current {
                current = nil
                switch item {
                case .uid(let uid): try visit(uid, stack.count == 1 && label == ".$class", { path(label) })
                case .array(let items): stack.append(Frame(container: .array(items), next: 0, label: label))
                case .dictionary(let entries): stack.append(Frame(container: .dictionary(entries), next: 0, label: label))
                default: break
                }
            }
            guard let top = stack.last else { return }
            let next = top.next
            switch top.container {
            case .array(let items) where next < items.count:
                current = (items[next], "[\(next)]")
            case .dictionary(let entries) where next < entries.count:
                current = (entries[next].value, keyComponent(entries[next].key))
            default:
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
        }
    }

    /// Where entry `index`'s `ordinal`-th collected UID is (`$objects[4].NS.objects[0]`).
    private func location(ofEdge ordinal: Int, inEntry index: Int) -> String {
        var seen = 0
        var found = "$objects[\(index)]"
        try? Self.forEachUID(in: objects[index], base: "$objects[\(index)]") { (uid, isClass, path) throws(KeyedArchiveError) in
            guard !isClass, uid != 0 else { return }
            if seen == ordinal { found = path() }
            seen += 1
        }
        return found
    }

    // MARK: - Graph

    /// Depth-first from the `$top` UIDs with an explicit stack: refuses a cycle and a chain deeper
    /// than `maximumDepth` (heights of finished objects are kept, so each is walked once).
    private func checkGraph(roots: [(Int, String)], edgeStart: [Int], edges: [Int], maximumDepth: Int) throws(KeyedArchiveError) {
        var state = [UInt8](repeating: 0, count: objects.count)  // 0 new, 1 on the stack, 2 done
        var height = [Int](repeating: 0, count: objects.count)
        struct Frame { var node: Int; var next: Int; var height = 1 }
        for (root, rootPath) in roots where state[root] == 0 {
            var stack = [Frame(node: root, next: edgeStart[root])]
            state[root] = 1
            func hops(_ frames: ArraySlice<Frame>) -> [String] {
                frames.map { location(ofEdge: $0.next - 1 - edgeStart[$0.node], inEntry: $0.node) }
            }
            func tooDeep(below extra: Int) -> KeyedArchiveError {
                let more = extra > 0 ? " (and \(extra) more below)" : ""
                return Self.error(.tooDeep, "objects nested deeper than \(maximumDepth)\(more) through \(Self.chain([rootPath] + hops(stack[...])))")
            }
            while let frame = stack.last {
                let top = stack.count - 1
                if frame.next < edgeStart[frame.node + 1] {
                    stack[top].next += 1
                    let target = edges[frame.next]
                    switch state[target] {
                    case 1:
                        let start = stack.lastIndex { $0.node == target } ?? top
                        let through = Self.chain(hops(stack[start...]))
                        throw Self.error(.badReference, "object \(target) refers to itself through \(through)")
                    case 2:
                        guard stack.count + height[target] <= maximumDepth else { throw tooDeep(below: height[target] - 1) }
                        stack[top].height = max(stack[top].height, height[target] + 1)
                    default:
                        guard stack.count < maximumDepth else { throw tooDeep(below: 0) }
                        state[target] = 1
                        stack.append(Frame(node: target, next: edgeStart[target]))
                    }
                } else {
                    stack.removeLast()
                    state[frame.node] = 2
                    height[frame.node] = frame.height
                    if let parent = stack.indices.last { stack[parent].height = max(stack[parent].height, frame.height + 1) }
                }
            }
        }
    }

    /// "a → b → c", the middle shortened when long.
    static func chain(_ hops: [String]) -> String {
        guard hops.count > 6 else { return hops.joined(separator: " → ") }
        return (hops.prefix(3) + ["… (\(hops.count - 5) more)"] + hops.suffix(2)).joined(separator: " → ")
    }
}
