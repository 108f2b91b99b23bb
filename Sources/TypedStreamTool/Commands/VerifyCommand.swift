import Foundation
import TypedStream

/// `typedstream verify FILE…`: decode each file, encode it again and compare the bytes.
///
/// Prints `PATH: identical`, `PATH: differs at offset 0x…` or `PATH: error: offset 0x…: reason`
/// per file, in input order whatever the number of threads; with several files or a folder it
/// ends with a summary. Exit status 0 only if every verified file is well-formed and identical.
struct VerifyCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "verify",
        abstract: "Check that archives decode and re-encode to the very same bytes.",
        discussion: """
            Each file is read by the checked reader and every token is encoded again from its \
            decoded value; the output must equal the input byte for byte. With --graph each file \
            goes through the editable object graph instead (what 'convert' and 'encode' write \
            from): objects rebuilt, references numbered again from identities. \
            Files are checked in parallel but reported in the order given (folders: sorted by \
            name). With several files a summary follows. A progress bar is drawn on standard \
            error when it is a terminal.

            Files named on the command line are always checked. Files found in folders \
            (--recursive) that are not typedstreams at all — keyed archives, GNUstep archives, \
            text — are skipped and listed in the summary. Hidden files are ignored.

            With --shard I/N (shards numbered from 1), only the files of shard I are checked: a \
            file belongs to shard (FNV-1a-64 of its path under the folder argument, or of the path \
            as given for a FILE) mod N, plus 1. Running shards 1/N to N/N, in parallel or on N \
            machines, checks every file exactly once; the summary counts the shard's files.

            Exit status 0 when every checked file is well-formed and identical, 1 otherwise.
            """,
        arguments: [.init("FILE", help: "A typedstream file, or a folder with --recursive; '-' reads standard input.", arity: .oneOrMore)],
        options: [
            .init("jobs", short: "j", valueName: "n", help: "Check n files at once.", defaultDescription: "the number of cores"),
            .init("shard", valueName: "I/N", help: "Check only shard I of N (numbered from 1), split by a hash of each file's relative path."),
        ],
        flags: [
            .init("recursive", short: "r", help: "Check every file under each folder among the FILE arguments."),
            .init("quiet", short: "q", help: "Print only files that differ or fail, and the summary."),
            .init("no-progress", help: "Never draw the progress bar."),
            .init("graph", help: "Round-trip through the editable object graph instead of the token reader (slower)."),
        ])

    /// The files and folders to check.
    let files: [ParsedArguments.Value<String>]
    /// Threads to use.
    let jobs: ParsedArguments.Value<Int>?
    /// Walk folders.
    let recursive: Bool
    /// Print only problems.
    let quiet: Bool
    /// Never draw progress.
    let noProgress: Bool
    /// Round-trip through the graph.
    let graph: Bool
    /// The part of the batch to check.
    let shard: ParsedArguments.Value<Shard>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
        jobs = try arguments.option("jobs", as: Int.self)
        recursive = arguments.flag("recursive")
        quiet = arguments.flag("quiet")
        noProgress = arguments.flag("no-progress")
        graph = arguments.flag("graph")
        shard = try arguments.option("shard", as: Shard.self)
    }

    func validate() throws(UsageError) {
        if let jobs, jobs.value < 1 {
            throw UsageError("invalid value '\(jobs.value)' for '--jobs': must be at least 1", at: jobs.index)
        }
        if !recursive, let folder = files.first(where: { FileWalker.isDirectory($0.value) }) {
            throw UsageError("'\(folder.value)' is a folder; add --recursive to check the files in it", at: folder.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let (batch, walkedFolder) = BatchRunner.items(for: files.map(\.value), context: context)
        let items = shard.map { $0.value.select(batch) } ?? batch
        let runner = BatchRunner(jobs: jobs?.value ?? context.processorCount, quiet: quiet, noProgress: noProgress)
        let depth: RoundTripDepth = graph ? .graph : .tokens
        var summary = runner.run(items, context: context) { item, compiled in Self.check(item, through: depth, compiled: &compiled, context: context) }
        summary.shard = shard.map { ($0.value, batch.count) }
        if batch.count > 1 || walkedFolder || shard != nil { context.output.write(summary.report()) }
        return summary.allGood ? .success : .failure
    }

    /// Reads and checks one item (on a worker thread, with its compiled type strings).
    private static func check(_ item: BatchItem, through depth: RoundTripDepth, compiled: inout CompiledTypeStrings, context: CommandContext) -> (outcome: BatchOutcome, size: Int) {
        let (bytes, early) = item.read(context)
        if let early { return early }
        return (BatchOutcome.check(bytes, through: depth, compiled: &compiled), bytes.count)
    }
}
