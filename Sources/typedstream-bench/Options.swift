import Foundation

/// The command line of `typedstream-bench`.
struct Options {
    var sizes: [Double] = [1, 10, 50]
    var runs = 5
    var warmup = 1
    /// Passes over all phases, a child per phase per pass; the fastest is kept (see
    /// `ChildProcess.measure`).
    var processes = 2
    var quick = false
    var kinds: [InputKind] = InputKind.allCases
    var phases: [Phase] = Phase.allCases
    var blobCount = 50_000
    var peerBlobSample = 500
    var peer = true
    var seed: UInt64 = 0x7479_7065_6473_7472   // "typedstr"
    var inputsFolder = NSTemporaryDirectory() + "typedstream-bench"
    var markdownPath: String?
    var selfCheck = false
    /// Print a SQLite script of this many message bodies instead of measuring.
    var messageSQLCount: Int?
    /// Measure the commands whole-process on these files instead of the phases.
    var commandFiles: [String]?
    /// Hidden child mode: measure this phase only.
    var childPhase: Phase?
    var childKind: InputKind?
    var childInput: String?

    static let usage = """
    OVERVIEW: Benchmarks swift-typedstream on generated inputs and, when installed, pytypedstream.

    USAGE: typedstream-bench [options]

    OPTIONS:
      --sizes LIST        Input sizes in MB (10^6 bytes), comma-separated (default 1,10,50).
      --runs N            Timed runs per measurement; the median is reported (default 5).
      --warmup N          Untimed runs before them (default 1).
      --processes N       Passes over all phases, each phase in a new child process per
                          pass; each phase's child with the lowest median CPU time is kept
                          (default 2; now and then a whole process runs at half speed on
                          shared machines).
      --quick             Fast smoke: sizes 1, 1 run, no warm-up, one process, 5 000 blobs,
                          100 peer blobs.
      --kinds LIST        Any of strings,dicts,attributed,data,models,blobs (default all).
      --phases LIST       Any of scan,bare,index,index-write,graph,typed,natural,encode,
                          archive,verify
                          (default all).
      --blobs N           Number of separate small archives (default 50000).
      --peer-blobs N      Blobs pytypedstream decodes, evenly spaced (default 500).
      --no-peer           Do not run pytypedstream.
      --seed N            Generator seed (default \(Options().seed)).
      --inputs DIR        Where inputs are written (default $TMPDIR/typedstream-bench).
      --markdown FILE     Also write the report to FILE.
      --message-sql N     Instead of measuring: print a SQLite script that makes a table
                          message(ROWID, attributedBody, expected, damage) of N generated
                          bodies, about one in a thousand damaged (see examples/).
      --self-check        Generate every kind twice at a small size, check the bytes are the
                          same and round-trip, print digests, and exit (no timing).
      --commands [LIST]   Instead of the phases: time the typedstream commands as whole
                          processes (wall clock, peak memory) on the files in LIST
                          (comma-separated; default: ../shared/bench/*.typedstream), beside
                          'pytypedstream decode' when it is installed. Needs the release
                          'typedstream' built beside this executable.
      -h, --help          Show this help.
    """

    /// Parses `arguments` (without the program name). Throws a message for bad usage.
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var explicitSizes = false, explicitRuns = false, explicitWarmup = false
        var explicitBlobs = false, explicitPeerBlobs = false, explicitProcesses = false
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name)
            guard let n = Int(text), n >= 0 else { throw BenchError("\(name): '\(text)' is not a count") }
            return n
        }
        func list<T>(_ name: String, _ make: (String) -> T?) throws -> [T] {
            let text = try value(name)
            return try text.split(separator: ",").map {
                guard let item = make(String($0)) else { throw BenchError("\(name): unknown item '\($0)'") }
                return item
            }
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--sizes":
                options.sizes = try list(argument) { Double($0).flatMap { $0 > 0 ? $0 : nil } }
                explicitSizes = true
            case "--runs":
                options.runs = max(1, try number(argument))
                explicitRuns = true
            case "--processes":
                options.processes = max(1, try number(argument))
                explicitProcesses = true
            case "--warmup":
                options.warmup = try number(argument)
                explicitWarmup = true
            case "--quick": options.quick = true
            case "--kinds": options.kinds = try list(argument) { InputKind(rawValue: $0) }
            case "--phases": options.phases = try list(argument) { Phase(rawValue: $0) }
            case "--blobs":
                options.blobCount = max(1, try number(argument))
                explicitBlobs = true
            case "--peer-blobs":
                options.peerBlobSample = max(1, try number(argument))
                explicitPeerBlobs = true
            case "--no-peer": options.peer = false
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw BenchError("--seed: '\(text)' is not a number") }
                options.seed = seed
            case "--inputs": options.inputsFolder = try value(argument)
            case "--markdown": options.markdownPath = try value(argument)
            case "--self-check": options.selfCheck = true
            case "--message-sql": options.messageSQLCount = try number(argument)
            case "--commands":
                if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                    index += 1
                    options.commandFiles = arguments[index].split(separator: ",").map(String.init)
                } else {
                    options.commandFiles = CommandRuns.sharedBenchFiles()
                }
            case "--phase":
                let text = try value(argument)
                guard let phase = Phase(rawValue: text) else { throw BenchError("--phase: unknown phase '\(text)'") }
                options.childPhase = phase
            case "--kind":
                let text = try value(argument)
                guard let kind = InputKind(rawValue: text) else { throw BenchError("--kind: unknown kind '\(text)'") }
                options.childKind = kind
            case "--input": options.childInput = try value(argument)
            case "-h", "--help": throw BenchError(usage)
            default: throw BenchError("unknown option '\(argument)'\n\n\(usage)")
            }
            index += 1
        }
        if options.quick {
            if !explicitSizes { options.sizes = [1] }
            if !explicitRuns { options.runs = 1 }
            if !explicitWarmup { options.warmup = 0 }
            if !explicitBlobs { options.blobCount = 5_000 }
            if !explicitPeerBlobs { options.peerBlobSample = 100 }
            if !explicitProcesses { options.processes = 1 }
        }
        return options
    }
}
