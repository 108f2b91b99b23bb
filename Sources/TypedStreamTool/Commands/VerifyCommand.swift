import Foundation

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
            Each file is decoded and encoded again; the output must equal the input byte for byte. \
            Files are checked in parallel but reported in the order given (folders: sorted by \
            name). With several files a summary follows. A progress bar is drawn on standard \
            error when it is a terminal.

            Files named on the command line are always checked. Files found in folders \
            (--recursive) that are not typedstreams at all — keyed archives, GNUstep archives, \
            text — are skipped and listed in the summary. Hidden files are ignored.

            Exit status 0 when every checked file is well-formed and identical, 1 otherwise.
            """,
        arguments: [.init("FILE", help: "A typedstream file, or a folder with --recursive; '-' reads standard input.", arity: .oneOrMore)],
        options: [.init("jobs", short: "j", valueName: "n", help: "Check n files at once.", defaultDescription: "the number of cores")],
        flags: [
            .init("recursive", short: "r", help: "Check every file under each folder among the FILE arguments."),
            .init("quiet", short: "q", help: "Print only files that differ or fail, and the summary."),
            .init("no-progress", help: "Never draw the progress bar."),
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

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
        jobs = try arguments.option("jobs", as: Int.self)
        recursive = arguments.flag("recursive")
        quiet = arguments.flag("quiet")
        noProgress = arguments.flag("no-progress")
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
        var items: [VerifyItem] = []
        var walkedFolder = false
        for file in files {
            if FileWalker.isDirectory(file.value) {
                walkedFolder = true
                let listing = FileWalker.walk(file.value)
                items += listing.files.map { VerifyItem(path: $0.path, size: $0.size, discovered: true) }
                items += listing.skipped.map { VerifyItem(path: $0.path, size: nil, discovered: true, skipReason: $0.reason) }
            } else {
                let size = file.value == "-" ? (try? context.standardInput().count) : FileWalker.size(of: file.value)
                items.append(VerifyItem(path: file.value, size: size, discovered: false))
            }
        }
        let summary = runBatch(items, context: context)
        if items.count > 1 || walkedFolder { context.output.write(summary.report()) }
        return summary.allGood ? .success : .failure
    }

    /// Checks `items` in parallel, printing each line in input order; returns the tally.
    private func runBatch(_ items: [VerifyItem], context: CommandContext) -> VerifySummary {
        let showProgress = context.errorIsTerminal && !noProgress && items.count > 1
        let knownSizes = items.compactMap(\.size)
        let meter = ProgressMeter(totalFiles: items.count,
                                  totalBytes: knownSizes.count == items.count ? knownSizes.reduce(0, +) : nil)
        let clock = ContinuousClock()
        let started = clock.now
        var lastDraw = started
        var summary = VerifySummary()
        var doneFiles = 0
        var doneBytes = 0
        var progressVisible = false

        OrderedParallelMap.run(items, jobs: jobs?.value ?? context.processorCount, work: { item in
            Self.check(item, context: context)
        }, deliver: { index, result in
            summary.add(items[index].path, result.outcome)
            if quiet, !Self.isProblem(result.outcome) { return }
            if progressVisible {
                context.errorOutput.write(ProgressMeter.erase)
                progressVisible = false
            }
            context.print("\(CommandContext.displayName(items[index].path)): \(result.outcome.text)")
        }, completed: { _, result in
            doneFiles += 1
            doneBytes += result.size
            guard showProgress else { return }
            let now = clock.now
            if !progressVisible || now - lastDraw >= .milliseconds(100) || doneFiles == items.count {
                let elapsed = Self.seconds(now - started)
                context.output.flush()
                context.errorOutput.write(ProgressMeter.redraw(meter.line(doneFiles: doneFiles, doneBytes: doneBytes, elapsed: elapsed)))
                progressVisible = true
                lastDraw = now
            }
        })
        if progressVisible { context.errorOutput.write(ProgressMeter.erase) }
        return summary
    }

    /// Reads and checks one item (on a worker thread).
    private static func check(_ item: VerifyItem, context: CommandContext) -> (outcome: VerifyOutcome, size: Int) {
        if let reason = item.skipReason { return (.skipped(reason: reason), 0) }
        let bytes: [UInt8]
        do {
            bytes = try context.readFile(item.path)
        } catch {
            return (.failed(offset: nil, reason: "cannot read: \(error.reason)"), 0)
        }
        if item.discovered {
            let detection = FormatDetector.detect(bytes)
            if detection.kind != .typedStream {
                let what = detection.kind == .unknown ? detection.reason : detection.summary
                return (.skipped(reason: "not a typedstream: \(what)"), bytes.count)
            }
        }
        return (VerifyOutcome.check(bytes), bytes.count)
    }

    /// Whether `--quiet` still prints this outcome.
    private static func isProblem(_ outcome: VerifyOutcome) -> Bool {
        switch outcome {
        case .identical, .skipped: false
        case .differs, .failed: true
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
