import TypedStreamExport

/// `typedstream text FILE`: the plain text of an archive whose root is a string or an
/// attributed string (an iMessage `attributedBody`); `--runs` adds the attribute runs as JSON
/// lines; `--lines hex|base64` reads many records `ID<TAB>BLOB` from standard input instead.
struct TextCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "text",
        abstract: "Print the text of an NSString or NSAttributedString archive (such as a message body).",
        discussion: """
            Prints the text and a newline. The root object must be an NSString, NSMutableString, \
            NSAttributedString or NSMutableAttributedString; anything else is an error (exit 1). \
            With --runs, one JSON line per attribute run follows the text: \
            {"range": [location, length], "attributes": {name: value…}}, ranges in UTF-16 units \
            as NSAttributedString counts them, values as in 'decode --plain'.

            With --lines, reads records ID<TAB>BLOB from standard input, one a line, with the \
            blob in hex or base64 — what \
            sqlite3 -separator $'\\t' chat.db "select ROWID, hex(attributedBody) from message" \
            prints — and writes one JSON line per record in input order: {"id": "…", "text": "…"} \
            (and "runs" with --runs), or {"id": "…", "error": {"code", "offset", "reason"}} for a \
            bad record (an empty blob, as a NULL column prints, is one) and goes on. A summary \
            'N records, M failed' goes to standard error; the exit status is 1 if any record failed. \
            'decode --lines --plain' (or --json) writes each record's whole plain (or lossless) \
            JSON the same way, for archives of any class.

            With --shard I/N (shards numbered from 1), only the records of shard I are decoded and \
            written, the others skipped unread: a record belongs to shard \
            (FNV-1a-64 of its id's bytes) mod N, plus 1. Running shards 1/N to N/N, in parallel or \
            on N machines, writes between them exactly the lines of one run without --shard.
            """,
        arguments: [.init("FILE", help: "The archive; '-' reads standard input. Not with --lines.", arity: .optional)],
        options: [
            .init("lines", valueName: "encoding", help: "Read records ID<TAB>BLOB from standard input, blobs in \(BlobEncoding.names)."),
            .init("shard", valueName: "I/N", help: "With --lines: handle only shard I of N (numbered from 1), split by a hash of the id."),
        ],
        flags: [
            .init("runs", help: "Also print the attribute runs (ranges and attributes) as JSON."),
        ])

    private static let textMember: [UInt8] = Array(#""text":"#.utf8)
    private static let runsMember: [UInt8] = Array(#","runs":"#.utf8)

    /// The archive, unless reading records.
    let file: ParsedArguments.Value<String>?
    /// How record blobs are spelled, when reading records.
    let lines: ParsedArguments.Value<String>?
    /// Whether to print the runs.
    let runs: Bool
    /// The part of the records to handle, with `--lines`.
    let shard: ParsedArguments.Value<Shard>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = arguments.value("FILE")
        lines = arguments.option("lines")
        runs = arguments.flag("runs")
        shard = try arguments.option("shard", as: Shard.self)
    }

    func validate() throws(UsageError) {
        try BlobEncoding.validate(lines: lines, file: file, shard: shard)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        var decoder = MessageText.Decoder()
        decoder.withRuns = runs
        if let encoding = lines.flatMap({ BlobEncoding(rawValue: $0.value) }) {
            let stream = RecordStream(encoding: encoding, maximumLineLength: RecordStream.defaultMaximumLineLength(context), shard: shard?.value)
            return try stream.run(context) { (blob, members) throws(RecordError) in
                let text = try decoder.decode(blob)
                members.append(contentsOf: Self.textMember)
                members.append(contentsOf: JSONValue.string(text.string).text(pretty: false))
                guard runs else { return }
                members.append(contentsOf: Self.runsMember)
                members.append(contentsOf: JSONValue.array(text.runs.map(MessageText.json)).text(pretty: false))
            }
        }
        guard let file else { return .usage }
        let bytes = try context.readFile(file.value)
        let text: MessageText
        do { text = try decoder.decode(bytes) } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): \(error.description)")
            return .failure
        }
        context.output.withWriter { (out: inout OutputWriter) in
            out.append(text.string)
            out.append(UInt8(ascii: "\n"))
            for run in text.runs {
                out.append(MessageText.json(run).text(pretty: false))
                out.append(UInt8(ascii: "\n"))
            }
        }
        return .success
    }
}
