import Foundation

/// pytypedstream (dgelessus/python-typedstream), timed on the same files in the same run.
///
/// The script below runs inside one interpreter per file: the file is read and the module
/// imported before the clock starts, so interpreter start-up is excluded. `events` iterates
/// the low-level `typedstream.stream.TypedStreamReader` (the counterpart of our token scan);
/// `unarchive` calls `typedstream.unarchive_from_data` (a decoded object tree, the counterpart
/// of our typed decode). For a blob container it decodes `SAMPLE` evenly spaced blobs.
enum Peer {
    static let install = "pip install pytypedstream"

    static let script = #"""
    # Times pytypedstream on one typedstream-bench input, in process (start-up and imports excluded).
    # usage: python3 pytypedstream_peer.py events|unarchive FILE RUNS [SAMPLE]
    import sys, time
    import typedstream
    from typedstream.stream import TypedStreamReader

    def load(path, sample):
        data = open(path, "rb").read()
        if not sample:
            return [data]
        blobs, offset = [], 0
        while offset < len(data):
            length = int.from_bytes(data[offset:offset + 4], "little")
            offset += 4
            blobs.append(data[offset:offset + length])
            offset += length
        stride = max(1, len(blobs) // sample)
        return blobs[::stride][:sample]

    def events(archives):
        count = 0
        for data in archives:
            with TypedStreamReader.from_data(data) as reader:
                for _ in reader:
                    count += 1
        return count

    def unarchive(archives):
        for data in archives:
            typedstream.unarchive_from_data(data)
        return len(archives)

    mode, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sample = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    archives = load(path, sample)
    work = {"events": events, "unarchive": unarchive}[mode]
    wall, cpu = [], []
    for _ in range(runs):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        work(archives)
        wall.append(time.perf_counter() - wall0)
        cpu.append(time.process_time() - cpu0)
    # VmHWM, not ru_maxrss: after exec, ru_maxrss still holds the parent's peak.
    peak = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    print("RESULT wall=%s cpu=%s baselineKB=0 peakKB=%d bytes=%d count=%d" % (
        ",".join("%.6f" % t for t in wall), ",".join("%.6f" % t for t in cpu),
        peak, sum(len(a) for a in archives), len(archives)))
    """#

    /// The indices of the blobs the script samples (same rule as `load` above).
    static func sampleIndices(count: Int, sample: Int) -> [Int] {
        let stride = max(1, count / sample)
        return Array(Swift.stride(from: 0, to: count, by: stride).prefix(sample))
    }

    /// `python3`'s path, if any.
    static var python: String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/python3"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// pytypedstream's version when `import typedstream` works, else `nil`.
    static func version() -> String? {
        guard let python else { return nil }
        let text = try? ChildProcess.output(python, ["-c", "import typedstream; print(typedstream.__version__)"])
        return text?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes the script into `folder`; returns its path.
    static func writeScript(in folder: String) throws -> String {
        let path = folder + "/pytypedstream_peer.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Times `mode` (`events` or `unarchive`) on `path`; returns the timings and the bytes decoded.
    static func measure(script: String, mode: String, path: String, runs: Int, sample: Int?) throws -> (PhaseResult, bytes: Int) {
        guard let python else { throw BenchError("python3 not found") }
        var arguments = [script, mode, path, String(runs)]
        if let sample { arguments.append(String(sample)) }
        let text = try ChildProcess.output(python, arguments)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") }) else {
            throw BenchError("peer printed no RESULT line:\n\(text)")
        }
        let bytes = line.split(separator: " ").first { $0.hasPrefix("bytes=") }.flatMap { Int($0.dropFirst(6)) } ?? 0
        return (try PhaseResult(line: String(line)), bytes)
    }
}
