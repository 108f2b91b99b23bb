import TypedStream
import TypedStreamExport

/// `typedstream decode FILE`: the object tree — classes, versions, values, references as `#n`.
struct DecodeCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "decode",
        abstract: "Print the object tree of a typedstream: classes, versions, values, references.",
        discussion: """
            One object per line, indented by nesting, with its class chain and versions; each \
            group's type string is shown before its value. A later mention of an object prints \
            as '→ #n Class' (n is its object-table number, as in 'tokens' and 'inspect').
            """,
        arguments: [.init("FILE", help: "The archive to decode; '-' reads standard input.")],
        options: [])

    /// The file to decode.
    let file: ParsedArguments.Value<String>

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let file = arguments.value("FILE") else { throw UsageError("missing argument <FILE>", position: .end) }
        self.file = file
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let bytes = try context.readFile(file.value)
        let archive: Archive
        do { archive = try ArchiveReader.read(bytes) } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        for line in ArchiveTree.render(archive) { context.print(line) }
        return .success
    }
}
