import TypedStream

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
        guard let file = arguments.value("FILE") else { throw UsageError("missing argument <FILE>", position: .end) }
        self.file = file
        byteLimit = try arguments.option("bytes", as: Int.self)
    }

    func validate() throws(UsageError) {
        if let byteLimit, byteLimit.value < 0 {
            throw UsageError("invalid value '\(byteLimit.value)' for '--bytes': must be 0 or more", at: byteLimit.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let bytes = try context.readFile(file.value)
        let limit = byteLimit?.value ?? 8
        let hexWidth = limit == 0 ? 0 : limit * 3
        var reader = TokenReader(bytes: bytes)
        var describer = TokenDescriber()
        do {
            while let token = try reader.next() {
                let meaning = describer.describe(token, reader: reader)
                context.print(Self.line(for: token, in: bytes, meaning: meaning, byteLimit: limit, hexWidth: hexWidth))
            }
        } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        return .success
    }

    /// `0000000f  84 01 40                  type string "@" (shared #0, new)`.
    static func line(for token: Token, in bytes: [UInt8], meaning: String, byteLimit: Int, hexWidth: Int) -> String {
        let range = max(0, token.start)..<min(bytes.count, max(token.start, token.end))
        var hex = TextFormatting.hexBytes(bytes[range], limit: byteLimit)
        let shownWidth = hex.count
        if shownWidth < hexWidth { hex += String(repeating: " ", count: hexWidth - shownWidth) }
        let indent = String(repeating: "  ", count: max(0, token.depth))
        return TextFormatting.paddedHex(token.start) + "  " + hex + " " + indent + meaning
    }
}
