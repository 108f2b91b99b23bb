import Foundation
import TypedStream
import TypedStreamExport

/// `typedstream convert FILE --to FORMAT`: lossless JSON, keyed archives, or a typedstream in
/// the other byte order. One file goes to `-o FILE` or standard output; several files or folders
/// go to `-o DIR`. The input is never overwritten unless `--in-place` is given, and then
/// atomically.
struct ConvertCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "convert",
        abstract: "Convert archives: lossless JSON, NSKeyedArchiver plists, or the other byte order.",
        discussion: """
            Formats: json (lossless; 'typedstream encode' writes the original bytes back), keyed \
            (an NSKeyedArchiver binary plist), keyed-xml (the same as an XML plist), typedstream \
            (with --byte-order big or little: rewrite a NeXT big-endian archive for Intel, or back; \
            a keyed archive, binary or XML, of classes that have codecs converts back to a typedstream).

            One FILE is written to -o FILE, or to standard output, or into -o DIR when DIR is a \
            folder (or ends with '/'). Several FILEs, or folders with --recursive, need -o DIR: each \
            result goes to DIR under its path in the folder argument (or its file name) with the \
            format's extension in place of its own (x.typedstream -> DIR/x.json). Names are chosen \
            for the whole batch before anything is written: inputs that would share one keep their \
            own extension (x.nib.json, x.typedstream.json), and if they still would (a/x and b/x), \
            they go under the folder they were named in (DIR/a/x.json, DIR/b/x.json); the same file \
            named twice is a usage error. DIR is never read as input, even inside a folder being \
            converted. Batches run on all cores, continue past bad files and end with a \
            summary; the exit status is 1 if any file failed. Every file is written atomically \
            (temporary file, flush, rename): a crash never leaves half a file. --in-place replaces \
            each input with its conversion (typedstream format only).

            With --shard I/N (shards numbered from 1), a batch converts only the files of shard I: \
            a file belongs to shard (FNV-1a-64 of its path under the folder argument, or of the \
            path as given for a FILE) mod N, plus 1. Output names are still chosen for the whole \
            batch, so shards 1/N to N/N, run in parallel or on N machines into the same -o DIR \
            (or into separate ones), write between them exactly the files of one run.
            """,
        arguments: [.init("FILE", help: "A typedstream, or a folder with --recursive; '-' reads standard input.", arity: .oneOrMore)],
        options: [
            .init("to", valueName: "format", help: "The output format: \(ConversionFormat.names)."),
            .init("byte-order", valueName: "order", help: "For --to typedstream: big or little.", defaultDescription: "the input's"),
            .init("output", short: "o", valueName: "path", help: "Output file (one input) or folder (several)."),
            .init("jobs", short: "j", valueName: "n", help: "Convert n files at once.", defaultDescription: "the number of cores"),
            .init("shard", valueName: "I/N", help: "Convert only shard I of N of a batch (numbered from 1), split by a hash of each file's relative path."),
        ],
        flags: [
            .init("recursive", short: "r", help: "Convert every typedstream under each folder among the FILE arguments."),
            .init("deep", help: "With --to keyed or keyed-xml: also write each typedstream held as bytes (NSMutableData, [Nc] values) as keyed objects, under TSArchives beside the bytes, which are kept; up to 8 levels and 64 MiB of nested archives."),
            .init("in-place", help: "Replace each input with its conversion, atomically (typedstream format only)."),
            .init("quiet", short: "q", help: "Print only failures and the summary."),
            .init("no-progress", help: "Never draw the progress bar."),
        ])

    let files: [ParsedArguments.Value<String>]
    let format: ParsedArguments.Value<String>?
    let byteOrder: ParsedArguments.Value<String>?
    let output: ParsedArguments.Value<String>?
    let jobs: ParsedArguments.Value<Int>?
    let recursive: Bool
    let inPlace: Bool
    /// Write nested typedstreams as keyed objects too.
    let deep: Bool
    let quiet: Bool
    let noProgress: Bool
    /// The part of the batch to convert.
    let shard: ParsedArguments.Value<Shard>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
        format = arguments.option("to")
        byteOrder = arguments.option("byte-order")
        output = arguments.option("output")
        jobs = try arguments.option("jobs", as: Int.self)
        recursive = arguments.flag("recursive")
        inPlace = arguments.flag("in-place")
        deep = arguments.flag("deep")
        quiet = arguments.flag("quiet")
        noProgress = arguments.flag("no-progress")
        shard = try arguments.option("shard", as: Shard.self)
    }

    private var resolvedFormat: ConversionFormat? { format.flatMap { ConversionFormat(rawValue: $0.value) } }

    /// Several inputs, a folder, or one input into an output folder (`-o DIR` that exists or
    /// ends with `/`).
    private var isBatch: Bool { hasSeveralInputs || outputIsFolder }

    private var hasSeveralInputs: Bool { files.count > 1 || files.contains { FileWalker.isDirectory($0.value) } }

    private var outputIsFolder: Bool {
        guard let path = output?.value, path != "-" else { return false }
        return path.hasSuffix("/") || FileWalker.isDirectory(path)
    }

    func validate() throws(UsageError) {
        guard let format else { throw UsageError("missing option '--to <format>' (one of \(ConversionFormat.names))", position: .end) }
        guard let resolved = resolvedFormat else {
            throw UsageError("invalid value '\(format.value)' for '--to': expected one of \(ConversionFormat.names)", at: format.index)
        }
        if let byteOrder {
            guard ByteOrder(rawValue: byteOrder.value) != nil else {
                throw UsageError("invalid value '\(byteOrder.value)' for '--byte-order': expected big or little", at: byteOrder.index)
            }
            guard resolved == .typedstream else {
                throw UsageError("'--byte-order' applies only to '--to typedstream'", at: byteOrder.index)
            }
        }
        if deep, resolved != .keyed, resolved != .keyedXML {
            throw UsageError("'--deep' goes with '--to keyed' or '--to keyed-xml'; json stays lossless (use 'decode --plain --deep' to read nested archives)", position: .end)
        }
        if let jobs, jobs.value < 1 {
            throw UsageError("invalid value '\(jobs.value)' for '--jobs': must be at least 1", at: jobs.index)
        }
        if !recursive, let folder = files.first(where: { FileWalker.isDirectory($0.value) }) {
            throw UsageError("'\(folder.value)' is a folder; add --recursive to convert the files in it", at: folder.index)
        }
        if let shard, !isBatch, !inPlace {
            throw UsageError("'--shard' splits a batch (several files, a folder, or -o DIR); one file to a file or standard output is not split", at: shard.index)
        }
        if inPlace {
            if let output { throw UsageError("'--in-place' and '--output' cannot be used together", at: output.index) }
            guard resolved == .typedstream else {
                throw UsageError("'--in-place' is only for '--to typedstream' (other formats are not typedstreams)", at: format.index)
            }
            if let stdin = files.first(where: { $0.value == "-" }) {
                throw UsageError("standard input cannot be converted in place", at: stdin.index)
            }
        } else if isBatch, output == nil {
            throw UsageError("several inputs need '-o DIR' (an output folder) or '--in-place'", position: .end)
        } else if hasSeveralInputs, let output, !outputIsFolder {
            if output.value == "-" {
                throw UsageError("several inputs cannot all go to standard output; give '-o DIR' (an output folder)", at: output.index)
            }
            if FileWalker.size(of: output.value) != nil {
                throw UsageError("'\(output.value)' is a file, but several inputs need an output folder; name a new or existing folder", at: output.index)
            }
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        guard let format = resolvedFormat else { return .usage }
        let options = ConversionOptions(byteOrder: byteOrder.flatMap { ByteOrder(rawValue: $0.value) }, deep: deep)
        if !isBatch, !inPlace {
            return try convertOne(files[0].value, format: format, options: options, context: context)
        }
        var batch: [BatchItem]
        if let output {
            batch = try plannedItems(into: output, format: format, context: context)
            do {
                try AtomicFile.createFolders(output.value)
            } catch {
                throw CommandFailure("cannot create folder '\(error.path)': \(error.reason) (the output folder given with -o)")
            }
        } else {
            batch = BatchRunner.items(for: files.map(\.value), context: context).items
            for index in batch.indices { batch[index].destination = batch[index].path }
        }
        // Planned over the whole batch, then split: every shard names its files as one run would.
        let items = shard.map { $0.value.select(batch) } ?? batch
        let runner = BatchRunner(jobs: jobs?.value ?? context.processorCount, quiet: quiet, noProgress: noProgress)
        var summary = runner.run(items, context: context) { item, compiled in
            Self.convertItem(item, inPlace: inPlace, format: format, options: options, compiled: &compiled, context: context)
        }
        summary.isConversion = true
        summary.shard = shard.map { ($0.value, batch.count) }
        context.output.write(summary.report())
        return summary.allGood ? .success : .failure
    }

    /// The batch's items with their destinations under `-o DIR`: the walk leaves DIR out, and
    /// the names are planned together (``OutputPlan``). Throws ``UsageError`` when DIR is one of
    /// the folders being converted, or when inputs would share an output.
    private func plannedItems(into output: ParsedArguments.Value<String>, format: ConversionFormat,
                              context: CommandContext) throws(UsageError) -> [BatchItem] {
        var excluded: Set<FileWalker.FileIdentity> = []
        if let identity = FileWalker.FileIdentity(path: output.value) {
            if let root = files.first(where: { FileWalker.isDirectory($0.value) && FileWalker.FileIdentity(path: $0.value) == identity }) {
                throw UsageError("the output folder '\(output.value)' is the folder being converted ('\(root.value)'); "
                                 + "write to a folder beside it or inside it", at: output.index)
            }
            excluded.insert(identity)
        }
        var items = BatchRunner.items(for: files.map(\.value), excluding: excluded, context: context).items
        let plan: OutputPlan
        do {
            plan = try OutputPlan.make(items, folder: output.value, format: format)
        } catch {
            throw UsageError("inputs would overwrite each other or themselves; rename them or convert them in separate runs: "
                             + error.lines.joined(separator: "; "), at: output.index)
        }
        for index in items.indices { items[index].destination = plan.destinations[index] }
        return items
    }

    /// One input to `-o FILE` or standard output.
    private func convertOne(_ path: String, format: ConversionFormat, options: ConversionOptions, context: CommandContext) throws -> ExitCode {
        if let output { try FileIdentity.refuseWriting(output.value, over: path, context: context, hint: "; use --in-place to replace it") }
        let bytes = try context.readFile(path)
        var compiled = CompiledTypeStrings()
        do {
            if let output, output.value != "-" {
                try AtomicFile.write(to: output.value) { out in
                    try Converter.write(bytes, to: format, options: options, compiled: &compiled, into: &out)
                }
            } else {
                try context.output.withWriter { (out: inout OutputWriter) throws in
                    try Converter.write(bytes, to: format, options: options, compiled: &compiled, into: &out)
                }
            }
        } catch let error as any LocatedError {
            context.printError("error: \(CommandContext.displayName(path)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        } catch let error as KeyedArchiveError {
            context.printError("error: \(CommandContext.displayName(path)): \(error)")
            return .failure
        }
        return .success
    }

    /// One file of a batch (on a worker thread, with its compiled type strings).
    private static func convertItem(_ item: BatchItem, inPlace: Bool, format: ConversionFormat,
                                    options: ConversionOptions, compiled: inout CompiledTypeStrings,
                                    context: CommandContext) -> (outcome: BatchOutcome, size: Int) {
        let (bytes, early) = item.read(context)
        if let early { return early }
        guard let destination = item.destination else {
            // Found in a folder, not a typedstream when the batch was planned, one now.
            return (.skipped(reason: "it became a typedstream after the batch was planned; convert it again"), bytes.count)
        }
        do {
            if !inPlace { try AtomicFile.createFolders(AtomicFile.folder(of: destination)) }
            try AtomicFile.write(to: destination) { out in
                try Converter.write(bytes, to: format, options: options, compiled: &compiled, into: &out)
            }
        } catch let error as any LocatedError {
            return (.failed(offset: error.offset, reason: error.reason), bytes.count)
        } catch {
            return (.failed(offset: nil, reason: ErrorText.describe(error)), bytes.count)
        }
        return (.converted(destination: destination), bytes.count)
    }
}
