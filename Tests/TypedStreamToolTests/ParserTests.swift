import Testing
@testable import TypedStreamTool

/// A made-up subcommand that prints what it was given, to drive the parser through the same
/// path as real subcommands.
struct ProbeCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "probe", abstract: "Print the parsed arguments.",
        arguments: [.init("IN", help: "Input."), .init("OUT", help: "Output.", arity: .optional)],
        options: [.init("scale", short: "s", valueName: "x", help: "A number."),
                  .init("tag", short: "t", valueName: "name", help: "A tag.", repeatable: true)],
        flags: [.init("all", short: "a", help: "A."), .init("brief", short: "b", help: "B."),
                .init("fail", help: "Throw a data failure."), .init("late-usage", help: "Throw a usage error from run.")])

    let arguments: ParsedArguments
    let scale: ParsedArguments.Value<Double>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        scale = try arguments.option("scale", as: Double.self)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if arguments.flag("fail") { throw CommandFailure("boom", exitCode: .failure) }
        if arguments.flag("late-usage"), let input = arguments.value("IN") {
            throw UsageError("'\(input.value)' is not acceptable", at: input.index)
        }
        let input = arguments.value("IN").map { "\($0.value)@\($0.index)" } ?? "-"
        let output = arguments.value("OUT").map { "\($0.value)@\($0.index)" } ?? "nil"
        let tags = arguments.options("tag").map { "\($0.value)@\($0.index)" }.joined(separator: ",")
        context.print("in=\(input) out=\(output) all=\(arguments.flag("all")) brief=\(arguments.flag("brief")) "
                      + "scale=\(scale.map { "\($0.value)" } ?? "nil") tags=[\(tags)]")
        return .success
    }
}

func probe(_ arguments: [String]) -> CommandResult {
    let output = CapturedOutput(), errors = CapturedOutput()
    let context = CommandContext(output: output, errorOutput: errors)
    let code = TypedStreamCommand.run(["probe"] + arguments, in: context, subcommands: [ProbeCommand.self])
    return CommandResult(exitCode: code, outputBytes: output.bytes, errorBytes: errors.bytes)
}

@Suite("Argument parser")
struct ParserTests {
    @Test("accepted spellings", arguments: [
        (["in"], "in=in@1 out=nil all=false brief=false scale=nil tags=[]"),
        (["in", "out"], "in=in@1 out=out@2 all=false brief=false scale=nil tags=[]"),
        (["-ab", "in"], "in=in@2 out=nil all=true brief=true scale=nil tags=[]"),
        (["in", "--brief", "-a"], "in=in@1 out=nil all=true brief=true scale=nil tags=[]"),
        (["--scale", "1.5", "in"], "in=in@3 out=nil all=false brief=false scale=1.5 tags=[]"),
        (["--scale=-2", "in"], "in=in@2 out=nil all=false brief=false scale=-2.0 tags=[]"),
        (["-s", "-2", "in"], "in=in@3 out=nil all=false brief=false scale=-2.0 tags=[]"),
        (["-as3", "in"], "in=in@2 out=nil all=true brief=false scale=3.0 tags=[]"),
        (["--tag=x", "--tag", "y", "-tz", "-t", "w", "in"], "in=in@7 out=nil all=false brief=false scale=nil tags=[x@1,y@3,z@4,w@6]"),
        (["--", "-a", "--b"], "in=-a@2 out=--b@3 all=false brief=false scale=nil tags=[]"),
        (["-", "-"], "in=-@1 out=-@2 all=false brief=false scale=nil tags=[]"),
        (["--tag", "--all", "in"], "in=in@3 out=nil all=false brief=false scale=nil tags=[--all@2]"),
    ])
    func accepted(arguments: [String], expected: String) {
        let result = probe(arguments)
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(result.standardOutput == expected + "\n")
    }

    @Test func badNumberNamesTheValue() {
        let result = probe(["in", "--scale", "abc"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.hasPrefix("error: invalid value 'abc' for '--scale': expected a number (argument 4)\n"))
        #expect(markedText(in: result.standardError) == "abc")
        #expect(result.standardError.contains("usage: typedstream probe [--all] [--brief] [--fail] [--late-usage] [--scale <x>] [--tag <name>] ... <IN> [<OUT>]\n"))
        #expect(result.standardError.hasSuffix("See 'typedstream help probe' for more.\n"))
    }

    @Test func failuresFromRunMapToTheirExitCodes() {
        let failure = probe(["in", "--fail"])
        #expect(failure.exitCode == .failure)
        #expect(failure.standardError == "error: boom\n")
        let usage = probe(["in", "--late-usage"])
        #expect(usage.exitCode == .usage)
        #expect(usage.standardError.hasPrefix("error: 'in' is not acceptable (argument 2)\n"))
        #expect(markedText(in: usage.standardError) == "in")
    }

    @Test func tooManyArgumentsNamesTheFirstExtra() {
        let result = probe(["a", "b", "c", "d"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.hasPrefix("error: unexpected argument 'c' (argument 4)\n"))
    }

    @Test func shellQuotingOfEchoedArguments() {
        #expect(UsageError.shellQuoted("plain-name_1.ts") == "plain-name_1.ts")
        #expect(UsageError.shellQuoted("") == "''")
        #expect(UsageError.shellQuoted("a b") == "'a b'")
        #expect(UsageError.shellQuoted("it's") == "'it'\\''s'")
        let (line, caret) = UsageError.echo(programName: "typedstream", arguments: ["verify", "a b", "x"], position: .argument(1))
        #expect(line == "typedstream verify 'a b' x")
        #expect(caret == "                   ^^^^^")
    }

    @Test func suggestions() {
        #expect(ArgumentParser.editDistance("kitten", "sitting") == 3)
        #expect(ArgumentParser.editDistance("", "abc") == 3)
        #expect(ArgumentParser.closest(to: "--recursiv", among: ["--recursive", "--quiet"]) == "--recursive")
        #expect(ArgumentParser.closest(to: "--rec", among: ["--recursive", "--quiet"]) == "--recursive")
        #expect(ArgumentParser.closest(to: "--zzzzzz", among: ["--recursive", "--quiet"]) == nil)
    }
}
