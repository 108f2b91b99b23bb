import TypedStream
import TypedStreamExport
import TypedStreamFoundation

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
        options: [],
        flags: [
            .init("stats", help: "Print how many objects decode to typed classes (per class) instead of the tree."),
            .init("json", help: "Print lossless JSON: values and wire decisions; 'typedstream encode' writes the original bytes back."),
            .init("plain", help: "Print plain JSON for scripts: natural values (strings, numbers, arrays, objects), no wire detail."),
            .init("deep", help: "With the tree or --plain: decode typedstreams held as bytes (NSData, [Nc], StreamTable entries) in place, up to 8 levels and 64 MiB of nested archives; a nested archive that cannot be read is shown as its bytes with the reason."),
        ])

    /// The file to decode.
    let file: ParsedArguments.Value<String>
    /// Print statistics instead of the tree.
    let stats: Bool
    /// Print lossless JSON.
    let json: Bool
    /// Print plain JSON.
    let plain: Bool
    /// Decode nested archives in place.
    let deep: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        stats = arguments.flag("stats")
        json = arguments.flag("json")
        plain = arguments.flag("plain")
        deep = arguments.flag("deep")
    }

    func validate() throws(UsageError) {
        if [stats, json, plain].filter({ $0 }).count > 1 {
            throw UsageError("choose one of '--stats', '--json' and '--plain'", position: .end)
        }
        if deep, stats || json {
            throw UsageError("'--deep' goes with the tree or '--plain'; '--json' stays lossless and '--stats' counts the file's own objects", position: .end)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let bytes = try context.readFile(file.value)
        if stats { return printStatistics(bytes, context) }
        // The whole archive is checked first, so a damaged file prints nothing but the error.
        let index: ArchiveIndex
        do { index = try ArchiveIndex(bytes: bytes) } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        do {
            try context.output.withWriter { (out: inout OutputWriter) throws(ArchiveJSONError) in
                if json {
                    try ArchiveJSON.write(index, to: &out)
                } else if plain {
                    var options = ToolRecordForms.plainJSONOptions
                    options.documentMembers = FoundationPlainJSON.documentMembers(index)
                    if deep { options.nestedArchives = NestedArchives() }
                    try PlainJSON.write(index, options: options, to: &out)
                } else {
                    var options = ArchiveTree.Options()
                    if deep { options.nestedArchives = NestedArchives() }
                    ArchiveTree.write(index, options: options, to: &out)
                }
            }
        } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): \(error)")
            return .failure
        }
        return .success
    }

    /// `objects: 12, typed: 10 (83.3 %), generic: 2` then one line per class.
    private func printStatistics(_ bytes: [UInt8], _ context: CommandContext) -> ExitCode {
        let statistics: ArchiveStatistics
        do {
            let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
            statistics = try ArchiveStatistics.compute(decoding: decoder)
            // The process ends once the counts are printed: the decoded objects are left to it
            // rather than freed one by one (about a seventh of the run on a large archive).
            _ = Unmanaged.passRetained(decoder)
        } catch {
            context.printError("error: \(CommandContext.displayName(file.value)): \(error.description)")
            return .failure
        }
        let share = (statistics.typedShare * 1000).rounded() / 10
        context.print("objects: \(statistics.objects), typed: \(statistics.typed) (\(share) %), generic: \(statistics.generic)")
        for name in statistics.perClass.keys.sorted() {
            guard let count = statistics.perClass[name] else { continue }
            context.print("  \(name): \(count.typed) typed, \(count.generic) generic")
        }
        for warning in statistics.warnings { context.print("warning: \(warning)") }
        return .success
    }
}
