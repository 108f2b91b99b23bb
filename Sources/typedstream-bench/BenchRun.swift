import Foundation
import ModelDocument

/// A whole benchmark run: generate the inputs, measure every phase in a child process, time
/// the peer, and build the report.
struct BenchRun {
    let options: Options

    /// Progress goes to standard error so standard output holds only the report.
    private func progress(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Runs everything; returns the Markdown report.
    func run() throws -> String {
        var lines = ["# typedstream-bench", ""]
        lines += Machine.summary().map { "- " + $0 }
        lines.append("- command: `typedstream-bench \(CommandLine.arguments.dropFirst().joined(separator: " "))`")
        lines.append("- runs: median of \(options.runs) after \(options.warmup) warm-up run(s); each phase in its own child process, measured in \(options.processes) such children in separate passes over all phases, the one with the lowest median CPU time kept; seed \(options.seed)")
        lines.append("")

        try FileManager.default.createDirectory(atPath: options.inputsFolder, withIntermediateDirectories: true)
        var inputs: [BenchInput] = []
        var blobObjects: [Int] = []
        for kind in options.kinds {
            if kind == .blobs {
                progress("generating \(options.blobCount) blobs…")
                let start = Measure.wallSeconds()
                let blobs = try Generators.blobs(count: options.blobCount, seed: options.seed)
                let seconds = Measure.wallSeconds() - start
                blobObjects = try blobs.map(Generators.objectCount)
                let path = options.inputsFolder + "/blobs-\(blobs.count).bin"
                try FileIO.write(FileIO.packBlobs(blobs), to: path)
                inputs.append(BenchInput(kind: .blobs, targetMB: 0, path: path, archiveCount: blobs.count,
                                         totalBytes: blobs.reduce(0) { $0 + $1.count }, objects: blobObjects.reduce(0, +),
                                         generationSeconds: seconds))
                continue
            }
            for size in options.sizes {
                progress("generating \(kind.rawValue) \(formatMB(size)) MB…")
                let start = Measure.wallSeconds()
                let bytes = try Generators.archive(kind, targetBytes: Int(size * 1e6), seed: options.seed)
                let seconds = Measure.wallSeconds() - start
                let path = options.inputsFolder + "/\(kind.rawValue)-\(formatMB(size))MB.typedstream"
                try FileIO.write(bytes, to: path)
                inputs.append(BenchInput(kind: kind, targetMB: size, path: path, archiveCount: 1, totalBytes: bytes.count,
                                         objects: try Generators.objectCount(bytes), generationSeconds: seconds))
            }
        }

        // The peer, on the 1 MB inputs (and smaller) and a sample of the blobs.
        var peerResults: [String: (events: ReportRow?, unarchive: ReportRow?)] = [:]
        var peerNote: String
        let peerRuns = min(options.runs, 3)
        if !options.peer {
            peerNote = "pytypedstream not run (--no-peer)."
        } else if let version = Peer.version() {
            peerNote = "Peer: pytypedstream \(version) (pure Python, about 0.5 MB/s), run only on the inputs of 1 MB and less and on \(options.peerBlobSample) evenly spaced blobs (its rows say which); median of \(peerRuns) in-process run(s), no warm-up, interpreter start-up and imports excluded. `py events` iterates `typedstream.stream.TypedStreamReader` (compared with our `scan`); `py unarchive` calls `typedstream.unarchive_from_data` (compared with our `typed` and `natural`). ×peer = our MB/s ÷ its MB/s."
            let script = try Peer.writeScript(in: options.inputsFolder)
            for input in inputs where input.kind == .blobs || input.targetMB <= 1 {
                let sample = input.kind == .blobs ? min(options.peerBlobSample, input.archiveCount) : nil
                let objects = sample.map { Peer.sampleIndices(count: blobObjects.count, sample: $0).reduce(0) { $0 + blobObjects[$1] } } ?? input.objects
                let size = sample.map { "\($0)-blob sample" } ?? input.sizeLabel
                var pair: (events: ReportRow?, unarchive: ReportRow?) = (nil, nil)
                for mode in ["events", "unarchive"] {
                    progress("pytypedstream \(mode) on \(input.kind.rawValue) \(size)…")
                    do {
                        let (result, bytes) = try Peer.measure(script: script, mode: mode, path: input.path, runs: peerRuns, sample: sample)
                        let row = ReportRow(kind: input.kind.rawValue, size: size, phase: "py \(mode)", result: result, bytes: bytes, objects: objects)
                        if mode == "events" { pair.events = row } else { pair.unarchive = row }
                    } catch {
                        progress("pytypedstream failed on \(input.path): \(error)")
                    }
                }
                peerResults[input.path] = pair
            }
        } else {
            peerNote = "pytypedstream not installed (\(Peer.install))."
        }

        // Our phases, each in child processes: every phase of every input once per pass, so
        // the children of one phase run minutes apart (see `ChildProcess.measure`).
        var measured: [String: PhaseResult] = [:]
        for pass in 1...max(1, options.processes) {
            for input in inputs {
                for phase in options.phases {
                    progress("pass \(pass): measuring \(input.kind.rawValue) \(input.sizeLabel) \(phase.rawValue)…")
                    let key = input.path + " " + phase.rawValue
                    measured[key] = try ChildProcess.measure(phase, input, runs: options.runs, warmup: options.warmup,
                                                             keeping: measured[key], memory: pass == 1)
                }
            }
        }
        var rows: [ReportRow] = []
        var baselines: [String: Int] = [:]
        for input in inputs {
            for phase in options.phases {
                guard let result = measured[input.path + " " + phase.rawValue] else { continue }
                if baselines[input.path] == nil { baselines[input.path] = result.baselineKB }
                var row = ReportRow(kind: input.kind.rawValue, size: input.sizeLabel, phase: phase.rawValue,
                                    result: result, bytes: input.totalBytes, objects: input.objects)
                let peer = peerResults[input.path]
                let reference: ReportRow?? = switch phase {
                case .scan: peer?.events
                case .index, .graph, .typed, .natural: peer?.unarchive
                default: nil
                }
                if let ours = row.megabytesPerSecond, let theirs = reference??.megabytesPerSecond, theirs > 0 {
                    row.peerRatio = ours / theirs
                }
                rows.append(row)
            }
            // The scan and the index against the bare scan of the same input, measured minutes
            // apart in the same run: their speed with the machine's taken out.
            let inputRows = rows.indices.filter { rows[$0].kind == input.kind.rawValue && rows[$0].size == input.sizeLabel }
            if let bare = inputRows.first(where: { rows[$0].phase == Phase.bare.rawValue }).flatMap({ rows[$0].cpuMegabytesPerSecond }), bare > 0 {
                for index in inputRows where rows[index].phase == Phase.scan.rawValue || rows[index].phase == Phase.index.rawValue {
                    rows[index].bareRatio = rows[index].cpuMegabytesPerSecond.map { $0 / bare }
                }
            }
            if let peer = peerResults[input.path] {
                if let events = peer.events { rows.append(events) }
                if let unarchive = peer.unarchive { rows.append(unarchive) }
            }
        }

        lines.append(Report.table(rows))
        lines.append("")
        lines.append("MB = 10^6 bytes of archive. MB/s and objects/s use wall time; MB/s (CPU) uses the process's CPU time (steadier on a shared machine). Peak MB is the VmHWM of a further child that runs the phase once without warm-up (after resetting it once the input was loaded) — one decode's memory, not what the allocator keeps of earlier runs — so it includes the input bytes and the Swift runtime; the resident size right after loading is listed per input below. mem ÷ input = (peak − resident before the runs + input size) ÷ input size: what the phase itself needs, counting the input once (the runtime not counted). objects = literal objects in the object table(s). ÷ bare = the row's MB/s (CPU) ÷ the `bare` scan's MB/s (CPU) on the same input: the ceiling for a scan (a bare, unchecked Swift scan of the same files), measured in the same run, so the ratio does not move with the machine's speed.")
        lines.append("")
        lines.append(peerNote)
        lines.append("")
        lines.append("Phases:")
        for phase in options.phases { lines.append("- `\(phase.rawValue)`: \(phase.summary)") }
        lines.append("")
        lines.append("Inputs (generated by our Archiver, written to \(options.inputsFolder)):")
        for input in inputs {
            let loaded = baselines[input.path].map { String(format: "%.1f MB", Double($0) * 1024 / 1e6) } ?? "?"
            lines.append("- \(input.kind.rawValue) \(input.sizeLabel): \(input.kind.summary); \(input.totalBytes) bytes, \(input.objects) objects; generated in \(String(format: "%.2f", input.generationSeconds)) s; resident after loading \(loaded); `\((input.path as NSString).lastPathComponent)`")
        }
        if options.kinds.contains(.models) {
            lines.append("")
            lines.append("The `models` records are ModelDocument's `Model` (document version \(DocumentVersion.current)), decoded with `ModelArchive.registry(for: .current)`. `Model` is not `NaturalValueRepresentable`, so `natural` turns each record into `.object(className:description:)`.")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
