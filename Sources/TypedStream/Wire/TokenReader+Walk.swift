/// The fast way through a whole archive: one loop over the bytes with its cursor, frame stack
/// and type program in local variables, instead of the resumable reader of
/// ``TokenReader/nextCompact()`` that keeps them in the reader between tokens.
///
/// **Same tokens, same checks.** The walk hands the visitor exactly the tokens the pull reader
/// gives, in the same order, and accepts exactly what it accepts: every value, string, slot,
/// length and limit check of the pull reader is made here too (the tables — shared strings,
/// object-table slots, compiled type strings — are the reader's own and are entered through the
/// same functions). `FastPathTests` and the `tokenreader` fuzz target hold the two equal.
///
/// **Errors.** Where a check fails the walk does not word the error itself: it reads the input
/// again from the start with the pull reader, whose error (code, offset, message) it throws. So
/// there is one wording of every error, and malformed input costs at most a second reading.
/// Checks whose failure is worded by a shared function (the table limits, type strings that do
/// not parse) throw directly.
///
/// **Frames.** The walk keeps the pull reader's frames (``Frame``) on a stack of its own in
/// plain memory. A group of one value — most groups: `@`, `+`, `i` — gets no frame at all, and
/// a group's frame is left as its last value starts, so reading an array of strings pushes and
/// pops once per string instead of three times.
///
/// **Inlining.** The helpers below, and the pull reader's value reader (`execute`), object
/// head, class links and type strings, are marked `@_transparent` rather than
/// `@inline(__always)`: with the latter the optimizer's cost model declines to inline them
/// into the large reading loops (`-Rpass-missed=sil-inliner` says "not profitable"), and every
/// call then builds a whole ``CompactToken`` in memory and takes the cursor's address.
/// Forced inlining lets the unused fields vanish and keeps the cursor in registers.
///
/// Streamer-3 archives, whose untyped objects need look-ahead, and readers already part-way
/// through a group take the pull reader's path.
extension TokenReader {
    /// Reads from the current position to the end, handing every token to `visitor`.
    @inline(__always)
    mutating func readToEnd<Visitor: CompactTokenVisitor>(into visitor: inout Visitor) throws(WireError) {
        if header == nil {
            _ = visitor.visit(try readHeader())
        }
        guard !isStreamer3, pending == nil, frames.isEmpty, top.kind == .topLevel else {
            while try !read(into: &visitor) {}
            return
        }
        if slotEntries.count == 0 { reserveObjectTable() }
        // The walk appends to the object table without testing each time whether its memory is
        // shared: it is made the table's own here, and the walk copies the table nowhere.
        slotEntries.makeUnique()
        let input = bytes
        try input.withUnsafeBufferPointer { (buffer) throws(WireError) in
            guard let base = buffer.baseAddress else { return }
            try walk(base, buffer.count, &visitor)
        }
    }

    /// Reserves the object table of an archive of ``reservationThreshold`` bytes or more for
    /// the whole archive, so that it never regrows: one slot per eight bytes of input (an object,
    /// class or C string takes more than that in any archive written by Apple's or our coder;
    /// more slots simply grow the table). Regrowing copies the table and, worse, touches about
    /// twice its memory in fresh pages: on a 10 MB archive of strings the page faults would be a
    /// quarter of the scan. Memory reserved and never used is never touched, so it costs address
    /// space, not resident memory. (Counting the `0x84` bytes for an exact reservation would be
    /// one more pass over every byte, which would bound the index on archives of large data
    /// blobs.) A smaller archive's table grows as it goes: a few small steps in memory already
    /// in use, and an index kept of a message body holds no more than it needs.
    mutating func reserveObjectTable() {
        guard bytes.count >= Self.reservationThreshold else { return }
        slotEntries.reserveCapacity(min(bytes.count / 8, limits.maximumObjects))
    }

    /// The archive size from which readers reserve the object table (64 KiB).
    static let reservationThreshold = 1 << 16

    /// The error the pull reader meets in this input, which the walk has found malformed.
    @inline(never)
    func firstError(foundNear position: Int) -> WireError {
        var again = TokenReader(bytes: bytes, limits: limits)
        do {
            while try again.nextCompact() != nil {}
        } catch {
            return error
        }
        // The two readers disagree: a defect of this package, reported rather than trapped.
        return WireError(.invalidToken, at: position, "the archive was refused near offset \(position) by the fast reader but not by the token reader (please report this file)")
    }

    /// The walk over `count` bytes at `base` (the reader's ``bytes``) from ``offset``.
    mutating func walk<Visitor: CompactTokenVisitor>(_ base: UnsafePointer<UInt8>, _ count: Int, _ visitor: inout Visitor) throws(WireError) {
        var cursor = ByteCursor(base: base, count: count, offset: offset, littleEndian: littleEndian)
        var stack = FrameStack()
        defer { stack.deallocate() }
        var frame = Frame(kind: .topLevel)
        var ops = program.ops
        let maximumNesting = limits.maximumNesting

        while true {
            let here = cursor.offset
            // The operation to execute next, and its index.
            let op: TypeProgram.Op
            let pc: Int
            switch frame.kind {
            case .topLevel, .objectContents:
                if frame.kind == .topLevel {
                    if cursor.offset == count {
                        offset = count
                        return
                    }
                } else {
                    guard let head = cursor.peek() else { throw firstError(foundNear: here) }
                    if head == HeadByte.endOfObject {
                        cursor.offset += 1
                        nesting &-= 1  // (nesting is bounded by the limits)
                        _ = visitor.visit(CompactToken(.endOfObject, start: here, end: cursor.offset, depth: nesting))
                        frame = stack.pop()
                        continue
                    }
                }
                // A group: its type string (a shared string; any other head byte fails in
                // `walkSharedString`), then its values.
                var token = CompactToken(.typeString, start: here, end: here, depth: nesting)
                guard try walkSharedString(&cursor, into: &token, allowNil: false) else { throw firstError(foundNear: here) }
                token.end = cursor.offset
                let range: Range<Int>
                if let compiled = compiledOperations(ofSharedString: token.textIndex) {
                    range = compiled
                } else {
                    // The local copy goes first, so that the program grows in place (with the
                    // copy alive every new type string copied every operation compiled so far).
                    ops = []
                    range = try compileProgram(forSharedString: token.textIndex, at: here)
                    ops = program.ops
                }
                _ = hand(token, to: &visitor)
                if range.isEmpty { continue }
                pc = range.lowerBound
                op = ops.inlinedElement(pc)
                // A group of one value needs no frame of its own (unless it is an array, whose
                // frame says where the group resumes).
                if range.upperBound &- pc > 1 || op.code == .arrayStart {
                    stack.push(frame)
                    frame = Frame(kind: .group, pc: Int32(pc + 1), end: Int32(range.upperBound))
                }
            case .group, .array:
                if frame.pc == frame.end {
                    if frame.kind == .group {
                        frame = stack.pop()
                    } else if frame.remaining > 1 {
                        frame.remaining -= 1
                        frame.pc = frame.bodyStart
                    } else {
                        frame = stack.pop()
                        nesting -= 1
                        _ = visitor.visit(CompactToken(.arrayEnd, start: here, end: here, depth: nesting))
                    }
                    continue
                }
                pc = Int(frame.pc)
                op = ops.inlinedElement(pc)
                frame.pc += 1
                // A group is done after its last value: leave its frame now (unless the value
                // is an array, which sets where the group resumes).
                if frame.kind == .group, frame.pc == frame.end, op.code != .arrayStart {
                    frame = stack.pop()
                }
            default:
                // Only the pull reader opens the other frames.
                throw firstError(foundNear: here)
            }

            // One value (or the start or end of an array or struct) of a group or array body.
            let start = cursor.offset
            var token = CompactToken(.integer, start: start, end: start, depth: nesting)
            switch op.code {
            case .rawByte:
                guard let byte = cursor.next() else { throw firstError(foundNear: start) }
                token.code = .byte
                token.value = Int64(byte)
            case .short, .integer:
                guard let head = cursor.next(),
                      let value = cursor.integer(head: head, allowInt32: op.code == .integer, allowInt64: op.code == .integer)
                else { throw firstError(foundNear: start) }
                token.value = value.value
                token.width = value.width
            case .float, .double:
                let isFloat = op.code == .float
                token.code = isFloat ? .float : .double
                guard let head = cursor.next() else { throw firstError(foundNear: start) }
                if head == HeadByte.real {
                    guard let bits = cursor.fixed(isFloat ? 4 : 8) else { throw firstError(foundNear: start) }
                    token.form = .ieee
                    token.value = Int64(bitPattern: bits)
                } else {
                    guard let value = cursor.integer(head: head, allowInt32: true, allowInt64: true),
                          isFloat ? Int64(exactly: Float(value.value)) == value.value : Int64(exactly: Double(value.value)) == value.value
                    else { throw firstError(foundNear: start) }
                    token.form = .integral
                    token.value = value.value
                    token.width = value.width
                }
            case .counted:
                token.code = .unsharedString
                guard let head = cursor.peek() else { throw firstError(foundNear: start) }
                if head == HeadByte.null {
                    cursor.offset += 1
                    token.form = .null
                } else {
                    guard let (length, width) = cursor.length() else { throw firstError(foundNear: start) }
                    token.form = .new
                    token.width = width
                    token.payloadStart = cursor.offset
                    cursor.offset += length
                    token.payloadEnd = cursor.offset
                }
            case .shared:
                token.code = .sharedString
                token.form = try walkSharedString(&cursor, into: &token, allowNil: true) ? .new : .null
            case .cString:
                token.code = .cString
                guard let head = cursor.next() else { throw firstError(foundNear: start) }
                switch head {
                case HeadByte.null:
                    token.form = .null
                case HeadByte.new:
                    // As the pull reader: the slot first, then the text, whose slot it records.
                    let index = try newSlot(.cString, at: start, tableIsUnique: true)
                    guard try walkSharedString(&cursor, into: &token, allowNil: false) else { throw firstError(foundNear: start) }
                    setText(token.textIndex, ofCStringSlot: index)
                    token.form = .new
                    token.slot = index
                default:
                    try walkSlotReference(head: head, &cursor, into: &token, at: start, .cString)
                }
            case .object:
                token.code = .object
                guard let head = cursor.next() else { throw firstError(foundNear: start) }
                switch head {
                case HeadByte.null:
                    token.form = .null
                    token.end = cursor.offset
                    _ = visitor.visit(token)
                case HeadByte.new:
                    token.slot = try newSlot(.object, at: start, tableIsUnique: true)
                    token.form = .new
                    token.end = cursor.offset
                    guard nesting < maximumNesting else { throw firstError(foundNear: start) }
                    nesting &+= 1  // (below maximumNesting, checked above)
                    _ = visitor.visit(token)
                    try walkClassChain(&cursor, &visitor)
                    stack.push(frame)
                    frame = Frame(kind: .objectContents)
                default:
                    try walkSlotReference(head: head, &cursor, into: &token, at: start, .object, or: .class)
                    token.end = cursor.offset
                    _ = visitor.visit(token)
                }
                continue
            case .classChain:
                try walkClassChain(&cursor, &visitor)
                continue
            case .ignored:
                try countEmptyValue(at: start)
                token.code = .ignored
            case .rawBytes, .union:
                let byteCount = Int(op.a)
                guard byteCount <= count - cursor.offset else { throw firstError(foundNear: start) }
                if byteCount == 0 { try countEmptyValue(at: start) }
                token.code = .rawBytes
                token.payloadStart = cursor.offset
                cursor.offset += byteCount
                token.payloadEnd = cursor.offset
            case .arrayStart:
                let (elements, end, body, minimum) = TypeProgram.array(at: pc, in: ops)
                if minimum == 0 {
                    guard elements <= limits.maximumEmptyElementArray else { throw firstError(foundNear: start) }
                } else {
                    guard elements <= (count - cursor.offset) / minimum else { throw firstError(foundNear: start) }
                }
                if elements == 0 { try countEmptyValue(at: start) }
                guard nesting < maximumNesting else { throw firstError(foundNear: start) }
                nesting += 1
                token.code = .arrayStart
                token.value = Int64(elements)
                _ = visitor.visit(token)
                // The enclosing frame resumes after the array's end operation.
                frame.pc = end + 1
                stack.push(frame)
                frame = Frame(kind: .array, pc: elements == 0 ? end : body, end: end, bodyStart: body, remaining: Int32(elements))
                continue
            case .arrayBounds, .arrayEnd:
                // Reached only through a frame's `end`.
                continue
            case .structStart:
                if ops.inlinedElement(pc + 1).code == .structEnd { try countEmptyValue(at: start) }  // no fields
                guard nesting < maximumNesting else { throw firstError(foundNear: start) }
                nesting += 1
                token.code = .structStart
            case .structEnd:
                nesting -= 1
                token.code = .structEnd
                token.depth = nesting
            case .unsupported:
                throw firstError(foundNear: start)
            }
            token.end = cursor.offset
            _ = visitor.visit(token)
        }
    }

    /// Reads a class chain, link by link, until a nil or a reference ends it.
    @_transparent  // inlined by force: see "Inlining" above
    mutating func walkClassChain<Visitor: CompactTokenVisitor>(_ cursor: inout ByteCursor, _ visitor: inout Visitor) throws(WireError) {
        while true {
            let start = cursor.offset
            var token = CompactToken(.classLink, start: start, end: start, depth: nesting)
            guard let head = cursor.next() else { throw firstError(foundNear: start) }
            switch head {
            case HeadByte.null:
                token.form = .null
            case HeadByte.new:
                guard try walkSharedString(&cursor, into: &token, allowNil: false),
                      token.payloadEnd - token.payloadStart <= limits.maximumClassNameLength,
                      let versionHead = cursor.next(),
                      let version = cursor.integer(head: versionHead, allowInt32: true, allowInt64: false)
                else { throw firstError(foundNear: start) }
                token.slot = try newSlot(.class, text: token.textIndex, at: start, tableIsUnique: true)
                token.form = .new
                token.value = version.value
                token.width = version.width
            default:
                try walkSlotReference(head: head, &cursor, into: &token, at: start, .class)
            }
            token.end = cursor.offset
            _ = visitor.visit(token)
            if token.form != .new { return }
        }
    }

    /// Reads a shared string into the text fields of `token` (as ``readSharedString(into:what:allowNil:)``);
    /// returns false for nil (`0x85`) when `allowNil`.
    @_transparent  // inlined by force: see "Inlining" above
    mutating func walkSharedString(_ cursor: inout ByteCursor, into token: inout CompactToken, allowNil: Bool) throws(WireError) -> Bool {
        let start = cursor.offset
        guard let head = cursor.next() else { throw firstError(foundNear: start) }
        switch head {
        case HeadByte.null:
            guard allowNil else { throw firstError(foundNear: start) }
            return false
        case HeadByte.new:
            guard let (length, width) = cursor.length() else { throw firstError(foundNear: start) }
            let text = cursor.offset..<cursor.offset + length
            cursor.offset += length
            token.setText(try newSharedString(text, at: start), isReference: false, width: width, at: text)
            return true
        default:
            guard let (index, width) = cursor.reference(head: head), index >= 0, index < nextSharedString else {
                throw firstError(foundNear: start)
            }
            token.setText(index, isReference: true, width: width, at: sharedStringRanges.inlinedElement(index))
            return true
        }
    }

    /// Reads a reference to an object-table slot holding `first` or `second` (its head byte,
    /// at `start`, was just consumed) into `token`.
    @_transparent  // inlined by force: see "Inlining" above
    mutating func walkSlotReference(head: UInt8, _ cursor: inout ByteCursor, into token: inout CompactToken, at start: Int, _ first: SlotKind, or second: SlotKind? = nil) throws(WireError) {
        guard let (index, width) = cursor.reference(head: head), isSlot(index, first, or: second) else { throw firstError(foundNear: start) }
        token.setReference(to: index, width: width)
    }

    /// Whether object-table slot `index` exists and holds `first` or `second`.
    @inline(__always)
    func isSlot(_ index: Int, _ first: SlotKind, or second: SlotKind? = nil) -> Bool {
        guard index >= 0, index < nextSlot else { return false }
        let kind = slotKind(index)
        return kind == first || kind == second
    }
}

/// A position in a byte buffer, read forward without bounds traps: every read says whether the
/// bytes were there (the walk's primitives; the pull reader's throwing ones word the errors).
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset: Int
    /// Whether integers are little-endian (the archive's byte order).
    let littleEndian: Bool

    /// The next byte, not consumed.
    @inline(__always)
    func peek() -> UInt8? { offset < count ? base[offset] : nil }

    /// The next byte, consumed.
    @inline(__always)
    mutating func next() -> UInt8? {
        // (No `defer`: the optimizer kept it as a call per byte.)
        guard offset < count else { return nil }
        let byte = base[offset]
        offset += 1
        return byte
    }

    /// A 2-, 4- or 8-byte payload in the archive's byte order (one unaligned load each).
    @inline(__always)
    mutating func fixed(_ size: Int) -> UInt64? {
        guard count - offset >= size else { return nil }
        let raw = UnsafeRawPointer(base + offset)
        offset += size
        switch size {
        case 2:
            let bits = raw.loadUnaligned(as: UInt16.self)
            return UInt64(littleEndian ? UInt16(littleEndian: bits) : UInt16(bigEndian: bits))
        case 4:
            let bits = raw.loadUnaligned(as: UInt32.self)
            return UInt64(littleEndian ? UInt32(littleEndian: bits) : UInt32(bigEndian: bits))
        default:
            precondition(size == 8, "payloads are 2, 4 or 8 bytes")
            let bits = raw.loadUnaligned(as: UInt64.self)
            return littleEndian ? UInt64(littleEndian: bits) : UInt64(bigEndian: bits)
        }
    }

    /// An integer whose head byte `head` was just consumed (as ``TokenReader/readInteger(head:at:what:allowInt64:allowInt32:)``).
    @inline(__always)
    mutating func integer(head: UInt8, allowInt32: Bool, allowInt64: Bool) -> WireInteger? {
        if HeadByte.isInline(head) { return WireInteger(Int64(Int8(bitPattern: head)), width: .inline) }
        switch head {
        case HeadByte.int16:
            guard let bits = fixed(2) else { return nil }
            return WireInteger(Int64(Int16(truncatingIfNeeded: bits)), width: .int16)
        case HeadByte.int32 where allowInt32:
            guard let bits = fixed(4) else { return nil }
            return WireInteger(Int64(Int32(truncatingIfNeeded: bits)), width: .int32)
        case HeadByte.int64 where allowInt64:
            guard let bits = fixed(8) else { return nil }
            return WireInteger(Int64(bitPattern: bits), width: .int64)
        default:
            return nil
        }
    }

    /// A length: non-negative and no more than the bytes that remain.
    @inline(__always)
    mutating func length() -> (Int, IntegerWidth)? {
        guard let head = next() else { return nil }
        if head < 0x80 {
            guard Int(head) <= count - offset else { return nil }
            return (Int(head), .inline)
        }
        guard let length = integer(head: head, allowInt32: true, allowInt64: false),
              length.value >= 0, length.value <= Int64(count - offset) else { return nil }
        return (Int(length.value), length.width)
    }

    /// A reference label whose head byte was just consumed, as a table index.
    @inline(__always)
    mutating func reference(head: UInt8) -> (Int, IntegerWidth)? {
        guard let label = integer(head: head, allowInt32: true, allowInt64: false) else { return nil }
        return (Int(label.value - HeadByte.referenceBias), label.width)
    }
}

/// The walk's stack of open frames: plain memory, grown by doubling (its depth is bounded by
/// twice ``DecodingLimits/maximumNesting``, as groups and objects alternate).
struct FrameStack {
    private var base: UnsafeMutablePointer<TokenReader.Frame>
    private var capacity: Int
    private var count = 0

    init() {
        capacity = 32
        base = .allocate(capacity: capacity)
    }

    @inline(__always)
    mutating func push(_ frame: TokenReader.Frame) {
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        count += 1
    }

    /// The last frame pushed; a top-level frame when none is left (the walk never pops more
    /// than it pushed).
    @inline(__always)
    mutating func pop() -> TokenReader.Frame {
        guard count > 0 else { return TokenReader.Frame(kind: .topLevel) }
        count -= 1
        return base[count]
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<TokenReader.Frame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Frees the memory; the stack is not used afterwards.
    func deallocate() { base.deallocate() }
}

extension Array {
    /// Appends `filler` until `index` is a valid index, growing the memory geometrically (at
    /// least ``TokenReader/firstTableRoom`` elements, at least double): tables indexed by
    /// shared-string slot grow a few slots at a time, and `append(contentsOf: repeatElement(…))`
    /// costs about 300 instructions a call, most of what such a table would cost a message body.
    @inline(__always)
    mutating func pad(toInclude index: Int, with filler: Element) {
        guard index >= count else { return }
        if index >= capacity { reserveCapacity(Swift.max(index + 1, 2 * count, TokenReader.firstTableRoom)) }
        while count <= index { append(filler) }
    }

    /// Element `index` (which must exist), read through the buffer so that the read is inlined
    /// into the walk (the subscript's own code is sometimes left out of line in a loop this
    /// large).
    @inline(__always)
    func inlinedElement(_ index: Int) -> Element {
        // The bound is the buffer's: the array's `count` getter is sometimes left out of line
        // in the walk too.
        withUnsafeBufferPointer { buffer in
            precondition(index >= 0 && index < buffer.count, "index out of range")
            return buffer[index]
        }
    }
}
