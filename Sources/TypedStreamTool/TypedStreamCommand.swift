import TypedStreamExport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `typedstream` program: picks the subcommand named by the first argument, parses the
/// rest with that subcommand's ``CommandConfiguration``, then calls `validate()` and `run(_:)`.
///
/// Exit codes: `0` success, `1` bad data, `64` usage error. Help goes to standard output;
/// usage errors, data errors and progress go to standard error.
///
/// ```swift
/// // In a test, without spawning a process:
/// let result = TypedStreamCommand.run(["verify", "-"], standardInput: archiveBytes)
/// #expect(result.exitCode == .success)
/// #expect(result.standardOutput == "<stdin>: identical\n")
/// ```
///
/// To add a subcommand, write a type conforming to ``Subcommand`` in its own file and add one
/// line to ``subcommands``.
public enum TypedStreamCommand {
    /// The program name shown in usage lines.
    public static let programName = "typedstream"

    /// One sentence about the program, for `typedstream --help`.
    public static let abstract = "Read, check and convert NSArchiver / NXTypedStream archives (typedstream files)."

    /// Longer help for `typedstream --help`.
    public static let discussion = """
        Every FILE argument may be '-' for standard input. Exit status: 0 success, 1 bad data \
        (a file is malformed, unreadable or does not round-trip), 64 usage error.
        """

    /// Every subcommand, in the order `--help` lists them. **Register a new subcommand here.**
    public static var subcommands: [any Subcommand.Type] {
        [
            TokensCommand.self,
            DecodeCommand.self,
            TextCommand.self,
            InspectCommand.self,
            EncodeCommand.self,
            ConvertCommand.self,
            ModelCommand.self,
            VerifyCommand.self,
            DetectCommand.self,
            CarveCommand.self,
            SalvageCommand.self,
            HelpCommand.self,
        ]
    }

    /// Runs the program over the process's arguments and streams, then exits. A file-size
    /// limit (`ulimit -f`) makes writes fail with `EFBIG`, reported like a full disk, instead of
    /// killing the process with `SIGXFSZ`; a pipe whose reader has gone ends it by `SIGPIPE`.
    public static func main() -> Never {
        signal(SIGXFSZ, SIG_IGN)
        AtomicFile.removeTemporaryFilesOnSignals()
        let context = CommandContext.process()
        let code = run(Array(CommandLine.arguments.dropFirst()), in: context)
        context.errorOutput.flush()
        if code == .brokenPipe {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        exit(code.rawValue)
    }

    /// Runs the program in-process over byte buffers and returns what it printed.
    public static func run(_ arguments: [String], standardInput: [UInt8] = [], errorIsTerminal: Bool = false,
                           processorCount: Int = 2) -> CommandResult {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let context = CommandContext(standardInput: standardInput, output: output, errorOutput: errors,
                                     errorIsTerminal: errorIsTerminal, processorCount: processorCount)
        let code = run(arguments, in: context)
        return CommandResult(exitCode: code, outputBytes: output.bytes, errorBytes: errors.bytes)
    }

    /// Runs the program with `arguments` (program name excluded) in `context`; returns the exit
    /// code. Never throws and never exits the process. Standard output is flushed before it
    /// returns; a write that failed makes the code ``ExitCode/failure`` (after one line on
    /// standard error) or ``ExitCode/brokenPipe``.
    public static func run(_ arguments: [String], in context: CommandContext) -> ExitCode {
        run(arguments, in: context, subcommands: subcommands)
    }

    /// Runs with another list of subcommands (tests use it to drive the argument layer with
    /// made-up subcommands); flushes standard output as ``run(_:in:)`` does.
    static func run(_ arguments: [String], in context: CommandContext, subcommands: [any Subcommand.Type]) -> ExitCode {
        context.finishOutput(dispatch(arguments, in: context, subcommands: subcommands))
    }

    private static func dispatch(_ arguments: [String], in context: CommandContext, subcommands: [any Subcommand.Type]) -> ExitCode {
        guard let first = arguments.first else {
            context.errorOutput.write(rootHelp(programName: context.programName, subcommands: subcommands))
            return .usage
        }
        if first == "--help" || first == "-h" {
            context.output.write(rootHelp(programName: context.programName, subcommands: subcommands))
            return .success
        }
        guard let command = subcommands.first(where: { $0.configuration.name == first }) else {
            let names = subcommands.map { $0.configuration.name }
            let what = first.hasPrefix("-") ? "unknown option '\(first)'; expected a subcommand" : "unknown subcommand '\(first)'"
            var error = UsageError(what + ArgumentParser.suggestion(for: first, among: names), at: 0)
            error.commandLine = arguments
            error.usage = "\(context.programName) <subcommand> [<options>] [<arguments>]"
            error.helpHint = "See '\(context.programName) --help' for the list of subcommands."
            context.errorOutput.write(error.rendered(programName: context.programName))
            return .usage
        }
        return run(command, arguments, in: context)
    }

    /// The registered subcommand called `name`.
    public static func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.configuration.name == name }
    }

    /// The help text of the program (OVERVIEW, USAGE, OPTIONS, SUBCOMMANDS).
    public static func rootHelp(programName: String = programName) -> String {
        rootHelp(programName: programName, subcommands: subcommands)
    }

    static func rootHelp(programName: String, subcommands: [any Subcommand.Type]) -> String {
        HelpFormatter.rootHelp(programName: programName, abstract: abstract, discussion: discussion,
                               subcommands: subcommands.map { $0.configuration })
    }

    /// The help text of one subcommand (OVERVIEW, USAGE, ARGUMENTS, OPTIONS).
    public static func help(for command: any Subcommand.Type, programName: String = programName) -> String {
        HelpFormatter.help(for: command.configuration, programName: programName)
    }

    private static func run(_ command: any Subcommand.Type, _ arguments: [String], in context: CommandContext) -> ExitCode {
        let configuration = command.configuration
        do {
            switch try ArgumentParser.parse(arguments, from: 1, for: configuration) {
            case .help:
                context.output.write(HelpFormatter.help(for: configuration, programName: context.programName))
                return .success
            case .parsed(let parsed):
                let instance = try command.init(parsed)
                try instance.validate()
                return try instance.run(context)
            }
        } catch var error as UsageError {
            error.commandLine = arguments
            error.usage = HelpFormatter.usage(for: configuration, programName: context.programName)
            error.helpHint = "See '\(context.programName) help \(configuration.name)' for more."
            context.errorOutput.write(error.rendered(programName: context.programName))
            return .usage
        } catch let failure as CommandFailure {
            context.printError("error: \(failure.message)")
            return failure.exitCode
        } catch {
            context.printError("error: \(ErrorText.describe(error))")
            return .failure
        }
    }
}

/// What an in-process run printed and how it ended.
public struct CommandResult: Sendable {
    /// The exit code.
    public var exitCode: ExitCode
    /// Everything written to standard output.
    public var outputBytes: [UInt8]
    /// Everything written to standard error.
    public var errorBytes: [UInt8]

    /// Standard output as text.
    public var standardOutput: String { String(decoding: outputBytes, as: UTF8.self) }
    /// Standard error as text.
    public var standardError: String { String(decoding: errorBytes, as: UTF8.self) }
}
