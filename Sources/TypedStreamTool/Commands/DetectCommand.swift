/// `typedstream detect FILE…`: one line per file saying what it is — typedstream (with streamer
/// version, byte order and system version), keyed archive, other binary or XML property list,
/// GNUstep archive, old NeXT binary property list, or unknown — and why.
struct DetectCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "detect",
        abstract: "Say what each file is: typedstream, keyed archive, plist, GNUstep archive …",
        discussion: """
            Prints 'PATH: FORMAT — REASON' for each file. Only the first 4096 bytes are read, except \
            for property lists (use 'verify' to check a whole typedstream); binary property lists are parsed \
            to tell NSKeyedArchiver archives (a top-level \"$archiver\" key) from other plists. \
            The old NeXT binary property list is reported only when its whole structure checks out.

            Exit status 0 when every file could be read (whatever its format), 1 otherwise.
            """,
        arguments: [.init("FILE", help: "A file to look at; '-' reads standard input.", arity: .oneOrMore)])

    /// The files to look at.
    let files: [ParsedArguments.Value<String>]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
    }

    func validate() throws(UsageError) {
        for file in files where FileWalker.isDirectory(file.value) {
            throw UsageError("'\(file.value)' is a folder; 'detect' takes files", at: file.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        var code = ExitCode.success
        for file in files {
            let name = CommandContext.displayName(file.value)
            do {
                // The first bytes, and the rest only when the format needs it (a property list).
                let head = try context.readHead(file.value, count: FormatDetector.headLength)
                let bytes = head.isWhole || !FormatDetector.needsWholeFile(head.bytes) ? head.bytes : try context.readFile(file.value)
                context.print("\(name): \(FormatDetector.detect(bytes).line)")
            } catch {
                context.printError("error: \(error)")
                code = .failure
            }
        }
        return code
    }
}
