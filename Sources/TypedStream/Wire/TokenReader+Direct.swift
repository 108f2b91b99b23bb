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
            case .arrayStart, .arrayBounds, .arrayEnd, .classChain, .unsupported: return false
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

    // MARK: - Fused reads of the commonest groups

    /// The operation of the group that starts here when its type string is a reference (one
    /// inline byte) to the one-letter shared string `letter`, compiled before: the group the
    /// ordered coder meets most (`@`, `+`, `i` …). Reads nothing; ``takeOneLetterGroup()`` takes
    /// the type string. `nil` for anything else (a new type string, a longer one, another
    /// spelling, no group here), which the caller reads the general way, with its checks and
    /// errors. (`mutating`, though it changes nothing: read through a class's stored reader, a
    /// non-mutating call copies the whole reader, tables and all.)
    @inline(__always)
    mutating func peekOneLetterGroup(_ letter: UInt8) -> (pc: Int, code: TypeProgram.Code)? {
        guard offset < bytes.count, pending == nil, !isStreamer3,
              top.kind == .objectContents || top.kind == .topLevel else { return nil }
        let head = bytes[offset]
        guard HeadByte.isInline(head) else { return nil }
        let index = Int(Int8(bitPattern: head)) - Int(HeadByte.referenceBias)
        guard index >= 0, index < nextSharedString, index < typeEntries.count else { return nil }
        let text = sharedStringRanges[index]
        guard text.count == 1, bytes[text.lowerBound] == letter else { return nil }
        let entry = typeEntries[index]
        guard entry.entry >= 0, entry.operations.count == 1 else { return nil }
        let pc = entry.operations.lowerBound
        return (pc, program.ops[pc].code)
    }

    /// Takes the one-byte type string ``peekOneLetterGroup(_:)`` found; the group's value comes
    /// next (read with ``directValue(at:)``, ``directObject()`` or ``directCounted()``).
    @inline(__always)
    mutating func takeOneLetterGroup() {
        offset += 1
    }

    /// An `@` value read by ``directObject()``.
    enum DirectObject {
        /// Nil.
        case null
        /// A reference to the object (or class) in `slot`.
        case reference(slot: Int)
        /// A new object in `slot`, its `0x84` at `start`; `classSlot` is its class when the chain
        /// is one reference to a class read before (the reader then stands in the object's
        /// contents), else `nil` (the reader stands at the chain: ``directClassLink()``).
        case new(slot: Int, start: Int, classSlot: Int?)
    }

    /// Reads the value of a one-operation `@` group whose type string was just taken, with the
    /// checks of ``directValue(at:)``: nil, a reference, or a new object together with its class
    /// when that is one reference to a class read before (the commonest chain).
    @inline(__always)
    mutating func directObject() throws(WireError) -> DirectObject {
        let start = offset
        let head = try readByte("an object (@)")
        guard head == HeadByte.new else {
            let token = try readObjectHead(head, at: start)
            return token.form == .null ? .null : .reference(slot: token.slot)
        }
        let slot = try newSlot(.object, at: start)
        try enterNesting(at: start)
        // The chain: one inline reference to a class read before, else read link by link.
        if offset < bytes.count, case let link = bytes[offset], HeadByte.isInline(link) {
            let classSlot = Int(Int8(bitPattern: link)) - Int(HeadByte.referenceBias)
            try checkSlot(classSlot, at: offset, .class, what: "a class reference")
            offset += 1
            push(Frame(kind: .objectContents))
            return .new(slot: slot, start: start, classSlot: classSlot)
        }
        push(Frame(kind: .objectClassChain))
        return .new(slot: slot, start: start, classSlot: nil)
    }

    /// Reads the value of a one-operation `+` group whose type string was just taken: the
    /// range of its bytes, `nil` for NULL; the checks of ``directValue(at:)``.
    @inline(__always)
    mutating func directCounted() throws(WireError) -> Range<Int>? {
        guard offset < bytes.count else { throw WireError(.truncated, at: offset, "expected counted bytes (+), found end of data") }
        if bytes[offset] == HeadByte.null {
            offset += 1
            return nil
        }
        let (length, _) = try readLength(what: "the length of counted bytes (+)")
        let payload = offset..<offset + length
        offset += length
        return payload
    }
}
