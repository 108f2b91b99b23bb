import Testing
@testable import TypedStreamTool

/// One bad command line: what the message must say and which argument the caret must mark.
struct UsageRow: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let message: String
    /// The argument text the caret must sit under, or `nil` for "at the end of the command line".
    let marked: String?
    let location: SourceLocation

    init(_ arguments: [String], _ message: String, marks marked: String?, _ location: SourceLocation = #_sourceLocation) {
        self.arguments = arguments
        self.message = message
        self.marked = marked
        self.location = location
    }

    var testDescription: String { arguments.joined(separator: " ") }
}

/// The text on the echoed command line above the carets (`<end>` when the carets sit past it).
func markedText(in standardError: String) -> String? {
    let lines = standardError.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    guard let caretLine = lines.firstIndex(where: { $0.contains("^") && $0.allSatisfy { $0 == " " || $0 == "^" } }),
          caretLine > 0, let first = lines[caretLine].firstIndex(of: "^"), let last = lines[caretLine].lastIndex(of: "^") else { return nil }
    let echo = lines[caretLine - 1]
    if first >= echo.count { return "<end>" }
    return String(echo[first...min(last, echo.count - 1)])
}

@Suite("Argument layer")
struct ArgumentLayerTests {
    static let rows: [UsageRow] = [
        UsageRow(["frob"], "unknown subcommand 'frob' (argument 1)", marks: "frob"),
        UsageRow(["verfy", "x"], "unknown subcommand 'verfy'; did you mean 'verify'? (argument 1)", marks: "verfy"),
        UsageRow(["--frob"], "unknown option '--frob'; expected a subcommand (argument 1)", marks: "--frob"),
        UsageRow(["verify", "x", "--frob"], "unknown option '--frob' (argument 3)", marks: "--frob"),
        UsageRow(["verify", "--recursiv", "x"], "unknown option '--recursiv'; did you mean '--recursive'? (argument 2)", marks: "--recursiv"),
        UsageRow(["verify", "-x", "f"], "unknown option '-x' (argument 2)", marks: "-x"),
        UsageRow(["verify", "-rx", "f"], "unknown option '-x' in '-rx' (argument 2)", marks: "-rx"),
        UsageRow(["verify", "f", "--jobs"], "option '--jobs' needs a value <n> (argument 3)", marks: "--jobs"),
        UsageRow(["verify", "f", "-j"], "option '-j' needs a value <n> (argument 3)", marks: "-j"),
        UsageRow(["verify", "f", "--jobs", "many"], "invalid value 'many' for '--jobs': expected an integer (argument 4)", marks: "many"),
        UsageRow(["verify", "f", "--jobs=0"], "invalid value '0' for '--jobs': must be at least 1 (argument 3)", marks: "--jobs=0"),
        UsageRow(["verify", "f", "-j0"], "invalid value '0' for '--jobs': must be at least 1 (argument 3)", marks: "-j0"),
        UsageRow(["verify", "f", "-j", "2", "--jobs", "3"], "option '--jobs' is given more than once (argument 5)", marks: "--jobs"),
        UsageRow(["verify", "--recursive=yes", "f"], "flag '--recursive' takes no value (argument 2)", marks: "--recursive=yes"),
        UsageRow(["verify"], "missing argument <FILE> (at the end of the command line)", marks: nil),
        UsageRow(["verify", "-r"], "missing argument <FILE> (at the end of the command line)", marks: nil),
        UsageRow(["tokens"], "missing argument <FILE> (at the end of the command line)", marks: nil),
        UsageRow(["tokens", "a", "b c"], "unexpected argument 'b c' (argument 3)", marks: "'b c'"),
        UsageRow(["tokens", "a", "--bytes", "-1"], "invalid value '-1' for '--bytes': must be 0 or more (argument 4)", marks: "-1"),
        UsageRow(["tokens", "--bytes", "0x", "a"], "invalid value '0x' for '--bytes': expected an integer (argument 3)", marks: "0x"),
        UsageRow(["detect"], "missing argument <FILE> (at the end of the command line)", marks: nil),
        UsageRow(["detect", "--", "--help", "--frob"], "", marks: nil), // not a usage error: see below
        UsageRow(["help", "frob"], "unknown subcommand 'frob' (argument 2)", marks: "frob"),
        UsageRow(["help", "tokns"], "unknown subcommand 'tokns'; did you mean 'tokens'? (argument 2)", marks: "tokns"),
        UsageRow(["help", "verify", "extra"], "unexpected argument 'extra' (argument 3)", marks: "extra"),
    ].filter { !$0.message.isEmpty }

    @Test("every usage error exits 64, names the argument and marks it", arguments: rows)
    func usageErrors(row: UsageRow) {
        let result = run(row.arguments)
        #expect(result.exitCode == .usage, sourceLocation: row.location)
        #expect(result.standardOutput.isEmpty, sourceLocation: row.location)
        let firstLine = result.standardError.split(separator: "\n").first.map(String.init)
        #expect(firstLine == "error: " + row.message, sourceLocation: row.location)
        #expect(markedText(in: result.standardError) == (row.marked ?? "<end>"), sourceLocation: row.location)
        #expect(result.standardError.contains("usage: typedstream"), sourceLocation: row.location)
    }

    @Test func noArgumentsPrintsHelpToStandardErrorAndExits64() {
        let result = run([])
        #expect(result.exitCode == .usage)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("OVERVIEW: "))
    }

    @Test func folderWithoutRecursiveIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let verify = run(["verify", "-q", folder.path])
        #expect(verify.exitCode == .usage)
        #expect(verify.standardError.hasPrefix("error: '\(folder.path)' is a folder; add --recursive to check the files in it (argument 3)"))
        #expect(markedText(in: verify.standardError) == folder.path)
        let detect = run(["detect", "-", folder.path])
        #expect(detect.exitCode == .usage)
        #expect(detect.standardError.hasPrefix("error: '\(folder.path)' is a folder; 'detect' takes files (argument 3)"))
    }

    @Test func doubleDashEndsOptions() {
        // After `--`, "--help" and "--frob" are file names (that do not exist): a data error, not usage.
        let result = run(["detect", "--", "--help", "--frob"])
        #expect(result.exitCode == .failure)
        #expect(result.standardError.contains("cannot read '--help'"))
        #expect(result.standardError.contains("cannot read '--frob'"))
    }

    // MARK: - Help

    static let helpSections = ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:"]

    @Test("subcommand help has every section", arguments: ["tokens", "verify", "detect", "help"])
    func subcommandHelp(name: String) {
        let viaFlag = run([name, "--help"])
        let viaShortFlag = run([name, "-h"])
        let viaHelp = run(["help", name])
        for result in [viaFlag, viaShortFlag, viaHelp] {
            #expect(result.exitCode == .success)
            #expect(result.standardError.isEmpty)
        }
        #expect(viaFlag.standardOutput == viaHelp.standardOutput)
        #expect(viaShortFlag.standardOutput == viaHelp.standardOutput)
        var position = viaFlag.standardOutput.startIndex
        for section in Self.helpSections {
            guard let found = viaFlag.standardOutput.range(of: "\n" + section, range: position..<viaFlag.standardOutput.endIndex)
                ?? (section == "OVERVIEW:" && viaFlag.standardOutput.hasPrefix(section) ? viaFlag.standardOutput.range(of: section) : nil) else {
                Issue.record("section \(section) missing or out of order in help for \(name)")
                return
            }
            position = found.upperBound
        }
        #expect(viaFlag.standardOutput.contains("USAGE: typedstream \(name)"))
        #expect(viaFlag.standardOutput.contains("-h, --help"))
        for line in viaFlag.standardOutput.split(separator: "\n") {
            #expect(line.count <= 80, "help line longer than 80 columns: \(line)")
        }
    }

    @Test func helpWinsOverOtherMistakes() {
        let result = run(["verify", "--jobs", "zero", "--frob", "--help"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput.hasPrefix("OVERVIEW: Check that archives"))
    }

    @Test func rootHelpListsEveryRegisteredSubcommand() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = run(arguments)
            #expect(result.exitCode == .success)
            #expect(result.standardOutput.hasPrefix("OVERVIEW: "))
            #expect(result.standardOutput.contains("\nUSAGE: typedstream <subcommand>"))
            #expect(result.standardOutput.contains("\nSUBCOMMANDS:\n"))
            for command in TypedStreamCommand.subcommands {
                #expect(result.standardOutput.contains("\n  \(command.configuration.name) "))
            }
        }
    }

    @Test func optionHelpShowsDefaultsAndShortNames() {
        let help = run(["verify", "--help"]).standardOutput
        #expect(help.contains("  -j, --jobs <n>          Check n files at once (default: the number of cores).\n"))
        #expect(help.contains("  -r, --recursive "))
        #expect(help.contains("  <FILE>                  "))
        #expect(help.contains("USAGE: typedstream verify [--recursive] [--quiet] [--no-progress] [--graph]\n       [--jobs <n>] [--shard <I/N>] <FILE> ...\n"))
    }

    // MARK: - Registry and configuration

    @Test func registeredConfigurationsAreSound() {
        var names: Set<String> = []
        for command in TypedStreamCommand.subcommands {
            let configuration = command.configuration
            #expect(configuration.problems.isEmpty, "\(configuration.name): \(configuration.problems)")
            #expect(names.insert(configuration.name).inserted, "subcommand \(configuration.name) registered twice")
            #expect(!configuration.abstract.isEmpty)
        }
        #expect(names.isSuperset(of: ["tokens", "verify", "detect", "help"]))
    }

    @Test func configurationProblemsAreFound() {
        let bad = CommandConfiguration(
            name: "bad", abstract: "x",
            arguments: [.init("A", help: "", arity: .oneOrMore), .init("B", help: "", arity: .optional), .init("C", help: "")],
            options: [.init("help", valueName: "x", help: ""), .init("same", short: "s", valueName: "x", help: "")],
            flags: [.init("same", help: ""), .init("other", short: "s", help: "")])
        #expect(bad.problems.count == 5, "\(bad.problems)")
    }
}
