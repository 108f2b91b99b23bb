import TypedStream

/// Finds the archives inside any file — a database, a disk image, a memory dump, a property
/// list with base64 values — in one pass and bounded memory.
///
/// The file is read in pieces of ``chunkSize`` bytes (with a few bytes of overlap, so a
/// signature across two pieces is found once). Every signature found (``CarveSignature``) is a
/// candidate, examined in file order:
///
/// - a typedstream ends where its last complete top-level group ends (``TypedStreamExtent``);
/// - a binary property list ends at the trailer that points back at it, and counts when its top
///   dictionary has `$archiver` (``BinaryPlistExtent``, ``BinaryPlistTrailers``);
/// - base64 text is decoded as far as the archive in it needs (``Base64Run``).
///
/// In a SQLite database file, a candidate in a cell payload that spills to overflow pages is
/// examined in the payload put back together (``SQLitePayloads``) — a blob larger than a page
/// is found whole — and its bytes on those pages are not looked at again; when it is damaged
/// there too, the file's bytes as they lie are examined as for any other file.
///
/// A whole archive is reported as ``CarvedItem/Status/ok`` and the scan goes on after it (an
/// archive inside another is part of it, not found again); a candidate with no whole archive is
/// reported as ``CarvedItem/Status/damaged`` and the scan goes on at the next byte. Each
/// candidate reads at most ``maximumSize`` bytes (base64: its decoded bytes), and memory stays
/// near ``chunkSize`` plus the largest archive.
///
/// The work stays linear in the file's size whatever it holds: a candidate that turns out
/// damaged usually fails within a few bytes, but a crafted file can nest archives that never
/// end (each header's string holds the next header and all after it), so that every candidate
/// reads to the end of the file. Damaged candidates may therefore read, together, at most twice
/// the file's size plus ``maximumSize``; past that, each candidate reads at most
/// ``exhaustedMaximumSize`` bytes.
///
/// ```swift
/// let carver = Carver(source: try CarveSource(path: "dump.bin", context: context))
/// let totals = try carver.run { item in print(item.tableLine, terminator: "") }
/// ```
struct Carver {
    /// The file.
    let source: CarveSource
    /// The largest archive looked for (default 64 MiB); a candidate never reads more.
    var maximumSize = TypedStreamExtent.defaultMaximumSize
    /// How much of the file is scanned at a time (default 8 MiB).
    var chunkSize = 8 << 20
    /// What a candidate may read once damaged candidates have read their share (4 KiB).
    static let exhaustedMaximumSize = 4096

    /// What a run found, in numbers.
    struct Totals: Hashable, Sendable {
        /// Whole archives.
        var ok = 0
        /// Damaged candidates.
        var damaged = 0
        /// Bytes of the file that whole archives take.
        var carvedBytes = 0
        /// Bytes read (decoded, for base64) by candidates that turned out damaged.
        var damagedRead = 0
    }

    /// Scans the whole file and hands each item found to `found`, in file order. Throws
    /// ``FileReadError`` when the file cannot be read, or what `found` throws.
    func run(_ found: (CarvedItem) throws -> Void) throws -> Totals {
        var totals = Totals()
        let trailers = BinaryPlistTrailers(source: source, maximumSize: maximumSize)
        let margin = 8
        var chunkStart = 0
        var resume = 0
        // Type strings compiled once for all candidates (message bodies share most of theirs).
        var compiled = CompiledTypeStrings()
        // What damaged candidates may read in all (what they have read is in the totals).
        let damagedBudget = 2 * source.size + maximumSize
        // A SQLite database's payloads that spill to overflow pages, and the file ranges of the
        // archives carved whole from them, by page (their bytes are not looked at again).
        let database = try SQLitePayloads(source: source)
        var covered: [Int: Range<Int>] = [:]
        // One buffer for every piece: the margin before it, the piece, the longest signature after.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize + CarveSignature.longest + 2 * margin, alignment: 16)
        defer { buffer.deallocate() }
        while chunkStart < source.size {
            let bufferStart = max(0, chunkStart - margin)
            let chunkEnd = min(source.size, chunkStart + chunkSize)
            let count = try source.read(at: bufferStart, into: UnsafeMutableRawBufferPointer(
                rebasing: buffer[0..<(chunkEnd + CarveSignature.longest + margin - bufferStart)]))
            let hits = CarveSignature.hits(in: UnsafeRawBufferPointer(rebasing: buffer[0..<count]),
                                           startingIn: (chunkStart - bufferStart)..<(chunkEnd - bufferStart))
            for hit in hits {
                let offset = bufferStart + hit.offset
                guard offset >= resume else { continue }
                let maximum = totals.damagedRead > damagedBudget ? min(maximumSize, Self.exhaustedMaximumSize) : maximumSize
                var spilledItem: CarvedItem?
                if let database, let location = database.locate(offset) {
                    if let range = covered[database.page(of: offset)], range.contains(offset) { continue }
                    let spilled = try examineSpilled(hit.signature, at: offset, location, in: database, maximum: maximum, compiled: &compiled)
                    if let item = spilled.item, item.status == .ok {
                        try found(item)
                        totals.ok += 1
                        totals.carvedBytes += item.length
                        for piece in spilled.pieces { covered[database.page(of: piece.lowerBound)] = piece }
                        resume = max(resume, spilled.pieces.first?.upperBound ?? offset + 1)
                        continue
                    }
                    totals.damagedRead += spilled.read
                    spilledItem = spilled.item
                }
                var (item, skipTo, read) = try examine(hit.signature, at: offset, maximum: maximum, trailers: trailers, compiled: &compiled)
                // Damaged both ways: the payload put back together says more of what is wrong.
                if let spilled = spilledItem, item?.status != .ok { item = spilled }
                if item?.status != .ok { totals.damagedRead += read }
                if let item {
                    try found(item)
                    if item.status == .ok {
                        totals.ok += 1
                        totals.carvedBytes += item.length
                        resume = max(resume, offset + item.length)
                    } else {
                        totals.damaged += 1
                    }
                }
                if let skipTo { resume = max(resume, skipTo) }
            }
            chunkStart = max(chunkEnd, resume)
        }
        return totals
    }

    /// Examines one candidate: the item to report (none for a property list that is not a keyed
    /// archive), and where the scan may go on at the earliest besides.
    private func examine(_ signature: CarveSignature, at offset: Int, maximum maximumSize: Int,
                         trailers: BinaryPlistTrailers, compiled: inout CompiledTypeStrings) throws -> (CarvedItem?, skipTo: Int?, read: Int) {
        var read = 0
        let (item, skipTo) = try examine(signature, at: offset, maximum: maximumSize, trailers: trailers, compiled: &compiled, read: &read)
        return (item, skipTo, read)
    }

    /// ``examine(_:at:maximum:trailers:compiled:)``, adding the bytes it reads (decodes, for
    /// base64) to `read`.
    private func examine(_ signature: CarveSignature, at offset: Int, maximum maximumSize: Int, trailers: BinaryPlistTrailers,
                         compiled: inout CompiledTypeStrings, read: inout Int) throws -> (CarvedItem?, skipTo: Int?) {
        switch signature {
        case .typedStream:
            let outcome = try TypedStreamExtent.find(maximumSize: maximumSize, compiled: &compiled) { count throws(FileReadError) in
                let bytes = try source.read(at: offset, count: count)
                read += bytes.count
                return bytes
            }
            switch outcome {
            case .archive(let length, let groups, let header):
                let bytes = try source.read(at: offset, count: length)
                return (CarvedItem(offset: offset, length: length, kind: .typedStream, status: .ok,
                                   reason: Self.describe(header, groups: groups), archive: bytes), nil)
            case .damaged(let at, let reason):
                return (CarvedItem(offset: offset, length: at, kind: .typedStream, status: .damaged,
                                   reason: Self.damage(at, reason)), nil)
            }
        case .base64TypedStream:
            var run = Base64Run(source: source, start: offset, maximumText: maximumSize / 3 * 4 + maximumSize / 2)
            let outcome = try TypedStreamExtent.find(maximumSize: maximumSize, compiled: &compiled) { count throws(FileReadError) in
                try run.decode(upTo: count)
                let bytes = Array(run.decoded.prefix(count))
                read += bytes.count
                return bytes
            }
            switch outcome {
            case .archive(let length, let groups, let header):
                let text = try run.textLength(encoding: length)
                return (CarvedItem(offset: offset, length: text, kind: .base64TypedStream, status: .ok,
                                   reason: Self.describe(header, groups: groups) + ", \(length) bytes decoded",
                                   archive: Array(run.decoded.prefix(length))), nil)
            case .damaged(let at, let reason):
                let text = try run.textLength(encoding: min(at, run.decoded.count))
                return (CarvedItem(offset: offset, length: text, kind: .base64TypedStream, status: .damaged,
                                   reason: Self.damage(at, reason) + " (in the decoded bytes)"), nil)
            }
        case .binaryPlist:
            var firstDamage: (offset: Int, reason: String)?
            for end in try trailers.ends(ofListAt: offset) {
                let bytes = try source.read(at: offset, count: end - offset)
                read += bytes.count
                switch BinaryPlistExtent.check(bytes) {
                case .keyedArchive(let length, let archiver):
                    return (CarvedItem(offset: offset, length: length, kind: .keyedArchive, status: .ok,
                                       reason: "keyed archive (\(archiver)), binary property list", archive: bytes), nil)
                case .otherPlist:
                    return (nil, nil)
                case .damaged(let at, let reason):
                    if firstDamage == nil { firstDamage = (at, reason) }
                }
            }
            let (at, reason) = firstDamage ?? (8, "no binary property list trailer points back at this header within \(maximumSize) bytes")
            return (CarvedItem(offset: offset, length: at, kind: .keyedArchive, status: .damaged, reason: Self.damage(at, reason)), nil)
        case .base64BinaryPlist:
            var run = Base64Run(source: source, start: offset, maximumText: maximumSize / 3 * 4 + maximumSize / 2)
            try run.decode(upTo: maximumSize)
            read += run.decoded.count
            let examined = try offset + run.textLength(encoding: run.decoded.count)
            guard run.decoded.starts(with: ForeignFormat.binaryPropertyList00) else { return (nil, examined) }
            var firstDamage: (offset: Int, reason: String)?
            for end in BinaryPlistExtent.ends(in: run.decoded).prefix(4) {
                let bytes = Array(run.decoded.prefix(end))
                switch BinaryPlistExtent.check(bytes) {
                case .keyedArchive(let length, let archiver):
                    let text = try run.textLength(encoding: length)
                    return (CarvedItem(offset: offset, length: text, kind: .base64KeyedArchive, status: .ok,
                                       reason: "keyed archive (\(archiver)), binary property list, \(length) bytes decoded",
                                       archive: bytes), examined)
                case .otherPlist:
                    return (nil, examined)
                case .damaged(let at, let reason):
                    if firstDamage == nil { firstDamage = (at, reason) }
                }
            }
            let (at, reason) = firstDamage ?? (run.decoded.count, "no binary property list trailer points back at this header in the \(run.decoded.count) bytes decoded")
            return (CarvedItem(offset: offset, length: examined - offset, kind: .base64KeyedArchive, status: .damaged,
                               reason: Self.damage(at, reason) + " (in the decoded bytes)"), examined)
        }
    }

    /// Examines a candidate that lies in a SQLite cell payload spilling to overflow pages
    /// (`location`), in the payload put back together: the item (its offset the candidate's in
    /// the file, its length counted in the payload's bytes), the bytes read, and the file ranges
    /// a whole archive takes, in payload order.
    private func examineSpilled(_ signature: CarveSignature, at offset: Int, _ location: SQLitePayloads.Location,
                                in database: SQLitePayloads, maximum: Int,
                                compiled: inout CompiledTypeStrings) throws -> (item: CarvedItem?, read: Int, pieces: [Range<Int>]) {
        let cell = location.cell
        let isText = signature == .base64TypedStream || signature == .base64BinaryPlist
        let payload = try database.payload(from: location, upTo: (isText ? 2 : 1) * maximum)
        let inner = CarveSource(bytes: payload.bytes, path: source.path)
        var read = payload.bytes.count
        var examined = 0
        let found = try Carver(source: inner, maximumSize: maximumSize, chunkSize: chunkSize).examine(
            signature, at: 0, maximum: maximum, trailers: BinaryPlistTrailers(source: inner, maximumSize: maximumSize),
            compiled: &compiled, read: &examined)
        read += examined
        guard var item = found.0 else { return (nil, read, []) }
        item.offset = offset
        item.reason += "; in a SQLite cell payload of \(cell.payloadSize) bytes (page \(cell.page) and overflow pages), "
            + "put back together: the offset is the file's, of its first byte; the length counts the payload's bytes"
        if item.status != .ok, let broken = payload.broken { item.reason += " (\(broken))" }
        guard item.status == .ok else { return (item, read, []) }
        // The archive's bytes in the file: the first `length` bytes of the pieces read.
        var pieces: [Range<Int>] = []
        var left = item.length
        for piece in payload.pieces where left > 0 {
            pieces.append(piece.lowerBound..<(piece.lowerBound + min(left, piece.count)))
            left -= min(left, piece.count)
        }
        return (item, 0, pieces)
    }

    /// "streamer 4, little-endian, system version 1000, 1 top-level group".
    private static func describe(_ header: StreamHeader, groups: Int) -> String {
        let order = header.byteOrder == .big ? "big-endian" : "little-endian"
        return "streamer \(header.streamerVersion), \(order), system version \(header.systemVersion.value), "
            + "\(groups) top-level group\(groups == 1 ? "" : "s")"
    }

    /// "offset 0x1c (28): reason", the offset counted from the candidate's start.
    private static func damage(_ offset: Int, _ reason: String) -> String {
        "offset \(TextFormatting.hexOffset(offset)) (\(offset)) from its start: \(reason)"
    }
}
