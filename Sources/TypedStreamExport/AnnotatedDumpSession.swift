import TypedStream

/// One run of ``AnnotatedDump``: reads tokens, keeps the describer's tables up to date with
/// every token, and writes the lines that the window and the followed object let through.
struct AnnotatedDumpSession {
    private let bytes: [UInt8]
    private let options: AnnotatedDump.Options
    private let layout: AnnotatedDumpLayout
    private let window: Range<Int>
    private let bytesPerLine: Int

    private var reader: TokenReader
    private var describer: AnnotatedDumpDescriber
    private var summary = AnnotatedDump.Summary()
    /// The end of the last token read: everything before it was decoded.
    private var decodedEnd = 0
    private var follow = Follow.off

    private enum Follow: Equatable {
        /// Show everything (no object to follow).
        case off
        /// Waiting for the followed object's `new`.
        case waiting(index: Int)
        /// Inside the followed object, whose `new` was at this depth.
        case inside(index: Int, depth: Int)
        /// The followed object has ended.
        case done
    }

    /// Whether to flush the writer after every line (for line-by-line callers).
    private let flushingEachLine: Bool

    init(bytes: [UInt8], options: AnnotatedDump.Options, flushingEachLine: Bool = false) {
        self.bytes = bytes
        self.options = options
        self.flushingEachLine = flushingEachLine
        bytesPerLine = min(max(options.bytesPerLine, 1), 256)
        layout = AnnotatedDumpLayout(bytesPerLine: bytesPerLine, useColor: options.useColor)
        let lower = min(max(options.startOffset, 0), bytes.count)
        let upper = options.length.map { lower + min(max($0, 0), bytes.count - lower) } ?? bytes.count
        window = lower..<upper
        reader = TokenReader(bytes: bytes, limits: options.limits)
        describer = AnnotatedDumpDescriber(bytes: bytes, textLimit: options.textLimit, useColor: options.useColor)
        if let index = options.objectIndex { follow = .waiting(index: index) }
    }

    /// Runs the dump to the end of the window, the end of the followed object, the end of the
    /// data or the first damage, whichever comes first (or until `out` fails), writing its
    /// lines to `out`.
    mutating func run(into out: inout OutputWriter) -> AnnotatedDump.Summary {
        var tokens = AnnotatedDumpTokens(reader: reader)
        // A new object and the class links read with it go together: the object's line names
        // its class, which its first link tells. Reading stops only between such groups.
        var inChain = false
        var stopped = false
        while let token = tokens.next() {
            // The streamer-3 marker has no bytes; the object line after it says
            // "no type string" already.
            if token.code == .untypedGroup { continue }
            var preview: CompactToken?
            if token.code == .object, token.form == .new {
                inChain = true
                if let next = tokens.peek(), next.code == .classLink { preview = next }
            } else if inChain, token.code != .classLink || token.form != .new {
                inChain = false
            }
            show(token, header: tokens.header, classPreview: preview, &out)
            decodedEnd = max(decodedEnd, token.end)
            if !inChain, shouldStop || out.failed {
                stopped = true
                break
            }
        }
        reader = tokens.reader
        if !stopped, let failure = tokens.failure { showDamage(failure, &out) }
        if case .waiting(let index) = follow, summary.error == nil {
            summary.objectFound = false
            summary.lineCount += 1
            out.append(missingObjectNote(index))
            out.append(0x0A)
            if flushingEachLine { out.flush() }
        }
        return summary
    }

    // MARK: - Filtering

    private var shouldStop: Bool {
        if follow == .done { return true }
        return decodedEnd > window.upperBound || (decodedEnd == window.upperBound && window.upperBound < bytes.count)
    }

    /// Whether a token is inside the followed object (or no object is followed), updating the
    /// follow state as the object starts and ends.
    private mutating func passesFollow(_ token: CompactToken) -> Bool {
        switch follow {
        case .off: return true
        case .done: return false
        case .waiting(let index):
            guard token.code == .object, token.form == .new, token.slot == index else { return false }
            follow = .inside(index: index, depth: token.depth)
            return true
        case .inside(_, let depth):
            if token.code == .endOfObject, token.depth == depth { follow = .done }
            return true
        }
    }

    private func inWindow(_ range: Range<Int>) -> Bool {
        if range.isEmpty {
            let at = range.lowerBound
            return at >= window.lowerBound && (at < window.upperBound || (at == window.upperBound && at == bytes.count))
        }
        return range.overlaps(window)
    }

    // MARK: - Lines

    private mutating func show(_ token: CompactToken, header: StreamHeader?, classPreview: CompactToken?, _ out: inout OutputWriter) {
        // Every token goes through the describer, shown or not, to keep its tables right.
        describer.describe(token, header: header, classPreview: classPreview)
        guard passesFollow(token), inWindow(token.range) else { return }
        if token.start == token.end {
            summary.lineCount += 1
            layout.writeMarkerLine(offset: token.start, depth: token.depth, phrase: describer.phrase.bytes, to: &out)
            if flushingEachLine { out.flush() }
            return
        }
        // Head bytes are only looked up to colour them.
        let heads = options.useColor ? AnnotatedDumpLayout.headOffsets(of: token) : []
        var annotated = false
        var chunkStart = token.start
        while chunkStart < token.end {
            let chunkEnd = min(chunkStart + bytesPerLine, token.end)
            if (chunkStart..<chunkEnd).overlaps(window) {
                summary.lineCount += 1
                // The first shown line of a token carries its annotation; when the window cuts
                // off the token's first line, it says where the token started.
                layout.writeDataLine(bytes, chunkStart..<chunkEnd, role: .decoded(headOffsets: heads), depth: token.depth,
                                     continuedFrom: chunkStart == token.start ? nil : token.start,
                                     phrase: annotated ? [] : describer.phrase.bytes, to: &out)
                if flushingEachLine { out.flush() }
                annotated = true
                cover(chunkStart..<chunkEnd)
            }
            chunkStart = chunkEnd
        }
    }

    private mutating func showDamage(_ error: WireError, _ out: inout OutputWriter) {
        summary.error = error
        let showBytes: Bool
        switch follow {
        case .off, .inside: showBytes = true
        case .waiting, .done: showBytes = false
        }
        if showBytes {
            let contextEnd = min(bytes.count, max(error.offset, decodedEnd) + max(options.damageContext, 0))
            var chunkStart = decodedEnd
            var first = true
            while chunkStart < contextEnd {
                let chunkEnd = min(chunkStart + bytesPerLine, contextEnd)
                if (chunkStart..<chunkEnd).overlaps(window) {
                    var note = AnnotatedDumpPhrase(useColor: options.useColor)
                    if first { note.add(noteForUndecoded(error, contextEnd: contextEnd), .error) }
                    summary.lineCount += 1
                    layout.writeDataLine(bytes, chunkStart..<chunkEnd, role: .undecoded, depth: reader.depth,
                                         phrase: note.bytes, to: &out)
                    if flushingEachLine { out.flush() }
                    first = false
                }
                chunkStart = chunkEnd
            }
        }
        summary.lineCount += 1
        layout.writeErrorLine(error, to: &out)
        if flushingEachLine { out.flush() }
    }

    private func noteForUndecoded(_ error: WireError, contextEnd: Int) -> String {
        let remaining = bytes.count - decodedEnd
        let shown = contextEnd - decodedEnd
        let total = remaining == 1 ? "1 byte" : "\(remaining) bytes"
        return shown < remaining ? "not decoded (\(shown) of \(total) left)" : "not decoded (\(total) left)"
    }

    private func missingObjectNote(_ index: Int) -> String {
        if let what = describer.slotSummary(index) {
            return "object #\(index) is \(what), not a new object with contents"
        }
        return "no object #\(index) in this archive (its object table has \(describer.slotCount) entries)"
    }

    private mutating func cover(_ range: Range<Int>) {
        if let last = summary.coveredRanges.last, last.upperBound == range.lowerBound {
            summary.coveredRanges[summary.coveredRanges.count - 1] = last.lowerBound..<range.upperBound
        } else {
            summary.coveredRanges.append(range)
        }
    }
}
