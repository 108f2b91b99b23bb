import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What users run: the `typedstream` commands as whole processes (start-up, reading the file,
/// decoding, writing the output to `/dev/null`), timed by wall clock with the child's peak
/// memory from `wait4`, beside `pytypedstream decode` on the same files when it is installed.
enum CommandRuns {
    /// One command line to measure; `{}` stands for the input file, `{out}` for a scratch file.
    struct Command {
        let label: String
        let arguments: [String]
    }

    /// The commands of the report, in order.
    static let commands: [Command] = [
        Command(label: "decode --stats", arguments: ["decode", "--stats", "{}"]),
        Command(label: "verify", arguments: ["verify", "{}"]),
        Command(label: "decode --plain", arguments: ["decode", "--plain", "{}"]),
        Command(label: "decode --json", arguments: ["decode", "--json", "{}"]),
        Command(label: "convert --to keyed", arguments: ["convert", "--to", "keyed", "{}", "-o", "{out}"]),
        Command(label: "convert --to keyed-xml", arguments: ["convert", "--to", "keyed-xml", "{}", "-o", "{out}"]),
        Command(label: "decode", arguments: ["decode", "{}"]),
        Command(label: "tokens", arguments: ["tokens", "{}"]),
        Command(label: "inspect", arguments: ["inspect", "{}"]),
    ]

    /// One measurement: median wall seconds and the largest peak resident memory of the runs.
    struct Result {
        let label: String
        let file: String
        let bytes: Int
        let seconds: Double
        let peakKB: Int
        let status: Int32
    }

    /// The four reference inputs of `../shared/bench` (an independent writer's), when present.
    static func sharedBenchFiles() -> [String] {
        ["strings", "dicts", "attributed", "models"].map { "../shared/bench/\($0)-4MB.typedstream" }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The `typedstream` executable beside this bench executable.
    static func toolPath() -> String {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return bench.deletingLastPathComponent().appendingPathComponent("typedstream").path
    }

    /// Measures every command on every file, `runs` times each (median wall time).
    static func measure(files: [String], runs: Int, scratch: String, peer: Bool) throws -> [Result] {
        let tool = toolPath()
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw BenchError("\(tool) not found: build it first (swift build -c release --product typedstream)")
        }
        var results: [Result] = []
        for file in files {
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            var lines = commands.map { command in
                (command.label, [tool] + command.arguments.map { $0 == "{}" ? file : $0 == "{out}" ? scratch : $0 })
            }
            if peer, peerAvailable {
                lines.append(("pytypedstream decode", ["/usr/bin/env", "python3", "-m", "typedstream", "decode", file]))
            }
            for (label, argv) in lines {
                var walls: [Double] = []
                var peak = 0
                var status: Int32 = 0
                for _ in 0..<max(1, runs) {
                    let run = try spawnAndWait(argv)
                    walls.append(run.seconds)
                    peak = max(peak, run.peakKB)
                    status = run.status
                }
                results.append(Result(label: label, file: file, bytes: bytes, seconds: Measure.median(walls), peakKB: peak, status: status))
            }
        }
        try? FileManager.default.removeItem(atPath: scratch)
        return results
    }

    /// The Markdown table: MB/s whole-process, peak MB, and the peer's time ÷ ours.
    static func table(_ results: [Result]) -> String {
        var lines = ["| file | command | seconds | MB/s | peak MB | exit | pytypedstream ÷ this |", "|---|---|--:|--:|--:|--:|--:|"]
        for result in results {
            let peer = results.first { $0.file == result.file && $0.label == "pytypedstream decode" }
            let ratio = peer.map { String(format: "×%.0f", $0.seconds / max(result.seconds, 1e-6)) } ?? ""
            let rate = result.seconds > 0 ? Double(result.bytes) / 1e6 / result.seconds : 0
            lines.append("| \(URL(fileURLWithPath: result.file).lastPathComponent) | `\(result.label)` | \(String(format: "%.3f", result.seconds)) | \(Report.rate(rate)) | \(String(format: "%.1f", Double(result.peakKB) * 1024 / 1e6)) | \(result.status) | \(result.label.hasPrefix("pytypedstream") ? "" : ratio) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Whether `python3` can import pytypedstream's `typedstream` package.
    private static var peerAvailable: Bool {
        (try? spawnAndWait(["/usr/bin/env", "python3", "-c", "import typedstream"]))?.status == 0
    }

    /// Runs `argv` with standard output and error to `/dev/null`; returns wall seconds, the
    /// child's peak resident memory (KB) and its exit status (128 + signal when killed).
    static func spawnAndWait(_ argv: [String]) throws -> (seconds: Double, peakKB: Int, status: Int32) {
        let arguments = argv
        var actions = emptySpawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        var environment = spawnEnvironment()
        defer { for pointer in cArguments + environment { free(pointer) } }
        var pid: pid_t = 0
        let start = Measure.wallSeconds()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &cArguments, &environment)
        guard spawned == 0 else { throw BenchError("cannot run \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: errno \(errno)") }
        }
        let seconds = Measure.wallSeconds() - start
        let exited = status & 0x7f == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (seconds, maximumResidentKB(usage), code)
    }
}
