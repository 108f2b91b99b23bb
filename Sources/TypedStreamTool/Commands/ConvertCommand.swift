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
            (with --byte-order big or little: rewrite a NeXT big-endian archive for Intel, or back).

            One FILE is written to -o FILE, or to standard output. Several FILEs, or folders with \
            --recursive, need -o DIR: each result goes to DIR under its relative name with the \
            format's extension. Batches run on all cores, continue past bad files and end with a \
            summary; the exit status is 1 if any file failed. Every file is written atomically \
            (temporary file, flush, rename): a crash never leaves half a file. --in-place replaces \
            each input with its conversion (typedstream format only).
            """,
        arguments: [.init("FILE", help: "A typedstream, or a folder with --recursive; '-' reads standard input.", arity: .oneOrMore)],
        options: [
            .init("to", valueName: "format", help: "The output format: \(ConversionFormat.names)."),
            .init("byte-order", valueName: "order", help: "For --to typedstream: big or little.", defaultDescription: "the input's"),
            .init("output", short: "o", valueName: "path", help: "Output file (one input) or folder (several)."),
            .init("jobs", short: "j", valueName: "n", help: "Convert n files at once.", defaultDescription: "the number of cores"),
        ],
        flags: [
            .init("recursive", short: "r", help: "Convert every typedstream under each folder among the FILE arguments."),
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
    let quiet: Bool
    let noProgress: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
        format = arguments.option("to")
        byteOrder = arguments.option("byte-order")
        output = arguments.option("output")
        jobs = try arguments.option("jobs", as: Int.self)
        recursive = arguments.flag("recursive")
        inPlace = arguments.flag("in-place")
        quiet = arguments.flag("quiet")
        noProgress = arguments.flag("no-progress")
    }

    private var resolvedFormat: ConversionFormat? { format.flatMap { ConversionFormat(rawValue: $0.value) } }

    private var isBatch: Bool { files.count > 1 || files.contains { FileWalker.isDirectory($0.value) } }

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
        if let jobs, jobs.value < 1 {
            throw UsageError("invalid value '\(jobs.value)' for '--jobs': must be at least 1", at: jobs.index)
        }
        if !recursive, let folder = files.first(where: { FileWalker.isDirectory($0.value) }) {
            throw UsageError("'\(folder.value)' is a folder; add --recursive to convert the files in it", at: folder.index)
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
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        guard let format = resolvedFormat else { return .usage }
        let options = ConversionOptions(byteOrder: byteOrder.flatMap { ByteOrder(rawValue: $0.value) })
        if !isBatch, !inPlace {
            return try convertOne(files[0].value, format: format, options: options, context: context)
        }
        let (items, _) = BatchRunner.items(for: files.map(\.value), context: context)
        let roots = files.map(\.value)
        let destinationFolder = output?.value
        let runner = BatchRunner(jobs: jobs?.value ?? context.processorCount, quiet: quiet, noProgress: noProgress)
        var summary = runner.run(items, context: context) { item, compiled in
            Self.convertItem(item, roots: roots, folder: destinationFolder, format: format, options: options, compiled: &compiled, context: context)
        }
        summary.isConversion = true
        context.output.write(summary.report())
        return summary.allGood ? .success : .failure
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
    private static func convertItem(_ item: BatchItem, roots: [String], folder: String?, format: ConversionFormat,
                                    options: ConversionOptions, compiled: inout CompiledTypeStrings,
                                    context: CommandContext) -> (outcome: BatchOutcome, size: Int) {
        let destination = folder.map { destinationPath(for: item.path, roots: roots, folder: $0, format: format) } ?? item.path
        if folder != nil, item.path != "-", FileIdentity(path: destination).map({ $0 == FileIdentity(path: item.path) }) == true {
            return (.failed(offset: nil, reason: "refusing to write '\(destination)': it is the input; use --in-place to replace it"), 0)
        }
        let (bytes, early) = item.read(context)
        if let early { return early }
        do {
            try AtomicFile.createFolders(AtomicFile.folder(of: destination))
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

    /// `DIR/relative/path.ext`: the input's path relative to the folder argument it was found
    /// under (or its file name), with the format's extension.
    static func destinationPath(for path: String, roots: [String], folder: String, format: ConversionFormat) -> String {
        var relative = path.split(separator: "/").last.map(String.init) ?? path
        for root in roots where FileWalker.isDirectory(root) {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(prefix) { relative = String(path.dropFirst(prefix.count)); break }
        }
        if format != .typedstream {
            if let dot = relative.lastIndex(of: "."), !relative[dot...].contains("/") { relative = String(relative[..<dot]) }
            relative += "." + format.fileExtension
        }
        return (folder.hasSuffix("/") ? folder : folder + "/") + relative
    }
}
