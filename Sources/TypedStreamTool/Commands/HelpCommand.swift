/// `typedstream help [SUBCOMMAND]`: the same text as `typedstream SUBCOMMAND --help`, or the
/// program's help without an argument.
struct HelpCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "help",
        abstract: "Show help for a subcommand.",
        arguments: [.init("SUBCOMMAND", help: "The subcommand to explain; without it, list them all.", arity: .optional)])

    /// The subcommand asked about, if any.
    let topic: ParsedArguments.Value<String>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        topic = arguments.value("SUBCOMMAND")
    }

    func validate() throws(UsageError) {
        guard let topic, TypedStreamCommand.subcommand(named: topic.value) == nil else { return }
        let names = TypedStreamCommand.subcommands.map { $0.configuration.name }
        throw UsageError("unknown subcommand '\(topic.value)'" + ArgumentParser.suggestion(for: topic.value, among: names), at: topic.index)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if let topic, let command = TypedStreamCommand.subcommand(named: topic.value) {
            context.output.write(TypedStreamCommand.help(for: command, programName: context.programName))
        } else {
            context.output.write(TypedStreamCommand.rootHelp(programName: context.programName))
        }
        return .success
    }
}
