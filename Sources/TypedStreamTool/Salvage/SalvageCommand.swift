import TypedStream
import TypedStreamExport

/// `typedstream salvage FILE -o OUT`: writes a well-formed archive of what a damaged one still
/// holds (``ArchiveReader/salvage(_:limits:)``) and reports what was lost.
struct SalvageCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "salvage",
        abstract: "Recover what a damaged archive still holds into a well-formed one, and report what was lost.",
        discussion: """
            FILE is read by the checked reader up to the damage (a truncated download, an \
            overwritten tail, flipped bytes: the first byte the reader refuses). What it read \
            whole is written as a new archive: every top-level group read to its end, as it was \
            (the output starts with the same bytes), then every object of the damaged group whose \
            end-of-object marker came before the damage — with everything it refers to that is \
            whole — each as an added top-level "@" group, in the order the objects began, \
            leaving out those an earlier one already holds. Objects begun but not ended before \
            the damage (the damaged object and those around it) are lost; a reference to one \
            from a kept object (a child's back-reference to its parent) is written as nil and \
            reported. The archive written is checked (it re-encodes to itself, as 'verify' \
            checks) before it is written. Flipped bytes the reader accepts cannot be told from \
            data: the damage is where the reader first refuses a byte, which may be later. An \
            array or a length that claims more bytes than remain is refused where it starts, \
            and whole objects inside it are lost with it. A file cut exactly between top-level \
            groups is a whole archive (a typedstream has no end marker).

            The report goes to standard error: where the damage is and the reader's reason, \
            the bytes from there on, top-level groups and objects kept, recovered and lost, and \
            each reference cut. --report json prints it instead as one JSON object, on standard \
            output or into --report-file: file, damaged, inputLength, damage {offset, code, \
            reason} (null when undamaged), bytesFromDamage, keptLength (where the kept groups end \
            in FILE), damagedGroupOffset, groups {kept, lost, added}, objects {kept, recovered, \
            lost}, cutReferences [{from, fromClass, to, toClass}] (object-table numbers in \
            FILE), outputLength, prefixIdentical. Lost counts what was begun before the damage; \
            nothing is known of what came after it.

            --plain prints the plain JSON of what was kept (as 'decode --plain', object numbers \
            those of the archive written) with a last element in "values", \
            {"$salvage": {offset, reason, keptGroups, addedGroups, lostObjects, cutReferences}}, \
            where decoding stopped; the archive itself is written only with -o.

            Exit status 0 when FILE is undamaged (the output is FILE's bytes unchanged), 1 when \
            something was lost but an archive was written, 1 with an error when nothing could be \
            kept (no valid header, or nothing whole after it) — then nothing is written.
            """,
        arguments: [.init("FILE", help: "The damaged archive; '-' reads standard input.")],
        options: [
            .init("output", short: "o", valueName: "file", help: "Write the salvaged archive here (atomically); '-' is standard output.",
                  defaultDescription: "standard output, unless --plain"),
            .init("report", valueName: "format", help: "The report's form: 'text' on standard error, or 'json' on standard output.",
                  defaultDescription: "text"),
            .init("report-file", valueName: "file", help: "Write the report into this file instead."),
        ],
        flags: [.init("plain", help: "Print the plain JSON of what was kept, with a last {\"$salvage\": …} element where decoding stopped.")])

    /// The forms of the report.
    enum ReportFormat: String {
        case text, json
    }

    let file: ParsedArguments.Value<String>
    let output: ParsedArguments.Value<String>?
    let report: ParsedArguments.Value<String>?
    let reportFile: ParsedArguments.Value<String>?
    let plain: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        output = arguments.option("output")
        report = arguments.option("report")
        reportFile = arguments.option("report-file")
        plain = arguments.flag("plain")
    }

    /// The report's form.
    var format: ReportFormat { report.flatMap { ReportFormat(rawValue: $0.value) } ?? .text }

    /// Whether the report goes to standard output.
    var reportToStandardOutput: Bool { reportFile.map { $0.value == "-" } ?? (format == .json) }

    /// Whether the archive goes to standard output.
    var archiveToStandardOutput: Bool { output.map { $0.value == "-" } ?? !plain }

    func validate() throws(UsageError) {
        if let report, ReportFormat(rawValue: report.value) == nil {
            throw UsageError("invalid value '\(report.value)' for '--report': expected text or json", at: report.index)
        }
        if reportToStandardOutput, archiveToStandardOutput || plain {
            let what = plain ? "the plain JSON" : "the archive"
            let fix = plain ? "--report-file FILE" : "-o FILE or --report-file FILE"
            if let reportFile, reportFile.value == "-" {
                throw UsageError("'--report-file -' prints on standard output, where \(what) goes; give \(fix)", at: reportFile.index)
            }
            throw UsageError("--report json prints on standard output, where \(what) goes; give \(fix)", at: report?.index ?? 0)
        }
        if plain, let output, output.value == "-" {
            throw UsageError("--plain prints on standard output, where '-o -' puts the archive; give -o FILE", at: output.index)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        for path in [output, reportFile].compactMap({ $0 }) { try FileIdentity.refuseWriting(path.value, over: file.value, context: context) }
        let name = CommandContext.displayName(file.value)
        let bytes = try context.readFile(file.value)
        let salvage: ArchiveSalvage
        do { salvage = try ArchiveReader.salvage(bytes) } catch {
            context.printError("error: \(name): nothing could be salvaged: no valid header: offset \(TextFormatting.hexOffset(error.offset)) (\(error.offset)): \(error.reason)")
            return .failure
        }
        if let damage = salvage.damage, salvage.keptGroupCount == 0, salvage.addedGroupCount == 0 {
            context.printError("error: \(name): nothing could be salvaged: no top-level group or object is whole before the damage at offset \(TextFormatting.hexOffset(damage.offset)) (\(damage.offset)): \(damage.reason)")
            return .failure
        }
        let written: [UInt8]
        if salvage.isUndamaged {
            written = bytes
        } else {
            do {
                written = try ArchiveWriter.write(salvage.archive, policy: .recorded, capacity: salvage.keptLength)
                guard try roundTrip(written) == written else {
                    throw WireError(.invalidToken, at: 0, "the archive written does not re-encode to itself")
                }
            } catch {
                context.printError("error: \(name): what survived could not be written as a well-formed archive: \(ErrorText.describe(error))")
                return .failure
            }
        }
        let identical = written.count >= salvage.keptLength && written[..<salvage.keptLength].elementsEqual(bytes[..<salvage.keptLength])
        let summary = SalvageReport(file: name, salvage: salvage, outputLength: written.count, prefixIdentical: identical)

        if let output, output.value != "-" {
            try AtomicFile.write(written, to: output.value)
        } else if archiveToStandardOutput {
            context.output.write(written)
        }
        if plain {
            var options = ToolRecordForms.plainJSONOptions
            if let marker = summary.plainMarker { options.trailingValues = [marker] }
            do {
                let index = try ArchiveIndex(bytes: written)
                try context.output.withWriter { (out: inout OutputWriter) throws(ArchiveJSONError) in
                    try PlainJSON.write(index, options: options, to: &out)
                }
            } catch {
                context.printError("error: \(name): \(ErrorText.describe(error))")
                return .failure
            }
        }
        try writeReport(summary, context)
        return salvage.isUndamaged ? .success : .failure
    }

    /// Writes the report where the options say.
    private func writeReport(_ summary: SalvageReport, _ context: CommandContext) throws {
        let text: [UInt8]
        switch format {
        case .text: text = Array(summary.lines.joined(separator: "\n").utf8) + [0x0A]
        case .json: text = summary.json.text(pretty: true) + [0x0A]
        }
        if let reportFile, reportFile.value != "-" {
            try AtomicFile.write(text, to: reportFile.value)
        } else if reportToStandardOutput {
            context.output.write(text)
        } else {
            context.errorOutput.write(text)
        }
    }
}
