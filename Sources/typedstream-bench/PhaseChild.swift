import Foundation

/// The hidden `--phase` mode: one child process measures one phase on one input file, so its
/// peak memory (`VmHWM`) belongs to that phase alone.
///
/// Prints one line: `RESULT wall=s,s,… cpu=s,s,… baselineKB=… peakKB=… check=…`, where
/// `baselineKB` is the resident set after loading and preparing (input bytes, prepared graphs,
/// runtime) and `peakKB` the peak during the timed and warm-up runs.
enum PhaseChild {
    static func run(phase: Phase, kind: InputKind, input: String, runs: Int, warmup: Int) throws {
        let bytes = try FileIO.read(input)
        let archives = kind == .blobs ? try FileIO.unpackBlobs(bytes) : [bytes]
        let workload = Workload(archives: archives)
        try workload.prepare(phase)
        Measure.resetPeak()
        let baseline = Measure.statusKB("VmHWM") ?? 0
        var wall: [Double] = []
        var cpu: [Double] = []
        var check = 0
        for index in 0..<(warmup + runs) {
            let wall0 = Measure.wallSeconds(), cpu0 = Measure.cpuSeconds()
            check &+= try workload.run(phase)
            let wall1 = Measure.wallSeconds(), cpu1 = Measure.cpuSeconds()
            if index >= warmup {
                wall.append(wall1 - wall0)
                cpu.append(cpu1 - cpu0)
            }
        }
        let peak = Measure.statusKB("VmHWM") ?? 0
        let list = { (values: [Double]) in values.map { String(format: "%.6f", $0) }.joined(separator: ",") }
        print("RESULT wall=\(list(wall)) cpu=\(list(cpu)) baselineKB=\(baseline) peakKB=\(peak) check=\(check)")
    }
}

/// One phase measured in a child process.
struct PhaseResult {
    var wall: [Double]
    var cpu: [Double]
    var baselineKB: Int
    var peakKB: Int

    /// Parses a `RESULT …` line (from our child or the Python peer script).
    init(line: String) throws {
        var fields: [String: String] = [:]
        for part in line.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        func list(_ key: String) -> [Double] { (fields[key] ?? "").split(separator: ",").compactMap { Double($0) } }
        wall = list("wall")
        cpu = list("cpu")
        baselineKB = Int(fields["baselineKB"] ?? "") ?? 0
        peakKB = Int(fields["peakKB"] ?? "") ?? 0
        guard !wall.isEmpty else { throw BenchError("no timings in '\(line)'") }
    }
}

/// Starting child processes and reading their `RESULT` line.
enum ChildProcess {
    /// This executable, to re-run in `--phase` mode.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `path` with `arguments`; returns its standard output. Throws when it fails.
    static func output(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchError("\((path as NSString).lastPathComponent) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)\n\(text)")
        }
        return text
    }

    /// Measures `phase` on `input` in one child of this executable and returns the faster of
    /// its result and `kept` (an earlier pass's, by median CPU time); with `memory`, one more
    /// child runs the phase once, without warm-up, for the memory columns.
    ///
    /// A whole child process now and then runs at about half speed on this kind of machine —
    /// every run in it, warm-up or not, sometimes two children in a row (seen as the first
    /// phase after generating the inputs reading the 10 MB `strings` at 692–898 MB/s against
    /// 1 400 in the same run's later children, and the first after the peer at 706 MB/s on the
    /// 1 MB `strings` against 1 500) — so one child per phase let one slow spell decide a row and
    /// its `÷ bare` ratio. The bench measures every phase of every input once per pass
    /// (`--processes` passes) and keeps each phase's faster child.
    ///
    /// Memory is one run's because repeated runs in one process measured glibc rather than the
    /// phase: its dynamic mmap threshold, raised when an earlier run frees its large object
    /// table, puts a later run's table in the heap beside pages still resident, so the peak of
    /// the 10 MB `strings` `index` read 39.8 MB after three runs against 34.8 MB for one (34.9 MB
    /// for any number of runs with `MALLOC_MMAP_THRESHOLD_=131072`).
    static func measure(_ phase: Phase, _ input: BenchInput, runs: Int, warmup: Int, keeping kept: PhaseResult?,
                        memory: Bool) throws -> PhaseResult {
        var best = try child(phase, input, runs: runs, warmup: warmup)
        if memory {
            let once = runs == 1 && warmup == 0 ? best : try child(phase, input, runs: 1, warmup: 0)
            best.baselineKB = once.baselineKB
            best.peakKB = once.peakKB
        }
        guard let kept else { return best }
        if Measure.median(kept.cpu) <= Measure.median(best.cpu) { return kept }
        best.baselineKB = kept.baselineKB
        best.peakKB = kept.peakKB
        return best
    }

    /// One child measuring `phase` on `input`: its `RESULT` line, parsed.
    private static func child(_ phase: Phase, _ input: BenchInput, runs: Int, warmup: Int) throws -> PhaseResult {
        let text = try output(executable, ["--phase", phase.rawValue, "--kind", input.kind.rawValue, "--input", input.path,
                                           "--runs", String(runs), "--warmup", String(warmup)])
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") }) else {
            throw BenchError("child printed no RESULT line:\n\(text)")
        }
        return try PhaseResult(line: String(line))
    }
}
