/// The kind of the next JSON value, seen before it is read.
enum JSONKind: Equatable {
    case null, bool, number, string, array, object
}

/// JSON read front to back, one value or one container step at a time, so a reader can walk
/// the containers it cares about and take everything else whole (``value()``).
///
/// The calls follow the document: ``peekKind()`` looks at the next value; ``value()`` reads it
/// whole; ``beginObject()`` / ``beginArray()`` step into it, after which ``nextKey()`` /
/// ``nextElement()`` say whether another member or element comes (its value is then next) or
/// the container has ended. Two sources share this vocabulary: JSON text read piece by piece
/// (``JSONTextReader``) and an already parsed ``JSONValue`` (``JSONTreeSource``).
protocol JSONPullSource {
    /// The kind of the next value. Throws `syntax` when there is none.
    mutating func peekKind() throws(ArchiveJSONError) -> JSONKind
    /// Reads the next value whole.
    mutating func value() throws(ArchiveJSONError) -> JSONValue
    /// Steps into the next value, an object (``peekKind()`` said so).
    mutating func beginObject() throws(ArchiveJSONError)
    /// The name of the next member of the innermost object stepped into (its value comes
    /// next), or `nil` when the object has ended.
    mutating func nextKey() throws(ArchiveJSONError) -> String?
    /// Steps into the next value, an array (``peekKind()`` said so).
    mutating func beginArray() throws(ArchiveJSONError)
    /// Whether another element of the innermost array stepped into comes (it is next);
    /// `false` when the array has ended.
    mutating func nextElement() throws(ArchiveJSONError) -> Bool
    /// Throws unless the document has ended (call after its one value).
    mutating func finish() throws(ArchiveJSONError)
}

extension JSONPullSource {
    /// The object stepped into whose first member, `key`, was just named: that member and the
    /// rest, read whole.
    mutating func restOfObject(firstKey key: String) throws(ArchiveJSONError) -> JSONValue {
        var members = [JSONMember(key, try value())]
        while let next = try nextKey() {
            members.append(JSONMember(next, try value()))
        }
        return .object(members)
    }
}

/// An already parsed ``JSONValue`` read as a ``JSONPullSource``: containers are stepped into
/// with an explicit stack, values handed out without copying.
struct JSONTreeSource: JSONPullSource {
    private struct Frame {
        var members: [JSONMember] = []
        var elements: [JSONValue] = []
        var index = 0
    }

    private var pending: JSONValue?
    private var frames: [Frame] = []

    /// A source whose one value is `root`.
    init(_ root: JSONValue) {
        pending = root
    }

    private func missing() -> ArchiveJSONError {
        ArchiveJSONError(.syntax, "no JSON value where one was expected")
    }

    mutating func peekKind() throws(ArchiveJSONError) -> JSONKind {
        guard let pending else { throw missing() }
        return pending.kind
    }

    mutating func value() throws(ArchiveJSONError) -> JSONValue {
        guard let value = pending else { throw missing() }
        pending = nil
        return value
    }

    mutating func beginObject() throws(ArchiveJSONError) {
        guard case .object(let members)? = pending else { throw missing() }
        pending = nil
        frames.append(Frame(members: members))
    }

    mutating func nextKey() throws(ArchiveJSONError) -> String? {
        guard let last = frames.indices.last else { throw missing() }
        let index = frames[last].index
        guard index < frames[last].members.count else {
            frames.removeLast()
            return nil
        }
        frames[last].index = index + 1
        let member = frames[last].members[index]
        pending = member.value
        return member.key
    }

    mutating func beginArray() throws(ArchiveJSONError) {
        guard case .array(let elements)? = pending else { throw missing() }
        pending = nil
        frames.append(Frame(elements: elements))
    }

    mutating func nextElement() throws(ArchiveJSONError) -> Bool {
        guard let last = frames.indices.last else { throw missing() }
        let index = frames[last].index
        guard index < frames[last].elements.count else {
            frames.removeLast()
            return false
        }
        frames[last].index = index + 1
        pending = frames[last].elements[index]
        return true
    }

    mutating func finish() throws(ArchiveJSONError) {}
}

extension JSONValue {
    /// The kind of this value.
    var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}
