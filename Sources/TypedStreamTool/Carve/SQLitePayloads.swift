/// The cell payloads of a SQLite database file that spill to overflow pages, so that `carve`
/// can read a blob larger than a page whole: SQLite keeps the first part of such a payload in
/// its cell on a b-tree page and the rest in a chain of overflow pages, each beginning with the
/// next page's number (0 at the end of the chain) followed by `usable size − 4` bytes of payload.
///
/// The file format's facts used here: the file starts `"SQLite format 3\0"`; the page size is
/// the big-endian 16-bit number at offset 16 (1 meaning 65 536), the bytes reserved at the end
/// of each page are at offset 20, and the usable size U is the page size less them. Page `n`
/// (numbered from 1) starts at `(n − 1) × page size`; page 1's b-tree header follows the
/// 100-byte file header. A b-tree page's first byte is its kind: 13 table leaf, 10 index leaf,
/// 2 index interior (5, table interior, holds no payloads); the cell count is at header
/// offset 3 and the 2-byte cell offsets follow the 8-byte (leaf) or 12-byte (interior) header.
/// A cell holds (after a 4-byte child page on an index interior page) the payload size P as a
/// varint, the row id as a varint (table leaf only), then the payload. With
/// X = U − 35 (table leaf) or (U − 12) × 64 / 255 − 23 (index), M = (U − 12) × 32 / 255 − 23
/// and K = M + (P − M) mod (U − 4): all of P stays in the cell when P ≤ X, else K bytes when
/// K ≤ X, else M; then the 4-byte number of the first overflow page.
///
/// Built by one pass over the pages (``init(source:)``), it maps each overflow page to the cell
/// it continues, so that a signature found anywhere in a spilled payload — on the b-tree page or
/// on an overflow page — is looked at in the payload put back together (``locate(_:)``,
/// ``payload(of:upTo:)``). Memory: one small entry per overflow page, one page buffer, and the
/// payload reassembled (at most what its caller asks for). No recursion; a chain that loops,
/// leaves the file, or runs into another chain's page ends there and is reported broken.
final class SQLitePayloads {
    /// A spilled payload's cell.
    struct Cell: Hashable, Sendable {
        /// The number of its b-tree page.
        var page: Int
        /// The file offset of the payload's first byte on that page.
        var localStart: Int
        /// How many of the payload's bytes are on the b-tree page.
        var localCount: Int
        /// The payload's size, all pages together.
        var payloadSize: Int
        /// The number of the first overflow page.
        var firstOverflow: Int
    }

    /// Where a file offset lies in a spilled payload.
    struct Location: Hashable, Sendable {
        /// The payload's cell.
        var cell: Cell
        /// The file offset.
        var fileOffset: Int
        /// The offset's place in the reassembled payload.
        var payloadOffset: Int
        /// The overflow page it is on, or `nil` when it is in the cell's part on its b-tree page.
        var overflowPage: Int?
    }

    /// A payload put back together from one place on (or the part of it asked for).
    struct Payload {
        /// Its bytes, from that place.
        var bytes: [UInt8]
        /// Where they lie in the file, in order: the file ranges the bytes come from, one per
        /// page.
        var pieces: [Range<Int>]
        /// Why the chain ended before the bytes asked for, when it did.
        var broken: String?
    }

    /// `"SQLite format 3\0"`.
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    private let source: CarveSource
    /// The page size in bytes.
    let pageSize: Int
    /// The bytes of each page that b-tree and overflow pages use (the page size less the bytes reserved).
    let usableSize: Int
    /// The number of whole pages in the file.
    let pageCount: Int
    /// For each overflow page of a spilled payload: its cell, and the payload offset of the
    /// page's first byte of content.
    private var owners: [Int32: (cell: Int32, payloadOffset: Int64)] = [:]
    /// The spilled cells, in file order.
    private(set) var cells: [Cell] = []
    /// One page, read by the pass that maps them.
    private var buffer: [UInt8] = []

    /// Reads the page map of `source` when it is a SQLite database file, else returns `nil`.
    /// Throws ``FileReadError`` when the file cannot be read.
    init?(source: CarveSource) throws(FileReadError) {
        let header = try source.read(at: 0, count: 100)
        guard header.count == 100, header.starts(with: Self.magic) else { return nil }
        let raw = Int(header[16]) << 8 | Int(header[17])
        let pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        let usable = pageSize - Int(header[20])
        guard usable >= 480 else { return nil }
        self.source = source
        self.pageSize = pageSize
        usableSize = usable
        pageCount = source.size / pageSize
        try mapPages()
    }

    /// The number of the page that holds file offset `offset`.
    func page(of offset: Int) -> Int { offset / pageSize + 1 }

    /// The spilled payload that holds file offset `offset` — in a cell's part on its b-tree page
    /// or in the content of one of its overflow pages — or `nil`.
    func locate(_ offset: Int) -> Location? {
        let page = page(of: offset)
        let pageStart = (page - 1) * pageSize
        if let owner = owners[Int32(truncatingIfNeeded: page)] {
            let inPage = offset - pageStart - 4
            guard inPage >= 0, inPage < usableSize - 4 else { return nil }
            let cell = cells[Int(owner.cell)]
            let payloadOffset = Int(owner.payloadOffset) + inPage
            guard payloadOffset < cell.payloadSize else { return nil }
            return Location(cell: cell, fileOffset: offset, payloadOffset: payloadOffset, overflowPage: page)
        }
        // The cells of that page: `cells` is in page order.
        var low = 0, high = cells.count
        while low < high {
            let middle = (low + high) / 2
            if cells[middle].page < page { low = middle + 1 } else { high = middle }
        }
        while low < cells.count, cells[low].page == page {
            let cell = cells[low]
            if offset >= cell.localStart, offset < cell.localStart + cell.localCount {
                return Location(cell: cell, fileOffset: offset, payloadOffset: offset - cell.localStart, overflowPage: nil)
            }
            low += 1
        }
        return nil
    }

    /// At most `limit` bytes of a spilled payload from `location` on: the rest of its page,
    /// then the overflow chain's pages after it, so that what is read never begins before the
    /// place asked for. Throws ``FileReadError``.
    func payload(from location: Location, upTo limit: Int) throws(FileReadError) -> Payload {
        let cell = location.cell
        let wanted = max(0, min(limit, cell.payloadSize - location.payloadOffset))
        // The first piece: the rest of the cell's bytes on its page, or of the overflow page's content.
        let fileStart = location.fileOffset
        let pieceEnd = location.overflowPage.map { ($0 - 1) * pageSize + usableSize } ?? cell.localStart + cell.localCount
        let linkPage = location.overflowPage
        var bytes = try source.read(at: fileStart, count: min(wanted, pieceEnd - fileStart))
        var pieces = [fileStart..<(fileStart + bytes.count)]
        var payloadOffset = location.payloadOffset + bytes.count
        var next = cell.firstOverflow
        var seen = Set<Int>()
        if let linkPage {
            seen.insert(linkPage)
            let link = try source.read(at: (linkPage - 1) * pageSize, count: 4)
            next = link.count == 4 ? Self.bigEndian32(link, at: 0) : 0
        }
        while bytes.count < wanted {
            guard next >= 1, next <= pageCount else {
                let reason = next == 0 ? "the overflow chain ends" : "the overflow chain points at page \(next), outside the file's \(pageCount) pages"
                return Payload(bytes: bytes, pieces: pieces, broken: reason + " at byte \(payloadOffset) of the payload's \(cell.payloadSize)")
            }
            guard seen.insert(next).inserted else {
                return Payload(bytes: bytes, pieces: pieces, broken: "the overflow chain comes back to page \(next) (a loop)")
            }
            guard let owner = owners[Int32(truncatingIfNeeded: next)], Int(owner.payloadOffset) == payloadOffset,
                  cells[Int(owner.cell)].localStart == cell.localStart else {
                return Payload(bytes: bytes, pieces: pieces, broken: "overflow page \(next) belongs to another payload")
            }
            let take = min(wanted - bytes.count, usableSize - 4)
            let page = try source.read(at: (next - 1) * pageSize, count: 4 + take)
            guard page.count == 4 + take else {
                return Payload(bytes: bytes, pieces: pieces, broken: "overflow page \(next) is cut short")
            }
            let contentStart = (next - 1) * pageSize + 4
            pieces.append(contentStart..<(contentStart + take))
            bytes.append(contentsOf: page[4...])
            payloadOffset += take
            next = Self.bigEndian32(page, at: 0)
        }
        return Payload(bytes: bytes, pieces: pieces, broken: nil)
    }

    /// One pass over the pages: each b-tree page's spilled cells, and the pages of their chains.
    private func mapPages() throws(FileReadError) {
        var page = 1
        while page <= pageCount {
            buffer = try source.read(at: (page - 1) * pageSize, count: pageSize)
            if buffer.count == pageSize { try mapCells(ofPage: page) }
            page += 1
        }
    }

    /// The spilled cells of the b-tree page `page` held in ``buffer``, and their chains.
    private func mapCells(ofPage page: Int) throws(FileReadError) {
        let header = page == 1 ? 100 : 0
        let kind = buffer[header]
        guard kind == 13 || kind == 10 || kind == 2 else { return }
        let headerSize = kind == 2 ? 12 : 8
        let cellCount = Int(buffer[header + 3]) << 8 | Int(buffer[header + 4])
        let pointers = header + headerSize
        guard pointers + 2 * cellCount <= usableSize else { return }
        let u = usableSize
        let maxLocal = kind == 13 ? u - 35 : (u - 12) * 64 / 255 - 23
        let minLocal = (u - 12) * 32 / 255 - 23
        for index in 0..<cellCount {
            var at = Int(buffer[pointers + 2 * index]) << 8 | Int(buffer[pointers + 2 * index + 1])
            guard at >= pointers + 2 * cellCount, at < u else { continue }
            if kind == 2 { at += 4 }
            guard let size = varint(&at), size <= Int64(Int32.max) else { continue }
            if kind == 13 { guard varint(&at) != nil else { continue } }
            let payloadSize = Int(size)
            guard payloadSize > maxLocal else { continue }
            let spill = minLocal + (payloadSize - minLocal) % (u - 4)
            let local = spill <= maxLocal ? spill : minLocal
            guard at + local + 4 <= u else { continue }
            let first = Self.bigEndian32(buffer, at: at + local)
            let cell = Cell(page: page, localStart: (page - 1) * pageSize + at, localCount: local, payloadSize: payloadSize, firstOverflow: first)
            cells.append(cell)
            try mapChain(of: cell, number: Int32(cells.count - 1))
        }
    }

    /// Records the overflow pages of `cell` (number `number` in ``cells``) in ``owners``,
    /// reading the first 4 bytes of each; stops at a page out of the file, a page already owned
    /// (a loop, or another chain's), or the payload's end.
    private func mapChain(of cell: Cell, number: Int32) throws(FileReadError) {
        var next = cell.firstOverflow
        var payloadOffset = cell.localCount
        while payloadOffset < cell.payloadSize, next >= 1, next <= pageCount {
            let key = Int32(truncatingIfNeeded: next)
            guard owners[key] == nil else { return }
            owners[key] = (number, Int64(payloadOffset))
            let link = try source.read(at: (next - 1) * pageSize, count: 4)
            guard link.count == 4 else { return }
            next = Self.bigEndian32(link, at: 0)
            payloadOffset += usableSize - 4
        }
    }

    /// A SQLite varint at `at` in ``buffer`` (1–9 bytes, big-endian, 7 bits a byte but all 8 of
    /// the ninth), moving `at` past it; `nil` when it runs off the usable part of the page.
    private func varint(_ at: inout Int) -> Int64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard at < usableSize else { return nil }
            let byte = buffer[at]
            at += 1
            if index == 8 { return Int64(bitPattern: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return Int64(bitPattern: value) }
        }
        return nil
    }

    /// The big-endian 32-bit number at `at` in `bytes`.
    private static func bigEndian32(_ bytes: [UInt8], at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
