import TypedStream
import TypedStreamExport

/// `typedstream tokens FILE`: one line per token — offset, raw bytes, meaning — indented by
/// nesting depth. On malformed input it prints the tokens read so far, then the error with its
/// offset on standard error, and exits 1.
struct TokensCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "tokens",
        abstract: "List the tokens of a typedstream: offset, raw bytes and meaning.",
        discussion: """
            Each line shows the token's offset in hex, its bytes in hex (cut with … when long) and \
            what it means, indented by nesting depth (objects, arrays and structs). Object-table \
            slots (#n) and shared-string slots (shared #n) are numbered as the format numbers \
            them, so a reference can be matched with the item it names.

            On malformed input the tokens read so far are printed, then the error and its offset \
            on standard error; the exit status is 1.
            """,
        arguments: [.init("FILE", help: "The archive to list; '-' reads standard input.")],
        options: [.init("bytes", valueName: "n", help: "Show at most n raw bytes per token; 0 shows all.", defaultDescription: "8")])

    /// The file to list.
    let file: ParsedArguments.Value<String>
    /// Raw bytes shown per token (0: all).
    let byteLimit: ParsedArguments.Value<Int>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        byteLimit = try arguments.option("bytes", as: Int.self)
    }

    func validate() throws(UsageError) {
        if let byteLimit, byteLimit.value < 0 {
            throw UsageError("invalid value '\(byteLimit.value)' for '--bytes': must be 0 or more", at: byteLimit.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let bytes = try context.readFile(file.value)
        var reader = TokenReader(bytes: bytes)
        // No token is longer than the input, so a limit beyond its size (or the default 8) shows
        // the same bytes; clamping it keeps the hex column, three characters a byte, in
        // proportion to the input (`--bytes 9223372036854775807` would overflow, and pad every
        // line with gigabytes of spaces).
        var describer = TokenDescriber(byteLimit: min(byteLimit?.value ?? 8, max(bytes.count, 8)))
        let failure = context.output.withWriter { (out: inout OutputWriter) -> WireError? in
            do throws(WireError) {
                while let token = try reader.nextCompact() {
                    describer.writeLine(token, reader: reader, to: &out)
                    if out.failed { return nil }
                }
            } catch {
                return error
            }
            return nil
        }
        if let error = failure {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        return .success
    }
}
