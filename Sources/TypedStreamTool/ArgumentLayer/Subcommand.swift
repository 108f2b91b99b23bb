/// One subcommand of the `typedstream` program.
///
/// The dispatcher parses the command line with ``configuration``, calls `init(_:)` with the
/// result, then `validate()`, then `run(_:)`. Errors map to exit codes: ``UsageError`` → 64
/// (with the offending argument marked), ``CommandFailure`` → its code, anything else → 1.
///
/// A new subcommand is one file and one line:
///
/// ```swift
/// struct EchoCommand: Subcommand {
///     static let configuration = CommandConfiguration(
///         name: "echo", abstract: "Print the size of each file.",
///         arguments: [.init("FILE", help: "A file; '-' reads standard input.", arity: .oneOrMore)])
///
///     let files: [ParsedArguments.Value<String>]
///     init(_ arguments: ParsedArguments) throws(UsageError) { files = arguments.values("FILE") }
///
///     func run(_ context: CommandContext) throws -> ExitCode {
///         for file in files {
///             let bytes = try context.readFile(file.value)
///             context.print("\(file.value): \(bytes.count) bytes")
///         }
///         return .success
///     }
/// }
/// ```
/// and `EchoCommand.self` added to ``TypedStreamCommand/subcommands``.
public protocol Subcommand {
    /// Name, help texts, arguments, options and flags.
    static var configuration: CommandConfiguration { get }

    /// Takes the values out of the parsed command line. Throws ``UsageError`` when a value does
    /// not convert (use ``ParsedArguments/option(_:as:)``).
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// Checks the values together (ranges, combinations, folders without `--recursive`) before
    /// anything is read. Throws ``UsageError`` naming the argument at fault. Defaults to nothing.
    func validate() throws(UsageError)

    /// Does the work, writing through `context`. Returns the exit code for outcomes that are
    /// not exceptional (e.g. "2 of 5 files differ" → 1); throws ``CommandFailure`` to stop with a
    /// one-line message.
    func run(_ context: CommandContext) throws -> ExitCode
}

extension Subcommand {
    /// Nothing to check.
    public func validate() throws(UsageError) {}
}
