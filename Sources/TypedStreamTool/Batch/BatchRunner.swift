import TypedStream

/// Runs one piece of work per file on all cores, prints each file's line in input order, draws a
/// progress bar on a terminal, and tallies the outcomes — shared by `verify` and `convert`.
struct BatchRunner {
    /// Threads to use.
    var jobs: Int
    /// Print only problems (not `identical` / `converted` / `skipped`).
    var quiet = false
    /// Never draw the progress bar.
    var noProgress = false

    /// Expands FILE arguments into batch items: folders are walked (their non-archive files are
    /// decided by the work closure), files are taken as given. A folder in `excluding` (the
    /// output folder of a conversion) is never entered.
    static func items(for files: [String], excluding excluded: Set<FileWalker.FileIdentity> = [],
                      context: CommandContext) -> (items: [BatchItem], walkedFolder: Bool) {
        var items: [BatchItem] = []
        var walkedFolder = false
        for file in files {
            if FileWalker.isDirectory(file) {
                walkedFolder = true
                let listing = FileWalker.walk(file, excluding: excluded)
                items += listing.files.map { BatchItem(path: $0.path, size: $0.size, discovered: true, root: file) }
                items += listing.skipped.map { BatchItem(path: $0.path, size: nil, discovered: true, root: file, skipReason: $0.reason) }
            } else {
                let size = file == "-" ? (try? context.standardInput().count) : FileWalker.size(of: file)
                items.append(BatchItem(path: file, size: size, discovered: false))
            }
        }
        return (items, walkedFolder)
    }

    /// Runs `work` over `items` in parallel, printing each result in input order; returns the
    /// tally. Each thread hands `work` its own ``CompiledTypeStrings``, so that the type strings
    /// of one archive are parsed once per thread rather than once per file (message bodies
    /// repeat the same few).
    func run(_ items: [BatchItem], context: CommandContext,
             work: @escaping @Sendable (BatchItem, inout CompiledTypeStrings) -> (outcome: BatchOutcome, size: Int)) -> BatchSummary {
        let showProgress = context.errorIsTerminal && !noProgress && items.count > 1
        let knownSizes = items.compactMap(\.size)
        let meter = ProgressMeter(totalFiles: items.count,
                                  totalBytes: knownSizes.count == items.count ? knownSizes.reduce(0, +) : nil)
        let clock = ContinuousClock()
        let started = clock.now
        var lastDraw = started
        var summary = BatchSummary()
        var doneFiles = 0
        var doneBytes = 0
        var progressVisible = false

        typealias Result = (outcome: BatchOutcome, size: Int)
        OrderedParallelMap.run(items, jobs: jobs, worker: { CompiledTypeStrings() }, work: { (compiled: inout CompiledTypeStrings, item: BatchItem) -> Result in
            if let reason = item.skipReason { return (BatchOutcome.skipped(reason: reason), 0) }
            return work(item, &compiled)
        }, deliver: { (index: Int, result: Result) in
            summary.add(items[index].path, result.outcome)
            if quiet, !Self.isProblem(result.outcome) { return }
            if progressVisible {
                context.errorOutput.write(ProgressMeter.erase)
                progressVisible = false
            }
            context.print("\(CommandContext.displayName(items[index].path)): \(result.outcome.text)")
        }, completed: { (_: Int, result: Result) in
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

    /// Whether `--quiet` still prints this outcome.
    static func isProblem(_ outcome: BatchOutcome) -> Bool {
        switch outcome {
        case .identical, .converted, .skipped: false
        case .differs, .failed: true
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
