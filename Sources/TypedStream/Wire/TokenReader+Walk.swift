/// The fast way through a whole archive: recursive descent instead of the resumable frame
/// stack of ``TokenReader/nextCompact()``.
///
/// It reads with the same primitives (every value, string, slot and limit check is the same
/// code) and hands the visitor the same tokens in the same order; only the control flow differs —
/// groups, objects and arrays become calls, so nothing is pushed or popped per group and no
/// token has to be returned through a resumable loop. Recursion is bounded by
/// ``DecodingLimits/maximumNesting`` (three small frames per level). Streamer-3 archives, whose
/// untyped objects need look-ahead, take the frame-stack path.
///
/// **Inlining.** The value reader (`execute`), the object head, class links and type strings
/// are marked `@_transparent` rather than `@inline(__always)`: with the latter the optimizer's
/// cost model still declined to inline them into these recursive functions (`-Rpass-missed=
/// sil-inliner` says "not profitable", cost 639–2228), and every call then built a whole
/// ``CompactToken`` in memory. Forced inlining lets the unused fields vanish; it took 15 % off
/// the instructions of a scan (callgrind, docs/performance.md).
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
        while offset < bytes.count {
            try walkGroup(&visitor)
        }
    }

    /// Reads one group: its type string and its values.
    mutating func walkGroup<Visitor: CompactTokenVisitor>(_ visitor: inout Visitor) throws(WireError) {
        let (token, range) = try readTypeString()
        _ = hand(token, to: &visitor)
        var pc = range.lowerBound
        while pc < range.upperBound {
            pc = try walkOperation(pc, &visitor)
        }
    }

    /// Reads the value of operation `pc`; returns the next operation's index.
    @inline(__always)
    mutating func walkOperation<Visitor: CompactTokenVisitor>(_ pc: Int, _ visitor: inout Visitor) throws(WireError) -> Int {
        let op = program.ops[pc]
        switch op.code {
        case .object:
            let start = offset
            let head = try readByte("an object (@)")
            let token = try readObjectHead(head, at: start)
            _ = visitor.visit(token)
            if token.form == .new { try walkObjectBody(&visitor) }
            return pc + 1
        case .classChain:
            try walkClassChain(&visitor)
            return pc + 1
        case .arrayStart:
            try walkArray(pc, &visitor)
            return Int(op.c) + 1
        default:
            if let token = try execute(pc) { _ = visitor.visit(token) }
            return pc + 1
        }
    }

    /// Reads a `[N t]` array of non-byte elements starting at operation `pc`.
    mutating func walkArray<Visitor: CompactTokenVisitor>(_ pc: Int, _ visitor: inout Visitor) throws(WireError) {
        // `execute` checks the count and nesting and emits the start; its frame is not needed.
        guard let token = try execute(pc) else { return }
        pop()
        _ = visitor.visit(token)
        let op = program.ops[pc]
        let bodyEnd = Int(op.c)
        for _ in 0..<Int(token.value) {
            var element = pc + 1
            while element < bodyEnd {
                element = try walkOperation(element, &visitor)
            }
        }
        nesting -= 1
        _ = visitor.visit(CompactToken(.arrayEnd, start: offset, end: offset, depth: nesting))
    }

    /// Reads a class chain, link by link, until a nil or a reference ends it.
    @inline(__always)
    mutating func walkClassChain<Visitor: CompactTokenVisitor>(_ visitor: inout Visitor) throws(WireError) {
        while true {
            let start = offset
            var link = try readClassLink()
            link.start = start
            link.end = offset
            link.depth = nesting
            _ = visitor.visit(link)
            if link.form != .new { return }
        }
    }

    /// Reads a new object's class chain, groups and end-of-object marker.
    mutating func walkObjectBody<Visitor: CompactTokenVisitor>(_ visitor: inout Visitor) throws(WireError) {
        try walkClassChain(&visitor)
        while true {
            guard offset < bytes.count else {
                throw WireError(.truncated, at: offset, "expected a type string or end of object (0x86), found end of data")
            }
            if bytes[offset] == HeadByte.endOfObject {
                let start = offset
                offset += 1
                nesting -= 1
                _ = visitor.visit(CompactToken(.endOfObject, start: start, end: offset, depth: nesting))
                return
            }
            try walkGroup(&visitor)
        }
    }
}
