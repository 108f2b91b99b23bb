import TypedStreamExport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `typedstream carve FILE -o DIR`: finds the archives inside any file (a database, a disk
/// image, a memory dump, a property list with base64 values) and writes each to a file of its
/// own, with a table of what was found (``Carver``).
struct CarveCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "carve",
        abstract: "Find the archives inside any file (database, disk image, memory dump) and save each.",
        discussion: """
            Looks through FILE for typedstreams (streamer 3 and 4, either byte order), \
            NSKeyedArchiver archives (a bplist00 whose top dictionary has \"$archiver\"), and \
            either of them written as base64 text (a run of base64 that starts with an encoded \
            header; white space inside it is skipped). The old NeXT binary property list has no \
            signature and is not looked for.

            A typedstream has no length: it is taken to end where its last complete top-level \
            group ends, as far as the checked reader gets (trailing groups that bring nothing \
            new, only references and nils, and groups of only 00 or only FF bytes, free space, \
            are left out); bytes after it that happen to read as one more group with a value in \
            it are included. A binary property list ends at the trailer that points \
            back at it. Each whole archive is written atomically to DIR/OFFSET-LENGTH.EXT \
            (offset in 12 digits; .typedstream or .plist; base64 is decoded, its OFFSET and \
            LENGTH are those of the text), and the scan goes on after it: an archive inside \
            another is part of it. A signature with no whole archive after it is reported as \
            damaged, with how far it could be read and why.

            When FILE is a SQLite database (it starts "SQLite format 3"), a blob too large for \
            its page is stored in pieces: the first in its cell, the rest in a chain of overflow \
            pages. Such a cell's payload is put back together (in the file's order of pages, \
            loops and broken chains detected) and an archive in it is carved whole: its OFFSET is \
            where its first byte is in the file, its LENGTH counts the payload's bytes (more \
            than it takes in one place), and the reason says so.

            DIR/carved.tsv lists every candidate: offset, length, kind (typedstream, \
            keyed-archive, typedstream-base64, keyed-archive-base64), status (ok or damaged), \
            reason. Files from an earlier carve into DIR are left as they are.

            FILE is read a piece at a time (8 MiB) and each candidate reads at most --max-size \
            bytes, so memory stays small and the time linear whatever the file holds (candidates \
            that turn out damaged read, together, at most twice the file's size plus --max-size; \
            after that 4 KiB each). FILE must be a regular file or a disk device ('-' reads \
            standard input whole). The archives are flushed to disk together at the end, then \
            carved.tsv. Look at one archive in place with 'inspect --offset N FILE' or \
            'detect --offset N FILE'.

            Exit status 0 when the whole file was scanned (whatever was found), 1 when it could \
            not be read or an output could not be written.
            """,
        arguments: [.init("FILE", help: "The file to search; '-' reads standard input.")],
        options: [
            .init("output", short: "o", valueName: "dir", help: "Write the archives and carved.tsv into this folder (created if missing)."),
            .init("max-size", valueName: "n", help: "The largest archive looked for, in bytes (decimal, 0x hex, or with K, M or G).",
                  defaultDescription: "64M"),
        ],
        flags: [.init("quiet", short: "q", help: "Print only the summary, not a line per archive.")])

    let file: ParsedArguments.Value<String>
    let output: ParsedArguments.Value<String>?
    let maximumSize: ParsedArguments.Value<String>?
    let quiet: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = try arguments.requiredValue("FILE")
        output = arguments.option("output")
        maximumSize = arguments.option("max-size")
        quiet = arguments.flag("quiet")
    }

    /// Parses a size: decimal, `0x` hexadecimal, or with a `K`, `M` or `G` (binary) suffix; at
    /// least 64 bytes.
    static func size(_ value: ParsedArguments.Value<String>?) throws(UsageError) -> Int? {
        guard let value else { return nil }
        var text = Substring(value.value)
        var scale = 1
        if let last = text.last, let power = ["K": 10, "M": 20, "G": 30][last.uppercased()] {
            scale = 1 << power
            text = text.dropLast()
        }
        let number = text.hasPrefix("0x") || text.hasPrefix("0X") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        guard let number, number > 0, number <= Int(UInt32.max) / scale, number * scale >= 64 else {
            throw UsageError("invalid value '\(value.value)' for '--max-size': expected a size from 64 bytes to 4G (e.g. 1048576, 0x100000, 64M)", at: value.index)
        }
        return number * scale
    }

    func validate() throws(UsageError) {
        guard let output else { throw UsageError("missing option '-o DIR' (the folder the archives are written to)", position: .end) }
        if output.value == "-" { throw UsageError("'-o' takes a folder; carved archives cannot go to standard output", at: output.index) }
        if FileWalker.isDirectory(file.value) { throw UsageError("'\(file.value)' is a folder; 'carve' takes one file", at: file.index) }
        _ = try Self.size(maximumSize)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        guard let output else { return .usage }
        let folder = output.value
        let source = try CarveSource(path: file.value, context: context)
        do {
            try AtomicFile.createFolders(folder)
        } catch {
            throw CommandFailure("cannot create folder '\(error.path)': \(error.reason) (the output folder given with -o)")
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let table = base + "carved.tsv"
        try FileIdentity.refuseWriting(table, over: file.value, context: context)
        var carver = Carver(source: source)
        if let size = try Self.size(maximumSize) { carver.maximumSize = size }
        var totals = Carver.Totals()
        try AtomicFile.write(to: table) { out in
            out.append(CarvedItem.tableHeader)
            totals = try carver.run { item in
                var written = ""
                if let name = item.fileName, let archive = item.archive {
                    try FileIdentity.refuseWriting(base + name, over: file.value, context: context)
                    try AtomicFile.write(archive, to: base + name, flushing: false)
                    written = base + name
                }
                out.append(item.tableLine)
                if !quiet { context.print(Self.line(for: item, writtenTo: written)) }
            }
            // The archives, each renamed into place whole, reach the disk together (a flush per
            // file would cost more than the carving), before the table that lists them does.
            if totals.ok > 0 { sync() }
        }
        let name = CommandContext.displayName(file.value)
        let damaged = totals.damaged == 0 ? "" : "; \(totals.damaged) damaged candidate\(totals.damaged == 1 ? "" : "s")"
        context.print("\(name): \(totals.ok) archive\(totals.ok == 1 ? "" : "s") carved (\(totals.carvedBytes) of \(source.size) bytes)\(damaged); list in \(table)")
        return .success
    }

    /// "offset 4660 (0x1234): typedstream, 5678 bytes → out/000000004660-5678.typedstream" or
    /// "offset 4660 (0x1234): typedstream damaged: reason".
    private static func line(for item: CarvedItem, writtenTo path: String) -> String {
        let head = "offset \(item.offset) (\(TextFormatting.hexOffset(item.offset))): \(item.kind.rawValue)"
        if item.status == .ok { return "\(head), \(item.length) bytes → \(path)" }
        return "\(head) damaged: \(item.reason)"
    }
}
