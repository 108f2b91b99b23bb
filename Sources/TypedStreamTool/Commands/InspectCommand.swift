import TypedStream
import TypedStreamExport

/// `typedstream inspect FILE`: an annotated hex dump — every byte with what it means.
struct InspectCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Show an annotated hex dump: offset, hex, ASCII and the meaning of every byte.",
        discussion: """
            Each item of the archive is shown with its offset, its bytes in hex and ASCII, and \
            what it means in the format (header, type string, new object #n of class C vN, \
            reference to #n, end of object …), indented by nesting; references are resolved to \
            what they point at. On a damaged file everything up to the damage is shown, then the \
            undecoded bytes and the error with its offset (exit status 1).

            With --offset N where a typedstream header starts (an archive inside a larger \
            file, as 'carve' lists them), that archive is shown on its own: from N to the end \
            of its last complete top-level group, offsets counted from N, --length and \
            --object applying to it. Otherwise --offset only hides what comes before N.
            """,
        arguments: [.init("FILE", help: "The archive to inspect; '-' reads standard input.")],
        options: [
            .init("offset", valueName: "n", help: "Start at byte offset n (decimal or 0x hex); when an archive starts there, show it alone.", defaultDescription: "0"),
            .init("length", valueName: "n", help: "Show only items within n bytes from the start offset."),
            .init("object", valueName: "n", help: "Follow object #n only: from its 'new' to its end of object."),
            .init("color", valueName: "when", help: "Colour: auto (only on a terminal), always or never.", defaultDescription: "auto"),
        ])

    let file: ParsedArguments.Value<String>
    let offset: ParsedArguments.Value<String>?
    let length: ParsedArguments.Value<String>?
    let object: ParsedArguments.Value<String>?
    let color: ParsedArguments.Value<String>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        offset = arguments.option("offset")
        length = arguments.option("length")
        object = arguments.option("object")
        color = arguments.option("color")
    }

    /// Parses a non-negative decimal or `0x` hexadecimal number.
    static func number(_ value: ParsedArguments.Value<String>?, name: String) throws(UsageError) -> Int? {
        guard let value else { return nil }
        let text = value.value
        let parsed = text.hasPrefix("0x") || text.hasPrefix("0X") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        guard let parsed, parsed >= 0 else {
            throw UsageError("invalid value '\(text)' for '--\(name)': expected a number ≥ 0 (decimal or 0x hex)", at: value.index)
        }
        return parsed
    }

    func validate() throws(UsageError) {
        _ = try Self.number(offset, name: "offset")
        _ = try Self.number(length, name: "length")
        _ = try Self.number(object, name: "object")
        if let color, AnnotatedDump.ColorChoice(rawValue: color.value) == nil {
            throw UsageError("invalid value '\(color.value)' for '--color': expected auto, always or never", at: color.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let start = try Self.number(offset, name: "offset") ?? 0
        var options = AnnotatedDump.Options()
        let bytes: [UInt8]
        if start > 0, let embedded = try EmbeddedArchive.bytes(in: CarveSource(path: file.value, context: context), at: start) {
            bytes = embedded
        } else {
            bytes = try context.readFile(file.value)
            options.startOffset = start
        }
        options.length = try Self.number(length, name: "length")
        options.objectIndex = try Self.number(object, name: "object")
        let choice = color.flatMap { AnnotatedDump.ColorChoice(rawValue: $0.value) } ?? .auto
        options.useColor = choice.resolve(outputIsTerminal: context.outputIsTerminal, environment: context.environment)
        let summary = context.output.withWriter { out in AnnotatedDump.write(bytes, options: options, to: &out) }
        if let error = summary.error {
            context.printError("error: \(CommandContext.displayName(file.value)): offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        if options.objectIndex != nil, !summary.objectFound { return .failure }
        return .success
    }
}
