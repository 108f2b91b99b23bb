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

            With --offset N each file is looked at from byte N on (an archive inside a larger \
            file, as 'carve' lists them): a typedstream up to the end of its last complete \
            top-level group, a binary property list up to the trailer that points back at it, \
            anything else to the end of the file.

            Exit status 0 when every file could be read (whatever its format), 1 otherwise.
            """,
        arguments: [.init("FILE", help: "A file to look at; '-' reads standard input.", arity: .oneOrMore)],
        options: [.init("offset", valueName: "n", help: "Look at each file from byte offset n (decimal or 0x hex).", defaultDescription: "0")])

    /// The files to look at.
    let files: [ParsedArguments.Value<String>]
    /// Where to start looking.
    let offset: ParsedArguments.Value<String>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.values("FILE")
        offset = arguments.option("offset")
    }

    func validate() throws(UsageError) {
        _ = try InspectCommand.number(offset, name: "offset")
        for file in files where FileWalker.isDirectory(file.value) {
            throw UsageError("'\(file.value)' is a folder; 'detect' takes files", at: file.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        var code = ExitCode.success
        let start = try InspectCommand.number(offset, name: "offset") ?? 0
        for file in files {
            let name = CommandContext.displayName(file.value)
            if start > 0 {
                do {
                    let source = try CarveSource(path: file.value, context: context)
                    guard start < source.size else {
                        context.printError("error: \(name): offset \(start) is past the end of the file (\(source.size) bytes)")
                        code = .failure
                        continue
                    }
                    let bytes = try EmbeddedArchive.bytes(in: source, at: start)
                        ?? source.read(at: start, count: min(source.size - start, context.inputLimit))
                    context.print("\(name) at offset \(start): \(FormatDetector.detect(bytes).line)")
                } catch {
                    context.printError("error: \(error)")
                    code = .failure
                }
                continue
            }
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
