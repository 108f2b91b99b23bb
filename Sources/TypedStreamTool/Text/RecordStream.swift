import TypedStreamExport

/// How the blob of an input record is spelled: `hex` (what SQLite's `hex()` prints, either
/// case) or `base64` (RFC 4648).
enum BlobEncoding: String, CaseIterable {
    case hex
    case base64

    /// "hex or base64", for help and errors.
    static var names: String { allCases.map(\.rawValue).joined(separator: " or ") }

    /// The usage errors of the line-mode options every command that has them shares: an
    /// encoding that is not one of ``BlobEncoding``, a FILE beside `--lines` (records come on
    /// standard input), `--shard` without `--lines`, and no FILE without it. `extra` adds a
    /// command's own checks of `--lines`.
    static func validate(lines: ParsedArguments.Value<String>?, file: ParsedArguments.Value<String>?,
                         shard: ParsedArguments.Value<Shard>?,
                         extra: (ParsedArguments.Value<String>) throws(UsageError) -> Void = { _ in }) throws(UsageError) {
        if let lines {
            guard BlobEncoding(rawValue: lines.value) != nil else {
                throw UsageError("invalid value '\(lines.value)' for '--lines': expected \(names)", at: lines.index)
            }
            try extra(lines)
            if let file, file.value != "-" {
                throw UsageError("'--lines' reads standard input; give no FILE (or '-')", at: file.index)
            }
        } else if let shard {
            throw UsageError("'--shard' splits the records of '--lines'; one archive is not split", at: shard.index)
        } else if file == nil {
            throw UsageError("missing argument <FILE>", position: .end)
        }
    }

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
/// record failed. `text --lines` and `decode --lines` both run through it, each with its own
/// ``Work``.
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
    /// What one record's blob gives: the work appends to `members` the JSON members that follow
    /// the id (`"text":"…"`, no leading comma, no braces), or throws ``RecordError`` (what it
    /// appended is then dropped). `members` is empty at each call; its storage is reused from
    /// one record to the next.
    typealias Work = (_ blob: [UInt8], _ members: inout [UInt8]) throws(RecordError) -> Void

    /// How blobs are spelled.
    let encoding: BlobEncoding
    /// The longest line accepted, in bytes.
    let maximumLineLength: Int
    /// The part of the records to handle; `nil` for all.
    var shard: Shard? = nil

    /// The most bytes of one line by default: 64 MiB (a 32 MiB blob in hex), or the context's
    /// input limit when that is smaller.
    static func defaultMaximumLineLength(_ context: CommandContext) -> Int { min(context.inputLimit, 64 << 20) }

    /// Runs over standard input, `work` making each record's members. Returns the exit code;
    /// throws ``FileReadError`` when standard input cannot be read.
    func run(_ context: CommandContext, work: Work) throws(FileReadError) -> ExitCode {
        var reader = LineReader(maximumLength: maximumLineLength) { (buffer: inout [UInt8], count: Int) throws(FileReadError) -> Bool in
            try context.readStandardInputChunk(into: &buffer, maximum: count)
        }
        var records = 0, failed = 0, elsewhere = 0
        var members: [UInt8] = []
        members.reserveCapacity(1 << 12)
        let finished = try context.output.withWriter { (out: inout OutputWriter) throws(FileReadError) -> Bool in
            while let line = try reader.next() {
                if case .line(let bytes) = line, bytes.isEmpty { continue }
                members.removeAll(keepingCapacity: true)
                guard let (id, outcome) = process(line, into: &members, work: work) else {
                    elsewhere += 1
                    continue
                }
                records += 1
                out.append(Self.idMember)
                Self.appendString(id, to: &out)
                if let error = outcome {
                    failed += 1
                    out.append(Self.errorMember)
                    out.append(error.json.text(pretty: false))
                } else if !members.isEmpty {
                    out.append(UInt8(ascii: ","))
                    out.append(members)
                }
                out.append(Self.lineEnd)
                if out.failed { return false }
            }
            return true
        }
        guard finished else { return .success }  // the pipe closed: finishOutput says so
        let note = shard.map { " (shard \($0.text); \(elsewhere) records of other shards skipped)" } ?? ""
        context.printError("\(records) records, \(failed) failed" + note)
        return failed > 0 ? .failure : .success
    }

    private static let idMember: [UInt8] = Array(#"{"id":"#.utf8)
    private static let errorMember: [UInt8] = Array(#","error":"#.utf8)
    private static let lineEnd: [UInt8] = Array("}\n".utf8)

    /// Writes `bytes` as a JSON string: as they are between quotes when they are printable
    /// ASCII other than `"` and `\` (a row id), else through ``JSONValue`` (escaped, and
    /// invalid UTF-8 repaired).
    private static func appendString(_ bytes: ArraySlice<UInt8>, to out: inout OutputWriter) {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            out.append(bytes)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(JSONValue.string(String(decoding: bytes, as: UTF8.self)).text(pretty: false))
        }
    }

    /// The id's bytes and `nil` (the work appended the members) or why the record gave nothing,
    /// for one line; `nil` when the line belongs to another shard.
    private func process(_ line: LineReader.Line, into members: inout [UInt8], work: Work) -> (id: ArraySlice<UInt8>, RecordError?)? {
        switch line {
        case .tooLong(let head, let length):
            let idBytes = head.firstIndex(of: 0x09).map { head[..<$0] } ?? []
            if let shard, !shard.contains(idBytes) { return nil }
            return (idBytes, RecordError(code: "recordTooLong", offset: nil, reason: "the record is \(length) bytes long, more than the limit of \(maximumLineLength) bytes"))
        case .line(let bytes):
            guard let tab = bytes.firstIndex(of: 0x09) else {
                if let shard, !shard.contains(bytes) { return nil }
                return (bytes, RecordError(code: "badRecord", offset: nil, reason: "the line has no tab between the id and the blob"))
            }
            let id = bytes[..<tab]
            if let shard, !shard.contains(id) { return nil }
            let text = bytes[(tab + 1)...]
            guard !text.isEmpty else { return (id, RecordError(code: "emptyBlob", offset: nil, reason: "empty blob (a NULL column)")) }
            do throws(RecordError) {
                let blob = try text.withUnsafeBufferPointer { (buffer) throws(RecordError) -> [UInt8] in try encoding.decode(buffer) }
                try work(blob, &members)
                return (id, nil)
            } catch {
                return (id, error)
            }
        }
    }
}
