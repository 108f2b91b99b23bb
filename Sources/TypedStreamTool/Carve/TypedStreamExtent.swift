import TypedStream

/// Where a typedstream that starts at a known offset ends, when it is followed by anything at
/// all (the rest of a database page, a disk image, a memory dump).
///
/// A typedstream has no length field and no trailer: it is a header and top-level groups until
/// the data ends. So the archive is taken to end where its last complete top-level group ends,
/// as far as the checked reader (``TokenReader``) gets before the bytes stop making sense:
///
/// 1. The bytes from the start are read in a window of 512 bytes; when the reader runs out of
///    window (the data is cut short, or a length runs past it), the window grows fourfold and
///    the reading starts again, up to ``maximumSize`` — so the work is bounded by the archive's
///    own size, and by ``maximumSize`` for one that never ends. Once a group holding an object
///    (the root) is complete, a later group may grow the window only to 16 times the bytes
///    before it, or 64 KiB: what follows an archive often starts like a group and then claims
///    a length of megabytes, and would otherwise make every such archive read ``maximumSize``
///    bytes. (NeXT documents that write a version number before the root object are not
///    affected: that first group holds no object.)
/// 2. The end is the end of the last token read when the reader was between top-level groups
///    there, otherwise the start of the last top-level group it began. Trailing groups that
///    bring nothing new — only back-references and nils, such as the one byte `99` that a
///    streamer-3 archive reads as "object #7 again" — and trailing groups made only of `00` or
///    only of `FF` bytes (free space after a file: `00 00` reads as group "type string #110,
///    value 0" in a large archive) are left out: what follows an archive reads that way by
///    chance far more often than an archive ends that way.
/// 3. That prefix must pass ``ArchiveIndex`` whole (every check of the reader, every object
///    with a class, no class chain loops); if it does not, the end before it is tried.
///
/// What follows the archive may still by chance read as one more small complete group with a
/// value in it; the archive then ends a few bytes late, and still decodes.
enum TypedStreamExtent {
    /// What was found.
    enum Outcome: Equatable {
        /// An archive of `length` bytes with `groups` top-level groups.
        case archive(length: Int, groups: Int, header: StreamHeader)
        /// A header, but no complete archive: why, and where (from the start).
        case damaged(offset: Int, reason: String)
    }

    /// The largest archive looked for by default: 64 MiB.
    static let defaultMaximumSize = 64 << 20

    /// The first window read.
    static let firstWindow = 512

    /// The least a later group may grow the window to (see the overview).
    static let laterGroupWindow = 64 << 10

    /// Finds the archive at the start of the bytes `fetch` gives: `fetch(n)` returns the first
    /// `n` bytes, or all there are when fewer. Reads at most `maximumSize` bytes. Type strings
    /// are compiled once for all the candidates that share `compiled`. Throws what `fetch` throws.
    static func find<Failure: Error>(maximumSize: Int = defaultMaximumSize, limits: DecodingLimits = .default,
                                     compiled: inout CompiledTypeStrings,
                                     fetch: (Int) throws(Failure) -> [UInt8]) throws(Failure) -> Outcome {
        var window = min(firstWindow, maximumSize)
        while true {
            let bytes = try fetch(window)
            let reading = read(bytes, limits: limits, compiled: &compiled)
            var canGrow = bytes.count == window && window < maximumSize
            if canGrow, window >= laterGroupWindow, let root = reading.firstObjectGroup {
                // Where the groups after the root begin: the last group start read after it, or
                // the end of the last token when everything before it is a whole archive (the
                // reading stopped at the start of the next group).
                var boundary: Int?
                if root + 1 < reading.groupStarts.count {
                    boundary = reading.groupStarts.last
                } else if (try? ArchiveIndex(bytes: Array(bytes[..<reading.lastEnd]), limits: limits, compiled: &compiled)) != nil {
                    boundary = reading.lastEnd
                }
                if let boundary, window >= 16 * boundary { canGrow = false }
            }
            if canGrow {
                if reading.error == nil { window = min(window * 4, maximumSize); continue }
                if let error = reading.error, error.code == .truncated || error.code == .badLength {
                    window = min(window * 4, maximumSize)
                    continue
                }
            }
            return settle(bytes, reading, limits: limits, compiled: &compiled, reachedMaximum: bytes.count >= maximumSize)
        }
    }

    /// One reading of a window: the starts of the top-level groups it began, the end of the
    /// last token it read, and the error that stopped it (none when it read to the end).
    private struct Reading {
        var header: StreamHeader?
        var groupStarts: [Int] = []
        /// Per group: whether it holds only references and nils so far.
        var referencesOnly: [Bool] = []
        /// The first group that holds a new object.
        var firstObjectGroup: Int?
        var lastEnd = 0
        var error: WireError?
    }

    private static func read(_ bytes: [UInt8], limits: DecodingLimits, compiled: inout CompiledTypeStrings) -> Reading {
        var reading = Reading()
        var reader = TokenReader(bytes: bytes, limits: limits, compiled: compiled)
        defer { compiled = reader.compiledTypeStrings }
        do {
            while let token = try reader.nextCompact() {
                if token.depth == 0, token.code == .typeString || token.code == .untypedGroup {
                    // Streamer 3 marks a group with no type string by an empty token at its start.
                    if reading.groupStarts.last != token.start {
                        reading.groupStarts.append(token.start)
                        reading.referencesOnly.append(true)
                    }
                }
                if reading.referencesOnly.last == true, !isReference(token) { reading.referencesOnly[reading.referencesOnly.count - 1] = false }
                if reading.firstObjectGroup == nil, token.code == .object, token.form == .new, !reading.groupStarts.isEmpty {
                    reading.firstObjectGroup = reading.groupStarts.count - 1
                }
                reading.lastEnd = token.end
            }
        } catch {
            reading.error = error
        }
        reading.header = reader.header
        return reading
    }

    /// Picks the end from a final reading (see the type's overview).
    private static func settle(_ bytes: [UInt8], _ reading: Reading, limits: DecodingLimits,
                               compiled: inout CompiledTypeStrings, reachedMaximum: Bool) -> Outcome {
        guard let header = reading.header, let first = reading.groupStarts.first else {
            if let error = reading.error { return .damaged(offset: error.offset, reason: error.reason) }
            return .damaged(offset: reading.lastEnd, reason: "a header and nothing after it")
        }
        // Candidate ends, latest first: where the reading stopped (when it may be between
        // groups), then the start of each group it began after the first.
        var ends: [Int] = []
        if reading.error == nil { ends.append(bytes.count) } else if reading.lastEnd > first { ends.append(reading.lastEnd) }
        for start in reading.groupStarts.dropFirst().reversed() where start < (ends.last ?? Int.max) { ends.append(start) }
        var tries = 0
        var refused: WireError?
        for var end in ends {
            if tries == 3 { break }
            // Leave out trailing groups of fill bytes.
            var groups = reading.groupStarts.prefix { $0 < end }
            while groups.count > 1, let last = groups.last, reading.referencesOnly[groups.count - 1] || isFill(bytes[last..<end]) {
                end = last
                groups.removeLast()
            }
            tries += 1
            do {
                _ = try ArchiveIndex(bytes: Array(bytes[..<end]), limits: limits, compiled: &compiled)
                return .archive(length: end, groups: groups.count, header: header)
            } catch {
                if refused == nil { refused = error }
            }
        }
        if reading.error == nil, let refused { return .damaged(offset: refused.offset, reason: refused.reason) }
        if let error = reading.error {
            let beyond = reachedMaximum && (error.code == .truncated || error.code == .badLength)
            return .damaged(offset: error.offset, reason: beyond ? "no complete top-level group within the first \(bytes.count) bytes (the size limit)" : error.reason)
        }
        return .damaged(offset: bytes.count, reason: "no complete top-level group within the first \(bytes.count) bytes (the size limit)")
    }

    /// Whether `token` only refers to something read before (or is nil, or marks a group).
    private static func isReference(_ token: CompactToken) -> Bool {
        switch token.code {
        case .untypedGroup, .arrayEnd, .structStart, .structEnd: true
        case .arrayStart: token.value == 0
        case .typeString: token.textIsReference
        case .object, .classLink, .cString: token.form == .reference || token.form == .null
        case .sharedString: token.form == .null || token.textIsReference
        case .unsharedString: token.form == .null
        default: false
        }
    }

    /// Whether `bytes` are all `00` or all `FF`.
    private static func isFill(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, first == 0 || first == 0xFF else { return false }
        return bytes.allSatisfy { $0 == first }
    }
}
