/// Reading driven by the caller, for a decoder that knows which values come next (the streaming
/// ``Unarchiver``): the same tables, checks and errors as ``TokenReader/nextCompact()``, without
/// its resumable loop. A group of straight-line operations (no arrays, no class values: `@`,
/// `+`, `i`, `{?=ffff}` …) gets no frame: the caller reads its values operation by operation.
///
/// The calls must come in the order the bytes hold them: ``directGroupStart()`` where a group
/// starts (the top level, or inside an object's contents), then each of its operations with
/// ``directValue(at:)`` — or, for a group that is not straight-line, ``enterGroup(_:)`` and
/// ``nextCompact()`` until its values are read, then ``leaveFinishedGroup()``; after a new
/// object's value, ``directClassLink()`` until its chain ends; ``directEndOfObject()`` where an
/// object's contents end. Any other order throws or leaves the reader unusable for
/// ``nextCompact()``, never unsafe: every byte read is still bounds-checked.
extension TokenReader {
    /// Whether a group may start here: at the top level or inside an object's contents, with no
    /// token pending.
    var isAtGroupBoundary: Bool {
        pending == nil && (top.kind == .topLevel || top.kind == .objectContents)
    }

    /// Reads the type string of the group that starts here and returns its token and the range
    /// of its compiled operations in ``program``; the group is not entered (see the type's note).
    /// Throws ``WireError`` as ``nextCompact()`` would, and `unexpectedHeadByte` where no group
    /// can start.
    mutating func directGroupStart() throws(WireError) -> (token: CompactToken, operations: Range<Int>) {
        guard isAtGroupBoundary, !isStreamer3 else {
            throw WireError(.unexpectedHeadByte, at: offset, "expected the start of a group")
        }
        return try readTypeString()
    }

    /// Whether the operations `operations` of a type string can be read one by one with
    /// ``directValue(at:)``: no arrays of values (whose body repeats) and no class values
    /// (whose chain is read link by link).
    func isStraightLine(_ operations: Range<Int>) -> Bool {
        for pc in operations {
            switch program.ops[pc].code {
            case .arrayStart, .arrayEnd, .classChain, .unsupported: return false
            default: continue
            }
        }
        return true
    }

    /// Reads the value of operation `pc` of a straight-line group (see ``isStraightLine(_:)``).
    /// A new object's value is followed by its class chain (``directClassLink()``).
    mutating func directValue(at pc: Int) throws(WireError) -> CompactToken {
        guard let token = try execute(pc) else {
            throw WireError(.unexpectedHeadByte, at: offset, "a class value cannot be read directly")
        }
        return token
    }

    /// Enters the group whose type string was just read, to read its values with
    /// ``nextCompact()``.
    mutating func enterGroup(_ operations: Range<Int>) {
        push(Frame(kind: .group, pc: Int32(operations.lowerBound), end: Int32(operations.upperBound)))
    }

    /// Leaves a group entered with ``enterGroup(_:)`` once all its values are read, so that the
    /// next group can start. Returns false when the group still has values.
    mutating func leaveFinishedGroup() -> Bool {
        guard top.kind == .group else { return isAtGroupBoundary }
        guard top.pc == top.end else { return false }
        pop()
        return true
    }

    /// Reads the next link of a new object's class chain (the reader stands after the object's
    /// `0x84` or after a new class of its chain); after the last link the object's contents
    /// begin.
    mutating func directClassLink() throws(WireError) -> CompactToken {
        guard top.kind == .objectClassChain, !isStreamer3 else {
            throw WireError(.unexpectedHeadByte, at: offset, "expected a class link")
        }
        return try readChainLink(at: offset)
    }

    /// Takes the end-of-object marker (`0x86`) of the object whose contents are being read and
    /// returns true, or returns false (reading nothing) when something else comes next.
    mutating func directEndOfObject() -> Bool {
        guard pending == nil, top.kind == .objectContents, offset < bytes.count, bytes[offset] == HeadByte.endOfObject else {
            return false
        }
        offset += 1
        pop()
        nesting -= 1
        return true
    }
}
