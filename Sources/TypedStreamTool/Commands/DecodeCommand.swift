import TypedStream
import TypedStreamExport
import TypedStreamFoundation

/// `typedstream decode FILE`: the object tree — classes, versions, values, references as `#n`;
/// `--lines hex|base64` with `--plain` or `--json` reads many records `ID<TAB>BLOB` from standard
/// input instead (``RecordStream``) and writes one JSON line per record.
struct DecodeCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "decode",
        abstract: "Print the object tree of a typedstream: classes, versions, values, references.",
        discussion: """
            One object per line, indented by nesting, with its class chain and versions; each \
            group's type string is shown before its value. A later mention of an object prints \
            as '→ #n Class' (n is its object-table number, as in 'tokens' and 'inspect'). A \
            damaged archive prints only the error; 'salvage --plain' prints the plain JSON of \
            what is whole before the damage, ending with a {"$salvage": {offset, reason, …}} value.

            With --lines and --plain or --json, reads records ID<TAB>BLOB from standard input, \
            one a line, with the blob in hex or base64 — what \
            sqlite3 -separator $'\\t' db "select ROWID, hex(blob) from t" prints — and writes one \
            JSON line per record in input order: {"id": "…", "plain": the document of \
            'decode --plain'} or {"id": "…", "json": the lossless document of 'decode --json'}, \
            or {"id": "…", "error": {"code", "offset", "reason"}} for a bad record (an empty \
            blob, as a NULL column prints, is one) and goes on. A summary 'N records, M failed' \
            goes to standard error; the exit status is 1 if any record failed. --shard I/N \
            handles only the records of shard I, as for 'text --lines': the shards 1/N to N/N \
            write between them exactly the lines of one run without --shard.
            """,
        arguments: [.init("FILE", help: "The archive to decode; '-' reads standard input. Not with --lines.", arity: .optional)],
        options: [
            .init("lines", valueName: "encoding", help: "With --plain or --json: read records ID<TAB>BLOB from standard input, blobs in \(BlobEncoding.names); one JSON line per record."),
            .init("shard", valueName: "I/N", help: "With --lines: handle only shard I of N (numbered from 1), split by a hash of the id."),
        ],
        flags: [
            .init("stats", help: "Print how many objects decode to typed classes (per class) instead of the tree."),
            .init("json", help: "Print lossless JSON: values and wire decisions; 'typedstream encode' writes the original bytes back."),
            .init("plain", help: "Print plain JSON for scripts: natural values (strings, numbers, arrays, objects), no wire detail."),
            .init("deep", help: "With the tree or --plain: decode typedstreams and property lists (bplist00 and keyed archives, XML, old NeXT binary) held as bytes (NSData, [Nc], StreamTable entries) in place, up to 8 levels and 64 MiB of nested archives; one that cannot be read is shown as its bytes with the reason."),
        ])

    /// The file to decode, unless reading records.
    let file: ParsedArguments.Value<String>?
    /// How record blobs are spelled, when reading records.
    let lines: ParsedArguments.Value<String>?
    /// The part of the records to handle, with `--lines`.
    let shard: ParsedArguments.Value<Shard>?
    /// Print statistics instead of the tree.
    let stats: Bool
    /// Print lossless JSON.
    let json: Bool
    /// Print plain JSON.
    let plain: Bool
    /// Decode nested archives in place.
    let deep: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = arguments.value("FILE")
        lines = arguments.option("lines")
        shard = try arguments.option("shard", as: Shard.self)
        stats = arguments.flag("stats")
        json = arguments.flag("json")
        plain = arguments.flag("plain")
        deep = arguments.flag("deep")
    }

    func validate() throws(UsageError) {
        if [stats, json, plain].filter({ $0 }).count > 1 {
            throw UsageError("choose one of '--stats', '--json' and '--plain'", position: .end)
        }
        if deep, stats || json {
            throw UsageError("'--deep' goes with the tree or '--plain'; '--json' stays lossless and '--stats' counts the file's own objects", position: .end)
        }
        try BlobEncoding.validate(lines: lines, file: file, shard: shard) { (lines) throws(UsageError) in
            guard plain || json else {
                throw UsageError("'--lines' writes one JSON line per record: add '--plain' or '--json'", at: lines.index)
            }
        }
    }

    /// The `--plain` options for the archive of `index`: the registered record forms and
    /// Foundation's classes, its document members (a colour list's), nested archives decoded
    /// in place when `deep`. One archive and each record of `--lines` take them from here.
    static func plainOptions(for index: ArchiveIndex, deep: Bool) -> PlainJSON.Options {
        var options = ToolRecordForms.plainJSONOptions
        options.documentMembers = FoundationPlainJSON.documentMembers(index)
        if deep { options.nestedArchives = NestedArchives() }
        return options
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if let encoding = lines.flatMap({ BlobEncoding(rawValue: $0.value) }) {
            var form = RecordJSON(form: json ? .lossless : .plain(deep: deep))
            let stream = RecordStream(encoding: encoding, maximumLineLength: RecordStream.defaultMaximumLineLength(context), shard: shard?.value)
            return try stream.run(context) { (blob, members) throws(RecordError) in try form.append(blob, to: &members) }
        }
        guard let file else { return .usage }
        let bytes = try context.readFile(file.value)
        if stats { return printStatistics(bytes, name: file.value, context) }
        // The whole archive is checked first, so a damaged file prints nothing but the error.
        let index: ArchiveIndex
        do { index = try ArchiveIndex(bytes: bytes) } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        do {
            try context.output.withWriter { (out: inout OutputWriter) throws(ArchiveJSONError) in
                if json {
                    try ArchiveJSON.write(index, to: &out)
                } else if plain {
                    try PlainJSON.write(index, options: Self.plainOptions(for: index, deep: deep), to: &out)
                } else {
                    var options = ArchiveTree.Options()
                    if deep { options.nestedArchives = NestedArchives() }
                    ArchiveTree.write(index, options: options, to: &out)
                }
            }
        } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): \(error)")
            return .failure
        }
        return .success
    }

    /// `objects: 12, typed: 10 (83.3 %), generic: 2` then one line per class.
    private func printStatistics(_ bytes: [UInt8], name: String, _ context: CommandContext) -> ExitCode {
        let statistics: ArchiveStatistics
        do {
            let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
            statistics = try ArchiveStatistics.compute(decoding: decoder)
            // One archive per process: the process ends once the counts are printed, so the
            // decoded objects are left to it rather than freed one by one (about a seventh of
            // the run on a large archive).
            _ = Unmanaged.passRetained(decoder)
        } catch {
            context.printError("error: \(CommandContext.displayName(name)): \(error.description)")
            return .failure
        }
        let share = (statistics.typedShare * 1000).rounded() / 10
        context.print("objects: \(statistics.objects), typed: \(statistics.typed) (\(share) %), generic: \(statistics.generic)")
        for name in statistics.perClass.keys.sorted() {
            guard let count = statistics.perClass[name] else { continue }
            context.print("  \(name): \(count.typed) typed, \(count.generic) generic")
        }
        for warning in statistics.warnings { context.print("warning: \(warning)") }
        return .success
    }
}
