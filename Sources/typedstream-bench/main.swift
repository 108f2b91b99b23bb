// typedstream-bench: measures swift-typedstream on deterministic generated inputs (and
// pytypedstream on the same files when it is installed). See `--help` and docs/performance.md.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(Options.usage)
    exit(0)
}
let options: Options
do {
    options = try Options.parse(arguments)
} catch {
    FileHandle.standardError.write(Data("typedstream-bench: \(error)\n".utf8))
    exit(64)
}
do {
    if let phase = options.childPhase {
        guard let kind = options.childKind, let input = options.childInput else {
            throw BenchError("--phase needs --kind and --input")
        }
        try PhaseChild.run(phase: phase, kind: kind, input: input, runs: options.runs, warmup: options.warmup)
    } else if let files = options.commandFiles {
        guard !files.isEmpty else { throw BenchError("--commands: no files (../shared/bench is missing; name files)") }
        let results = try CommandRuns.measure(files: files, runs: options.runs, scratch: NSTemporaryDirectory() + "typedstream-bench-command-output", peer: options.peer)
        let report = (["# typedstream commands, whole process", ""] + Machine.summary().map { "- " + $0 }
            + ["- command: `typedstream-bench \(CommandLine.arguments.dropFirst().joined(separator: " "))`",
               "- median wall time of \(options.runs) run(s) per line; output to /dev/null; peak = the largest resident set of the runs", "",
               CommandRuns.table(results), ""]).joined(separator: "\n")
        print(report)
        if let path = options.markdownPath { try report.write(toFile: path, atomically: true, encoding: .utf8) }
    } else if let count = options.messageSQLCount {
        try MessageDatabase.writeScript(count: count, seed: options.seed)
    } else if options.selfCheck {
        exit(SelfCheck.run(seed: options.seed) ? 0 : 1)
    } else {
        let report = try BenchRun(options: options).run()
        print(report, terminator: "")
        if let path = options.markdownPath {
            try report.write(toFile: path, atomically: true, encoding: .utf8)
            FileHandle.standardError.write(Data("wrote \(path)\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("typedstream-bench: \(error)\n".utf8))
    exit(1)
}
