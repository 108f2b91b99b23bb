import TypedStreamExport

/// How the blob of an input record is spelled: `hex` (what SQLite's `hex()` prints, either
/// case) or `base64` (RFC 4648).
enum BlobEncoding: String, CaseIterable {
    case hex
    case base64

    /// "hex or base64", for help and errors.
    static var names: String { allCases.map(\.rawValue).joined(separator: " or ") }

    /// The bytes spelled by `text`. Throws ``RecordError`` `badHex` / `badBase64` (the offset is
    /// the first bad character's in the blob's text, when there is one).
    func decode(_ text: UnsafeBufferPointer<UInt8>) throws(RecordError) -> [UInt8] {
        switch self {
        case .hex:
            if let bytes = ByteText.bytes(fromHex: text) { return bytes }
            if let bad = ByteText.firstNonHexDigit(in: text) {
                throw RecordError(code: "badHex", offset: bad, reason: "the blob has a character that is not a hex digit (byte 0x\(String(text[bad], radix: 16)))")
            }
            throw RecordError(code: "badHex", offset: text.count, reason: "the blob has an odd number of hex digits (\(text.count))")
        case .base64:
            if let bytes = ByteText.bytes(fromBase64: text) { return bytes }
            throw RecordError(code: "badBase64", offset: nil, reason: "the blob is not base64")
        }
    }
}

/// Many archives through one process: reads records `ID<TAB>BLOB` from standard input, one a
/// line, as `sqlite3 -separator $'\t' chat.db "select ROWID, hex(attributedBody) from message"`
/// prints them, and writes one JSON line per record in input order — `{"id": "…", …what the
/// work gives…}`, or `{"id": "…", "error": {"code", "offset", "reason"}}` for a bad record, and
/// the stream goes on. Then `N records, M failed` on standard error; the exit status is 1 if any
/// record failed.
///
/// Lines longer than the record limit are reported as `recordTooLong` and skipped without being
/// held; empty lines are ignored; an empty blob (a NULL column) is `emptyBlob`. When standard
/// output fails (a closed pipe) reading stops and no summary is printed.
///
/// With a ``shard``, only the records whose id belongs to it are decoded and written (the id's
/// bytes as they stand before the tab; the whole line for a line without a tab; for a line over
/// the limit, what its output line's id holds): the others are skipped unread, so the shards
/// 1…N of one input write, between them, exactly the lines of the unsharded run.
struct RecordStream {
    /// How blobs are spelled.
    let encoding: BlobEncoding
    /// The longest line accepted, in bytes.
    let maximumLineLength: Int
    /// The part of the records to handle; `nil` for all.
    var shard: Shard? = nil

    /// The most bytes of one line by default: 64 MiB (a 32 MiB blob in hex), or the context's
    /// input limit when that is smaller.
    static func defaultMaximumLineLength(_ context: CommandContext) -> Int { min(context.inputLimit, 64 << 20) }

    /// Runs over standard input: `work` turns each record's blob into the JSON object text
    /// (`{"text": …}`) whose members follow the id, or throws ``RecordError``. Returns the exit
    /// code; throws ``FileReadError`` when standard input cannot be read.
    func run(_ context: CommandContext, work: ([UInt8]) throws(RecordError) -> [UInt8]) throws(FileReadError) -> ExitCode {
        var reader = LineReader(maximumLength: maximumLineLength) { (buffer: inout [UInt8], count: Int) throws(FileReadError) -> Bool in
            try context.readStandardInputChunk(into: &buffer, maximum: count)
        }
        var records = 0, failed = 0, elsewhere = 0
        let finished = try context.output.withWriter { (out: inout OutputWriter) throws(FileReadError) -> Bool in
            while let line = try reader.next() {
                if case .line(let bytes) = line, bytes.isEmpty { continue }
                guard let (id, result) = process(line, work: work) else {
                    elsewhere += 1
                    continue
                }
                records += 1
                out.append(UInt8(ascii: "{"))
                out.append(Self.idMember)
                out.append(JSONValue.string(id).text(pretty: false))
                switch result {
                case .success(let members) where members.count > 2:
                    out.append(UInt8(ascii: ","))
                    out.append(members[1...])
                case .success:
                    out.append(UInt8(ascii: "}"))
                case .failure(let error):
                    failed += 1
                    out.append(Self.errorMember)
                    out.append(error.json.text(pretty: false))
                    out.append(UInt8(ascii: "}"))
                }
                out.append(UInt8(ascii: "\n"))
                if out.failed { return false }
            }
            return true
        }
        guard finished else { return .success }  // the pipe closed: finishOutput says so
        let note = shard.map { " (shard \($0.text); \(elsewhere) records of other shards skipped)" } ?? ""
        context.printError("\(records) records, \(failed) failed" + note)
        return failed > 0 ? .failure : .success
    }

    private static let idMember: [UInt8] = Array(#""id":"#.utf8)
    private static let errorMember: [UInt8] = Array(#","error":"#.utf8)

    /// The id and the work's result (or why there is none) for one line; `nil` when the line
    /// belongs to another shard.
    private func process(_ line: LineReader.Line, work: ([UInt8]) throws(RecordError) -> [UInt8]) -> (id: String, Result<[UInt8], RecordError>)? {
        switch line {
        case .tooLong(let head, let length):
            let idBytes = head.firstIndex(of: 0x09).map { head[..<$0] } ?? []
            if let shard, !shard.contains(idBytes) { return nil }
            let id = String(decoding: idBytes, as: UTF8.self)
            return (id, .failure(RecordError(code: "recordTooLong", offset: nil, reason: "the record is \(length) bytes long, more than the limit of \(maximumLineLength) bytes")))
        case .line(let bytes):
            guard let tab = bytes.firstIndex(of: 0x09) else {
                if let shard, !shard.contains(bytes) { return nil }
                return (String(decoding: bytes, as: UTF8.self), .failure(RecordError(code: "badRecord", offset: nil, reason: "the line has no tab between the id and the blob")))
            }
            if let shard, !shard.contains(bytes[..<tab]) { return nil }
            let id = String(decoding: bytes[..<tab], as: UTF8.self)
            let text = bytes[(tab + 1)...]
            guard !text.isEmpty else { return (id, .failure(RecordError(code: "emptyBlob", offset: nil, reason: "empty blob (a NULL column)"))) }
            do throws(RecordError) {
                let blob = try text.withUnsafeBufferPointer { (buffer) throws(RecordError) -> [UInt8] in try encoding.decode(buffer) }
                return (id, .success(try work(blob)))
            } catch {
                return (id, .failure(error))
            }
        }
    }
}
