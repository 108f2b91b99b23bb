import Foundation
import TypedStream
import TypedStreamExport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a subcommand may touch outside itself: standard input, standard output (for
/// people), standard error (for diagnostics and the progress bar), whether standard error is a
/// terminal, and how many cores to use. Tests make one over byte buffers, so subcommands run
/// in-process:
///
/// ```swift
/// let output = CapturedOutput(), errors = CapturedOutput()
/// let context = CommandContext(standardInput: bytes, output: output, errorOutput: errors)
/// let code = TypedStreamCommand.run(["tokens", "-"], in: context)
/// ```
public final class CommandContext: @unchecked Sendable {
    /// The program name used in usage lines and help (`typedstream`).
    public let programName: String
    /// Standard output: results for people (buffered; every write checked).
    public let output: ProgramOutput
    /// Standard error: diagnostics and progress (written through).
    public let errorOutput: ProgramOutput
    /// Whether standard error is a terminal (progress bars are drawn only then).
    public let errorIsTerminal: Bool
    /// How many files to work on at once by default.
    public let processorCount: Int
    /// Whether standard output is a terminal (colour is used only then, unless asked).
    public let outputIsTerminal: Bool
    /// The process environment (for `NO_COLOR`, `TERM`).
    public let environment: [String: String]

    /// The most bytes read from one input (default 2 GiB, the decoder's limit): a larger
    /// regular file is refused by its size before reading, a pipe or device once it has given
    /// that many bytes and one more.
    public let inputLimit: Int

    private let input: StandardInput
    /// Where standard input comes from, when it is a file (to refuse writing over it).
    let standardInputIdentity: FileIdentity?

    /// Creates a context over given input bytes and sinks (for tests and embedding); inputs
    /// larger than `inputLimit` bytes are refused.
    public convenience init(programName: String = TypedStreamCommand.programName, standardInput: [UInt8] = [],
                            output: any OutputSink, errorOutput: any OutputSink,
                            errorIsTerminal: Bool = false, processorCount: Int = 2,
                            outputIsTerminal: Bool = false, environment: [String: String] = [:],
                            inputLimit: Int = DecodingLimits().maximumInputSize) {
        self.init(programName: programName, input: StandardInput(bytes: standardInput), standardInputIdentity: nil,
                  output: output, errorOutput: errorOutput, errorIsTerminal: errorIsTerminal, processorCount: processorCount,
                  outputIsTerminal: outputIsTerminal, environment: environment, inputLimit: inputLimit)
    }

    private init(programName: String, input: StandardInput, standardInputIdentity: FileIdentity?,
                 output: any OutputSink, errorOutput: any OutputSink, errorIsTerminal: Bool, processorCount: Int,
                 outputIsTerminal: Bool, environment: [String: String], inputLimit: Int) {
        self.outputIsTerminal = outputIsTerminal
        self.environment = environment
        self.programName = programName
        self.input = input
        self.standardInputIdentity = standardInputIdentity
        self.output = ProgramOutput(sink: output)
        self.errorOutput = ProgramOutput(sink: errorOutput, writesThrough: true)
        self.errorIsTerminal = errorIsTerminal
        self.processorCount = max(1, processorCount)
        self.inputLimit = max(0, inputLimit)
    }

    /// The real process: file descriptors 0, 1 and 2 and all active cores.
    public static func process() -> CommandContext {
        CommandContext(programName: TypedStreamCommand.programName,
                       input: StandardInput(descriptor: 0), standardInputIdentity: FileIdentity(regularFileOn: 0),
                       output: FileDescriptorOutput.standardOutput, errorOutput: FileDescriptorOutput.standardError,
                       errorIsTerminal: FileDescriptorOutput.standardError.isTerminal,
                       processorCount: ProcessInfo.processInfo.activeProcessorCount,
                       outputIsTerminal: FileDescriptorOutput.standardOutput.isTerminal,
                       environment: ProcessInfo.processInfo.environment, inputLimit: FileReading.defaultLimit)
    }

    /// Writes a line to standard output.
    public func print(_ line: String) { output.write(line + "\n") }

    /// Writes a line to standard error.
    public func printError(_ line: String) { errorOutput.write(line + "\n") }

    /// Flushes standard output and turns a failed write into the program's ending: quietly
    /// ``ExitCode/brokenPipe`` when the reader of a pipe went away (`… | head`), otherwise one
    /// line on standard error (`typedstream: cannot write standard output: No space left on
    /// device`) and ``ExitCode/failure``. Returns `code` when every write succeeded.
    public func finishOutput(_ code: ExitCode) -> ExitCode {
        output.flush()
        guard let error = output.error else { return code }
        if error.isBrokenPipe { return .brokenPipe }
        printError("\(programName): \(error)")
        return .failure
    }

    /// All of standard input, read once and kept (so `-` may be named more than once).
    /// Throws ``FileReadError``.
    public func standardInput() throws(FileReadError) -> [UInt8] {
        try input.all(limit: inputLimit)
    }

    /// Appends the next bytes of standard input, at most `maximum`, to `buffer` without keeping
    /// them; returns `true` once it has ended. For commands that read a stream of records
    /// (`text --lines`) rather than one input. Throws ``FileReadError``.
    func readStandardInputChunk(into buffer: inout [UInt8], maximum: Int) throws(FileReadError) -> Bool {
        try input.readChunk(into: &buffer, maximum: maximum)
    }

    /// The bytes of the FILE argument `path`; `-` is standard input. Throws ``FileReadError``
    /// ("cannot read 'x': No such file or directory", "… input larger than 2147483648 bytes").
    public func readFile(_ path: String) throws(FileReadError) -> [UInt8] {
        if path == "-" { return try standardInput() }
        return try FileReading.readFile(atPath: path, limit: inputLimit)
    }

    /// The first `count` bytes of the FILE argument `path` (fewer when it is shorter) and
    /// whether they are all of it, without reading further. Throws ``FileReadError``.
    func readHead(_ path: String, count: Int) throws(FileReadError) -> (bytes: [UInt8], isWhole: Bool) {
        if path == "-" { return try input.head(count) }
        return try FileReading.readHead(atPath: path, count: count)
    }

    /// How a FILE argument is named in output: `<stdin>` for `-`, else the path as given.
    public static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
