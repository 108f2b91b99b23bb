import ObjCTypeEncoding

/// The ceiling the token scan is measured against: a bare, unchecked Swift scan of the same
/// files. It finds where every value of an archive ends and nothing else — no tokens, no
/// object table, no check of references, tables, limits or integer widths; type strings parsed
/// once and not checked further — in one loop with its cursor and stack in local variables, the
/// design of the token scan's walk without its tables and checks. It shows what reading these
/// bytes costs without them, on this machine, in this run: the `scan` row divided by this one
/// (`÷ bare` in the report) is the scan's speed with the machine's speed taken out. (A bare
/// scan of a cleverer design would be faster, and the ratio lower.)
///
/// Its one check is the buffer's end: every byte read and every skip is tested against it, so a
/// malformed file throws instead of reading past the buffer (the bench's inputs are its own and
/// well formed). Streamer-3 archives (untyped objects) are not supported: the bench writes none.
struct BareScan {
    /// What one value needs to be skipped.
    fileprivate enum Op: UInt8 {
        /// One raw byte (`c`, `C`, `B`).
        case byte
        /// An integer of any width (`s` … `Q`).
        case integer
        /// A `float` (`f`): `0x83` and 4 bytes, or an integer.
        case float
        /// A `double` (`d`): `0x83` and 8 bytes, or an integer.
        case double
        /// Counted bytes (`+`): nil, or a length and that many bytes.
        case counted
        /// A shared string (`%`, `:`).
        case shared
        /// A C string (`*`): nil, new and a shared string, or a reference.
        case cString
        /// An object (`@`): nil, new with its class chain and groups, or a reference.
        case object
        /// A class (`#`): a class chain.
        case classChain
        /// `count` raw bytes (`[Nc]`, unions).
        case skip
        /// `count` repetitions of the operations up to `end` (`[N…]` of other elements).
        case repeatBody
    }

    fileprivate struct Instruction {
        var op: Op
        var count: Int32 = 0
        /// For ``Op/repeatBody``: the index after the body.
        var end: Int32 = 0
    }

    /// What the loop is in the middle of.
    private struct Frame {
        enum Kind: UInt8 {
            /// Groups until the end of the archive.
            case topLevel
            /// Groups until the end of an object (`0x86`).
            case object
            /// Operations `pc..<end` of a group or of an array body, `remaining` more times after
            /// this one from `body`.
            case values
        }
        var kind: Kind
        var pc: Int32 = 0
        var end: Int32 = 0
        var body: Int32 = 0
        var remaining: Int32 = 0
    }

    /// Type strings compiled so far, kept from one archive to the next as the token scan keeps
    /// its ``CompiledTypeStrings`` (many small archives repeat a few type strings).
    struct Compiled {
        fileprivate var instructions: [Instruction] = []
        fileprivate var byText: [[UInt8]: Range<Int32>] = [:]
        /// None yet.
        init() {}
    }

    /// Per shared string (in the order the archive makes them): where its text is.
    private var sharedTexts: [Range<Int>] = []
    /// Per shared string used as a type string: its operations in ``Compiled/instructions`` (an
    /// empty range: not looked up yet).
    private var programs: [Range<Int32>] = []
    private var compiled: Compiled

    /// The frames of what is open, in plain memory that grows by doubling, up to a limit.
    private struct FrameStack {
        private var base = UnsafeMutablePointer<Frame>.allocate(capacity: 64)
        private var capacity = 64
        private var count = 0

        /// More frames than this (objects, groups and arrays nested that deep) throw.
        static let maximumCount = 20_000

        @_transparent  // inlined by force: @inline(__always) was declined
        mutating func push(_ frame: Frame) throws(BareScanError) {
            if count == capacity { try grow() }
            (base + count).initialize(to: frame)
            count &+= 1
        }

        /// The last frame pushed (the loop never pops more than it pushed).
        @_transparent  // inlined by force: @inline(__always) was declined
        mutating func pop() -> Frame {
            count &-= 1
            return base[count]
        }

        private mutating func grow() throws(BareScanError) {
            guard capacity < Self.maximumCount else { throw BareScanError("nested deeper than \(Self.maximumCount) frames") }
            let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }

        func deallocate() { base.deallocate() }
    }

    /// What a bare scan counted.
    struct Counts {
        /// Values read (objects, integers, strings … each one; type strings and class links not).
        var values = 0
        /// New objects.
        var objects = 0
    }

    /// Scans `bytes` to the end; returns what it counted (so that the work cannot be optimized
    /// away, and so that the self-check can compare it with the token scan's count of objects).
    static func scan(_ bytes: [UInt8], compiled: inout Compiled) throws(BareScanError) -> Counts {
        var scan = BareScan(compiled: compiled)
        defer { compiled = scan.compiled }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(BareScanError) in
            guard let base = buffer.baseAddress else { throw BareScanError("empty input") }
            var cursor = Cursor(base: base, end: buffer.count)
            try cursor.header()
            return try scan.groups(cursor)
        }
    }

    /// ``scan(_:compiled:)`` starting with no type strings.
    static func scan(_ bytes: [UInt8]) throws(BareScanError) -> Counts {
        var compiled = Compiled()
        return try scan(bytes, compiled: &compiled)
    }

    private init(compiled: Compiled) { self.compiled = compiled }

    /// Every group to the end of the archive.
    private mutating func groups(_ start: Cursor) throws(BareScanError) -> Counts {
        var cursor = start  // a local: kept in registers
        var stack = FrameStack()
        defer { stack.deallocate() }
        var frame = Frame(kind: .topLevel)
        var values = 0, objects = 0
        while true {
            // The operation to execute next.
            let instruction: Instruction
            if frame.kind != .values {
                if frame.kind == .topLevel {
                    if cursor.offset == cursor.end { return Counts(values: values, objects: objects) }
                } else {
                    guard cursor.offset < cursor.end else { throw BareScanError("object not ended at \(cursor.offset)") }
                    if cursor.base[cursor.offset] == 0x86 {
                        cursor.offset &+= 1
                        frame = stack.pop()
                        continue
                    }
                }
                let program = try program(ofSharedString: try sharedString(&cursor, head: try cursor.byte()), cursor)
                instruction = compiled.instructions.withUnsafeBufferPointer { $0[Int(program.lowerBound)] }
                // A group of one value (most: `@`, `+`, `i`) needs no frame of its own.
                if program.count > 1 || instruction.op == .repeatBody {
                    try stack.push(frame)
                    frame = Frame(kind: .values, pc: program.lowerBound + 1, end: program.upperBound)
                }
            } else {
                if frame.pc == frame.end {
                    if frame.remaining > 0 {
                        frame.remaining &-= 1
                        frame.pc = frame.body
                    } else {
                        frame = stack.pop()
                    }
                    continue
                }
                instruction = compiled.instructions.withUnsafeBufferPointer { $0[Int(frame.pc)] }
                frame.pc &+= 1
            }
            values &+= 1
            switch instruction.op {
            case .byte:
                try cursor.skip(1)
            case .integer:
                _ = try cursor.integer(head: try cursor.byte())
            case .float, .double:
                let head = try cursor.byte()
                if head == 0x83 { try cursor.skip(instruction.op == .float ? 4 : 8) } else { _ = try cursor.integer(head: head) }
            case .counted:
                let head = try cursor.byte()
                if head != 0x85 { try cursor.skip(Int(try cursor.integer(head: head))) }
            case .shared:
                _ = try sharedString(&cursor, head: try cursor.byte())
            case .cString:
                let head = try cursor.byte()
                if head == 0x84 {
                    _ = try sharedString(&cursor, head: try cursor.byte())
                } else if head != 0x85 {
                    _ = try cursor.integer(head: head)
                }
            case .object:
                let head = try cursor.byte()
                if head == 0x84 {
                    objects &+= 1
                    try classChain(&cursor)
                    try stack.push(frame)
                    frame = Frame(kind: .object)
                } else if head != 0x85 {
                    _ = try cursor.integer(head: head)
                }
            case .classChain:
                try classChain(&cursor)
            case .skip:
                try cursor.skip(Int(instruction.count))
            case .repeatBody:
                guard instruction.count > 0 else {
                    frame.pc = instruction.end
                    continue
                }
                try stack.push(Frame(kind: .values, pc: instruction.end, end: frame.end, body: frame.body, remaining: frame.remaining))
                frame = Frame(kind: .values, pc: frame.pc, end: instruction.end, body: frame.pc, remaining: instruction.count - 1)
            }
        }
    }

    /// A shared string's index (nil → -1) after its head byte `head`, recording new ones.
    @_transparent  // inlined by force: @inline(__always) was declined
    private mutating func sharedString(_ cursor: inout Cursor, head: UInt8) throws(BareScanError) -> Int {
        if head >= 0x92 { return Int(Int8(bitPattern: head)) &+ 110 }  // the usual: an inline reference
        switch head {
        case 0x85:
            return -1
        case 0x84:
            let length = Int(try cursor.integer(head: try cursor.byte()))
            let start = cursor.offset
            try cursor.skip(length)
            sharedTexts.append(start..<cursor.offset)
            return sharedTexts.count - 1
        default:
            return Int(try cursor.integer(head: head) &+ 110)
        }
    }

    /// Class links until a nil or a reference.
    @_transparent  // inlined by force: @inline(__always) was declined
    private mutating func classChain(_ cursor: inout Cursor) throws(BareScanError) {
        while true {
            let head = try cursor.byte()
            if head == 0x85 { return }
            guard head == 0x84 else {
                _ = try cursor.integer(head: head)
                return
            }
            _ = try sharedString(&cursor, head: try cursor.byte())
            _ = try cursor.integer(head: try cursor.byte())  // version
        }
    }

    // MARK: - Type strings

    /// The operations of shared string `index` read as a type string, compiled on first use.
    @_transparent  // inlined by force: @inline(__always) was declined
    private mutating func program(ofSharedString index: Int, _ cursor: Cursor) throws(BareScanError) -> Range<Int32> {
        if index >= 0, index < programs.count {
            let program = programs.withUnsafeBufferPointer { $0[index] }
            if !program.isEmpty { return program }
        }
        return try compile(sharedString: index, cursor)
    }

    private mutating func compile(sharedString index: Int, _ cursor: Cursor) throws(BareScanError) -> Range<Int32> {
        guard index >= 0, index < sharedTexts.count else { throw BareScanError("no shared string \(index) at \(cursor.offset)") }
        let text = Array(cursor.bytes(sharedTexts[index]))
        let program: Range<Int32>
        if let known = compiled.byText[text] {
            program = known
        } else {
            let types: [ObjCType]
            do {
                types = try ObjCType.parseGroup(bytes: text)
            } catch {
                throw BareScanError("type string \(index) does not parse: \(error)")
            }
            let start = compiled.instructions.count
            for type in types { try emit(type) }
            guard compiled.instructions.count > start, compiled.instructions.count < Int(Int32.max) else {
                throw BareScanError("type string \(index) has no values")
            }
            program = Int32(start)..<Int32(compiled.instructions.count)
            compiled.byText[text] = program
        }
        while programs.count <= index { programs.append(0..<0) }
        programs[index] = program
        return program
    }

    private mutating func emit(_ type: ObjCType) throws(BareScanError) {
        switch type.unqualified {
        case .char, .unsignedChar, .bool: compiled.instructions.append(Instruction(op: .byte))
        case .short, .unsignedShort, .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong:
            compiled.instructions.append(Instruction(op: .integer))
        case .float: compiled.instructions.append(Instruction(op: .float))
        case .double: compiled.instructions.append(Instruction(op: .double))
        case .bytes: compiled.instructions.append(Instruction(op: .counted))
        case .atom, .selector: compiled.instructions.append(Instruction(op: .shared))
        case .cString: compiled.instructions.append(Instruction(op: .cString))
        case .object: compiled.instructions.append(Instruction(op: .object))
        case .classObject: compiled.instructions.append(Instruction(op: .classChain))
        case .ignored: break
        case .array(let count, let element):
            let count = Int32(clamping: count)
            switch element.unqualified {
            case .char, .unsignedChar:
                compiled.instructions.append(Instruction(op: .skip, count: count))
            default:
                let at = compiled.instructions.count
                compiled.instructions.append(Instruction(op: .repeatBody, count: count))
                try emit(element)
                compiled.instructions[at].end = Int32(clamping: compiled.instructions.count)
            }
        case .structure(_, let fields):
            for field in fields { try emit(field.type) }
        case .union:
            guard let size = type.layout(.ilp32)?.size else { throw BareScanError("union of unknown size") }
            compiled.instructions.append(Instruction(op: .skip, count: Int32(clamping: size)))
        default:
            throw BareScanError("type '\(type.encoding)' not supported")
        }
    }
}

/// The bare scan's position in the bytes; every read checked against the end, nothing else.
private struct Cursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    var offset = 0
    var littleEndian = true

    /// The bytes of `range` (within the buffer).
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base + range.lowerBound, count: range.count) }

    @_transparent  // inlined by force: @inline(__always) was declined
    mutating func byte() throws(BareScanError) -> UInt8 {
        guard offset < end else { throw BareScanError("truncated at \(offset)") }
        let value = base[offset]
        offset &+= 1
        return value
    }

    @_transparent  // inlined by force: @inline(__always) was declined
    mutating func skip(_ count: Int) throws(BareScanError) {
        guard count >= 0, count <= end &- offset else { throw BareScanError("\(count) bytes past the end at \(offset)") }
        offset &+= count
    }

    /// A fixed-width payload of `size` (2, 4 or 8) bytes in the archive's byte order.
    @_transparent  // inlined by force: @inline(__always) was declined
    mutating func fixed(_ size: Int) throws(BareScanError) -> Int64 {
        let start = offset
        try skip(size)
        var value: UInt64 = 0
        for index in 0..<size {
            let shift = littleEndian ? index : size - 1 - index
            value |= UInt64(base[start + index]) << UInt64(8 * shift)
        }
        let unused = UInt64(64 - 8 * size)
        return Int64(bitPattern: value << unused) >> Int64(unused)
    }

    /// An integer whose head byte is `head`.
    @_transparent  // inlined by force: @inline(__always) was declined
    mutating func integer(head: UInt8) throws(BareScanError) -> Int64 {
        if head < 0x80 || head >= 0x92 { return Int64(Int8(bitPattern: head)) }
        switch head {
        case 0x81: return try fixed(2)
        case 0x82: return try fixed(4)
        case 0x87: return try fixed(8)
        default: throw BareScanError("0x\(String(head, radix: 16)) is not an integer at \(offset - 1)")
        }
    }

    /// The header: streamer version 4, the signature (whose spelling gives the byte order), the
    /// system version.
    mutating func header() throws(BareScanError) {
        guard try byte() == 4 else { throw BareScanError("only streamer-4 archives") }
        let length = Int(try byte())
        let signature = offset
        try skip(length)
        littleEndian = length == 11 && base[signature] == UInt8(ascii: "s")  // "streamtyped"
        _ = try integer(head: try byte())
    }
}

/// Why the bare scan stopped.
struct BareScanError: Error, CustomStringConvertible {
    let description: String
    init(_ reason: String) { description = "bare scan: " + reason }
}
