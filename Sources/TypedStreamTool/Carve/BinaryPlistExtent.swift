import TypedStream
import TypedStreamExport

/// Where a `bplist00` binary property list that starts at a known offset ends, and whether it
/// is an NSKeyedArchiver archive.
///
/// A binary property list ends with a 32-byte trailer: 6 zero bytes (unused, sort version), the
/// offset size, the reference size, then the object count, top object and offset-table offset
/// as 8-byte big-endian numbers. Its offset table comes right before it (as CoreFoundation and
/// this package write it), so a trailer at `t` belongs to the list that starts at
/// `t − offsetTableOffset − objectCount × offsetSize`. A candidate's end is found by the
/// trailers that point back at it; it is kept when ``BinaryPlistReader`` reads it and its top
/// dictionary has the key `$archiver`.
enum BinaryPlistExtent {
    /// What was found.
    enum Outcome: Equatable {
        /// A keyed archive of `length` bytes, written by `archiver`.
        case keyedArchive(length: Int, archiver: String)
        /// A binary property list that is not a keyed archive (not carved).
        case otherPlist
        /// A header, but no list: why, and where (from the start).
        case damaged(offset: Int, reason: String)
    }

    /// The trailer's size.
    static let trailerSize = 32

    /// The length of the list whose trailer starts at `trailer` in `buffer` (from the list's
    /// first byte to the trailer's last), or `nil` when the 32 bytes there are not a plausible
    /// trailer whose offset table ends right before it.
    static func listLength(trailerAt trailer: Int, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard trailer >= 0, buffer.count - trailer >= trailerSize else { return nil }
        for position in trailer..<trailer + 6 where buffer[position] != 0 { return nil }
        let offsetSize = Int(buffer[trailer + 6]), referenceSize = Int(buffer[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { return nil }
        func field(_ at: Int) -> UInt64? {
            var value: UInt64 = 0
            for position in at..<at + 8 { value = value << 8 | UInt64(buffer[position]) }
            return value <= UInt64(1 << 40) ? value : nil
        }
        guard let objects = field(trailer + 8), let top = field(trailer + 16), let table = field(trailer + 24),
              objects >= 1, top < objects, table >= 9 else { return nil }
        return Int(table) + Int(objects) * offsetSize + trailerSize
    }

    /// Reads the list `bytes` (a whole candidate, trailer included) and says whether it is a
    /// keyed archive.
    static func check(_ bytes: [UInt8]) -> Outcome {
        do {
            let root = try BinaryPlistReader.read(bytes)
            guard let archiver = root["$archiver"] else { return .otherPlist }
            if case .string(let name) = archiver { return .keyedArchive(length: bytes.count, archiver: name) }
            return .keyedArchive(length: bytes.count, archiver: "?")
        } catch {
            return .damaged(offset: error.offset ?? 0, reason: error.reason)
        }
    }

    /// The ends of lists starting at offset 0 of `bytes` (decoded base64), shortest first: the
    /// ends of the trailers in `bytes` that point back at 0.
    static func ends(in bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBytes { buffer in
            var ends: [Int] = []
            var trailer = 9
            while trailer + trailerSize <= buffer.count {
                if buffer[trailer] == 0, let length = listLength(trailerAt: trailer, in: buffer), length == trailer + trailerSize {
                    ends.append(length)
                }
                trailer += 1
            }
            return ends
        }
    }
}

/// The trailers of binary property lists in a ``CarveSource``, found by one pass that runs
/// ahead of the carve's scan: for each `bplist00` start the scan meets, the trailers up to
/// ``maximumSize`` bytes past it are known, each recorded under the start it points back at.
/// Every byte is looked at once however many starts there are, so a file full of `bplist00`
/// costs no more than one without.
final class BinaryPlistTrailers {
    /// How far past a start a trailer is looked for.
    let maximumSize: Int
    private let source: CarveSource
    /// The piece of the source being looked at (1 MiB and a trailer), allocated once.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize + BinaryPlistExtent.trailerSize, alignment: 16)
    private static let pieceSize = 1 << 20
    /// Offsets below this have been looked at as trailer starts.
    private var scanned = 0
    /// List starts (where `bplist00` is) → the ends of the lists there, shortest first.
    private var ends: [Int: [Int]] = [:]

    /// Trailers of lists in `source` of at most `maximumSize` bytes.
    init(source: CarveSource, maximumSize: Int) {
        self.source = source
        self.maximumSize = maximumSize
    }

    deinit { buffer.deallocate() }

    /// The ends of the lists that start at `start` (where `bplist00` is), shortest first: at
    /// most 4. Throws ``FileReadError`` when the source cannot be read.
    func ends(ofListAt start: Int) throws(FileReadError) -> [Int] {
        let horizon = min(source.size, start + maximumSize)
        scanned = max(scanned, start + 8)
        while scanned + BinaryPlistExtent.trailerSize <= horizon {
            let chunkStart = scanned
            let wanted = min(horizon, scanned + Self.pieceSize + BinaryPlistExtent.trailerSize - 1) - chunkStart
            let count = try source.read(at: chunkStart, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            let chunkEnd = chunkStart + count
            guard count >= BinaryPlistExtent.trailerSize else { break }
            var found: [(start: Int, end: Int)] = []
            do {
                let buffer = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                var trailer = 0
                while trailer + BinaryPlistExtent.trailerSize <= buffer.count {
                    if buffer[trailer] == 0, let length = BinaryPlistExtent.listLength(trailerAt: trailer, in: buffer) {
                        let end = chunkStart + trailer + BinaryPlistExtent.trailerSize
                        if length <= maximumSize, end - length >= start { found.append((end - length, end)) }
                    }
                    trailer += 1
                }
            }
            for (listStart, end) in found where try startsList(at: listStart) {
                if ends[listStart, default: []].count < 4 { ends[listStart, default: []].append(end) }
            }
            scanned = chunkEnd - BinaryPlistExtent.trailerSize + 1
        }
        let result = ends.removeValue(forKey: start) ?? []
        // Starts the scan has passed will never be asked for.
        if ends.count > 4096 { ends = ends.filter { $0.key > start } }
        return result
    }

    private func startsList(at offset: Int) throws(FileReadError) -> Bool {
        try source.read(at: offset, count: 8) == ForeignFormat.binaryPropertyList00
    }
}
