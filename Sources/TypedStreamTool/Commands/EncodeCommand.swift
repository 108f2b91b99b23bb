import TypedStream
import TypedStreamExport

/// `typedstream encode FILE.json`: writes the typedstream that a lossless JSON describes — the
/// original archive byte for byte when the JSON came from `decode --json`.
struct EncodeCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "encode",
        abstract: "Write the typedstream described by lossless JSON (from 'decode --json').",
        discussion: """
            The JSON holds values and wire decisions (never a copy of the input's bytes); the \
            archive is written from them. JSON from 'decode --json' gives back the original \
            archive byte for byte; edited JSON is checked first, and every error names its JSON \
            path. The schema is described in docs/json-schema.md.
            """,
        arguments: [.init("FILE", help: "The JSON file; '-' reads standard input.")],
        options: [.init("output", short: "o", valueName: "file", help: "Write the archive here (atomically) instead of standard output.")])

    let file: ParsedArguments.Value<String>
    let output: ParsedArguments.Value<String>?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        output = arguments.option("output")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if let output { try FileIdentity.refuseWriting(output.value, over: file.value, context: context) }
        let bytes: [UInt8]
        do {
            // The JSON is read piece by piece, never whole: it may be many times the archive.
            let archive = try readJSON(context)
            bytes = try ArchiveWriter.write(archive)
        } catch let error as ArchiveJSONError {
            context.printError("error: \(CommandContext.displayName(file.value)): \(error)")
            return .failure
        } catch let error as WireError {
            context.printError("error: \(CommandContext.displayName(file.value)): the JSON describes an archive that cannot be written: \(error.reason)")
            return .failure
        }
        if let output, output.value != "-" {
            try AtomicFile.write(bytes, to: output.value)
        } else {
            context.output.write(bytes)
        }
        return .success
    }

    /// The archive the JSON FILE describes, read in one pass of pieces of the file.
    private func readJSON(_ context: CommandContext) throws -> Archive {
        if file.value == "-" {
            return try ArchiveJSON.decode { bytes in try context.readStandardInputChunk(into: &bytes, maximum: 1 << 20) }
        }
        return try FileReading.withChunks(atPath: file.value) { read in try ArchiveJSON.decode(reading: read) }
    }
}
