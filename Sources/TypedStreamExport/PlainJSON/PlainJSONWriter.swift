/// The text writer of plain JSON: lays containers out as ``JSONValue`` text does — an array on
/// one line when all its elements are scalars, one element per line otherwise; an object on one
/// line when all its members are scalars, hugging its last member when only that one is a
/// container, one member per line otherwise — without knowing the elements in advance.
///
/// A container's layout is decided at its first container element (or at its end, when it has
/// none, or once its waiting scalars pass 1 MiB of text: then one element per line, so that
/// memory stays bounded); until then its scalars wait, rendered, in a small buffer. Only the innermost
/// container can be undecided (a container element decides its parent), so that buffer holds
/// the scalars of one container at most. Everything else goes straight to the text writer and,
/// every 32 KiB, to the output.
///
/// It can also mute (values converted for their side effects only write nothing) and capture
/// (keep a value's text in the buffer so it can be wrapped once written, for an object reached
/// again while it is being written).
struct PlainJSONWriter: ~Copyable {
    private var json: JSONTextWriter
    /// Scalars of the undecided container, rendered.
    private var scratch: JSONTextWriter
    let pretty: Bool

    private enum Kind { case array, object }

    /// The innermost container, when its layout is not decided yet.
    private struct Undecided {
        var kind: Kind
        /// Members the object will have (its layout depends on which one is the first container).
        var memberCount: Int
        /// Members (keys) written so far.
        var keys: Int
    }

    private var undecided: Undecided?
    /// Where the scratch text of each entry of the undecided container ends; member names are
    /// marked by a negative end (one list, kept for its storage: one container waits at a time).
    private var entries: [Int32] = []
    /// For each open container (decided or not): an object's member count and keys so far.
    private var open: [(kind: Kind, memberCount: Int, keys: Int)] = []
    /// Values written only for their side effects while this is above zero.
    private var muted = 0
    /// A value being captured: the depth it starts at; once its container is written, where, how
    /// it is laid out and what it is; once it ends, how many members it had. Innermost last.
    private struct Capture {
        var depth: Int
        var position: Int?
        var lineIndent = 0
        var layout = JSONTextWriter.Layout.inline
        var isObject = false
        var members = 0
    }

    private var captures: [Capture] = []

    init(pretty: Bool) {
        self.pretty = pretty
        json = JSONTextWriter(pretty: pretty, capacity: 1 << 16)
        scratch = JSONTextWriter(pretty: false, capacity: 256)
    }

    /// Every byte produced so far (written, buffered or waiting for a layout).
    var producedCount: Int { json.totalCount + scratch.bufferedCount }

    /// Whether writes are being dropped.
    var isMuted: Bool { muted > 0 }

    /// Starts (or nests) dropping writes.
    mutating func mute() { muted += 1 }
    /// Ends one `mute()`.
    mutating func unmute() { muted -= 1 }

    /// Moves the text written so far to `out`, unless a value is being captured.
    mutating func drainIfLarge(into out: inout OutputWriter) {
        if captures.isEmpty { json.drainIfLarge(into: &out) }
    }

    /// Moves all the text written to `out`.
    mutating func finish(into out: inout OutputWriter) {
        json.finishLine()
        json.drain(into: &out)
    }

    // MARK: - Containers

    /// Opens an array.
    mutating func beginArray(_ sink: inout OutputWriter) { begin(.array, memberCount: 0, &sink) }

    /// Opens an object that will have `memberCount` members.
    mutating func beginObject(memberCount: Int, _ sink: inout OutputWriter) { begin(.object, memberCount: memberCount, &sink) }

    private mutating func begin(_ kind: Kind, memberCount: Int, _ sink: inout OutputWriter) {
        guard muted == 0 else { return }
        if undecided != nil { decide(childIsContainer: true, &sink) }
        open.append((kind, memberCount, 0))
        if pretty {
            undecided = Undecided(kind: kind, memberCount: memberCount, keys: 0)
            entries.removeAll(keepingCapacity: true)
        } else {
            writeOpen(kind, .inline)
        }
    }

    /// Closes the innermost container.
    mutating func end(_ sink: inout OutputWriter) {
        guard muted == 0, !open.isEmpty else { return }
        if undecided != nil { decide(childIsContainer: false, &sink) }
        let top = open.removeLast()
        if top.kind == .array { json.endArray() } else { json.endObject() }
        if let last = captures.indices.last, captures[last].depth == open.count {
            captures[last].members = top.keys
        }
    }

    /// Decides the undecided container: block for an array with a container element, hug for an
    /// object whose only container is its last member, else one line; then writes what waited.
    private mutating func decide(childIsContainer: Bool, _ sink: inout OutputWriter) {
        let draining = captures.isEmpty
        writeUndecided(childIsContainer: childIsContainer) { json in
            // What waited can be much (a long array of strings): out with it as it goes.
            if draining { json.drainIfLarge(into: &sink) }
        }
    }

    /// The most text an undecided container keeps waiting: past it, the container is laid out as
    /// if a container element had come (one element per line), so that a long array of
    /// scalars streams instead of waiting whole in memory.
    static let largestUndecided = 1 << 20

    /// Decides the undecided container early once its waiting text passes ``largestUndecided``.
    private mutating func decideIfLarge() {
        if scratch.bufferedCount > Self.largestUndecided { writeUndecided(childIsContainer: true) { _ in } }
    }

    /// Lays out and writes the undecided container (see ``decide(childIsContainer:_:)``),
    /// calling `drain` after each entry it writes.
    private mutating func writeUndecided(childIsContainer: Bool, drain: (inout JSONTextWriter) -> Void) {
        guard let pending = undecided else { return }
        undecided = nil
        let layout: JSONTextWriter.Layout
        if !childIsContainer {
            layout = .inline
        } else if pending.kind == .array {
            layout = .block
        } else {
            layout = pending.keys == pending.memberCount ? .hug : .block
        }
        writeOpen(pending.kind, layout)
        var start = 0
        let text = scratch.buffered(from: 0)
        for entry in entries {
            let end = Int(entry.magnitude)
            let piece = UnsafeBufferPointer(rebasing: text[start..<end])
            if entry < 0 { json.rawKey(piece) } else { json.rawValue(piece) }
            start = end
            drain(&json)
        }
        scratch.truncate(to: 0)
        entries.removeAll(keepingCapacity: true)
    }

    private mutating func writeOpen(_ kind: Kind, _ layout: JSONTextWriter.Layout) {
        if kind == .array { json.beginArray(layout) } else { json.beginObject(layout) }
        if let last = captures.indices.last, captures[last].depth == open.count - 1, captures[last].position == nil {
            captures[last].position = json.lastOpen.position
            captures[last].lineIndent = json.lastOpen.lineIndent
            captures[last].layout = json.lastOpen.layout
            captures[last].isObject = kind == .object
        }
    }

    /// Writes a member name.
    mutating func key(_ name: String) {
        guard muted == 0 else { return }
        if !open.isEmpty { open[open.count - 1].keys += 1 }
        if undecided != nil {
            scratch.string(name)
            undecided!.keys += 1
            entries.append(-Int32(truncatingIfNeeded: scratch.bufferedCount))
            decideIfLarge()
        } else {
            json.key(text: name)
        }
    }

    // MARK: - Scalars

    /// Writes a scalar with `body` (called on the text writer of the moment).
    @inline(__always)
    private mutating func scalar(_ body: (inout JSONTextWriter) -> Void) {
        guard muted == 0 else { return }
        if undecided != nil {
            body(&scratch)
            entries.append(Int32(truncatingIfNeeded: scratch.bufferedCount))
            decideIfLarge()
        } else {
            body(&json)
        }
    }

    /// Writes a string.
    mutating func string(_ text: String) { scalar { $0.string(text) } }
    /// Writes a string from valid UTF-8.
    mutating func string(utf8 text: ArraySlice<UInt8>) { scalar { $0.string(utf8: text) } }
    /// Writes valid JSON number text.
    mutating func number(_ text: String) { scalar { $0.number(text) } }
    /// Writes an integer.
    mutating func integer(_ value: Int64) { scalar { $0.integer(value) } }
    /// Writes an unsigned integer.
    mutating func unsigned(_ value: UInt64) { scalar { $0.unsigned(value) } }
    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) { scalar { $0.bool(value) } }
    /// Writes `null`.
    mutating func null() { scalar { $0.null() } }

    /// Writes a finished value, without recursion.
    mutating func value(_ value: JSONValue, _ sink: inout OutputWriter) {
        var stack: [(members: [JSONMember]?, elements: [JSONValue]?, next: Int)] = []
        var current: JSONValue? = value
        while true {
            if let v = current {
                current = nil
                switch v {
                case .null: null()
                case .bool(let b): bool(b)
                case .number(let text): number(text)
                case .string(let text): string(text)
                case .array(let elements):
                    beginArray(&sink)
                    stack.append((nil, elements, 0))
                case .object(let members):
                    beginObject(memberCount: members.count, &sink)
                    stack.append((members, nil, 0))
                }
            }
            guard let top = stack.last else { return }
            if let elements = top.elements, top.next < elements.count {
                stack[stack.count - 1].next += 1
                current = elements[top.next]
            } else if let members = top.members, top.next < members.count {
                stack[stack.count - 1].next += 1
                key(members[top.next].key)
                current = members[top.next].value
            } else {
                stack.removeLast()
                end(&sink)
                if stack.isEmpty { return }
            }
        }
    }

    // MARK: - Capture

    /// Starts keeping the next value's text in the buffer (no draining until it ends).
    mutating func beginCapture() {
        guard muted == 0 else { return }
        captures.append(Capture(depth: open.count))
    }

    /// Ends the innermost capture; when `id` is given, wraps the captured value as plain JSON
    /// writes an object reached again while it was being written: an object gets `"$id"` as its
    /// first member, an array becomes `{"$id": id, "$value": […]}`. (A scalar is left as it is.)
    mutating func endCapture(wrappingWith id: Int?) {
        guard muted == 0, let captured = captures.popLast() else { return }
        guard let id, let position = captured.position else { return }
        let colon = pretty ? ": " : ":"
        let comma = pretty ? ", " : ","
        if captured.isObject {
            var member = "\"$id\"" + colon + String(id)
            if captured.members > 0 {
                if captured.layout == .block {
                    member = "\n" + String(repeating: "  ", count: captured.lineIndent + 1) + member + ","
                } else {
                    member += comma
                }
            }
            json.insert(Array(member.utf8), at: position + 1)
        } else {
            json.insert(Array(("{\"$id\"" + colon + String(id) + comma + "\"$value\"" + colon).utf8), at: position)
            json.insert([UInt8(ascii: "}")], at: json.bufferedCount)
        }
    }
}
