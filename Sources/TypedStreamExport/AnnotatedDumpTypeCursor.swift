import ObjCTypeEncoding
import TypedStream

/// Follows the type strings of an archive alongside a ``TokenReader`` so that every value token
/// can be named by the type it was written for (`S` 65535 rather than "integer −1").
///
/// The reader does not put types into its tokens; this cursor rebuilds the same walk from the
/// tokens it sees: a type string opens a group, a struct or array start opens its fields or
/// elements, a new object opens its contents, and each value token takes the next type.
/// It only *names* values: when it cannot tell (a token it did not expect), it answers `nil`
/// and the annotation falls back to the wire's own words, so it can never make a dump fail.
struct AnnotatedDumpTypeCursor {
    private enum Frame {
        case group(types: [ObjCType], next: Int)
        case structure(fields: [ObjCField], next: Int)
        case array(element: ObjCType, remaining: Int)
        case object
    }

    private var stack: [Frame] = []
    private var parsedGroups: [Int: [ObjCType]] = [:]

    /// Opens a group for the type string in shared-string slot `index` with text `text`.
    /// Returns the group's types, or `nil` if the text does not parse.
    @discardableResult
    mutating func openGroup(sharedString index: Int, text: ArraySlice<UInt8>) -> [ObjCType]? {
        dropFinishedGroups()
        let types: [ObjCType]
        if let cached = parsedGroups[index] {
            types = cached
        } else if let parsed = try? ObjCType.parseGroup(bytes: text) {
            parsedGroups[index] = parsed
            types = parsed
        } else {
            return nil
        }
        stack.append(.group(types: types, next: 0))
        return types
    }

    /// Takes the type of the next value, or `nil` when no value is expected here (for example
    /// a streamer-3 object written without a type string).
    mutating func takeNextType() -> ObjCType? {
        while let top = stack.last {
            switch top {
            case .group(let types, let next):
                if next < types.count {
                    stack[stack.count - 1] = .group(types: types, next: next + 1)
                    return types[next].unqualified
                }
                stack.removeLast()
            case .structure(let fields, let next):
                guard next < fields.count else { return nil }
                stack[stack.count - 1] = .structure(fields: fields, next: next + 1)
                return fields[next].type.unqualified
            case .array(let element, let remaining):
                guard remaining > 0 else { return nil }
                stack[stack.count - 1] = .array(element: element, remaining: remaining - 1)
                return element.unqualified
            case .object:
                return nil
            }
        }
        return nil
    }

    /// Opens the elements of an array of `type` (`[Nt]`) with `count` elements.
    mutating func openArray(of type: ObjCType?, count: Int) {
        if case .array(_, let element)? = type {
            stack.append(.array(element: element, remaining: count))
        } else {
            stack.append(.array(element: .unknown, remaining: count))
        }
    }

    /// Opens the fields of a struct of `type`.
    mutating func openStruct(of type: ObjCType?) {
        if case .structure(_, let fields)? = type {
            stack.append(.structure(fields: fields, next: 0))
        } else {
            stack.append(.structure(fields: [], next: 0))
        }
    }

    /// Closes the innermost struct or array (its end marker arrived).
    mutating func closeAggregate() {
        while let top = stack.popLast() {
            switch top {
            case .structure, .array: return
            case .object:
                stack.append(top)
                return
            case .group: continue
            }
        }
    }

    /// Opens the contents of a new object.
    mutating func openObject() { stack.append(.object) }

    /// Closes the innermost object (its end-of-object marker arrived).
    mutating func closeObject() {
        while let top = stack.popLast() {
            if case .object = top { return }
        }
    }

    private mutating func dropFinishedGroups() {
        while case .group(let types, let next)? = stack.last, next >= types.count {
            stack.removeLast()
        }
    }
}
