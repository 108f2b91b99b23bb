import Foundation
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

    private let inputSource: @Sendable () throws(FileReadError) -> [UInt8]
    private var cachedInput: Result<[UInt8], FileReadError>?
    private let lock = NSLock()

    /// Creates a context over given input bytes and sinks (for tests and embedding).
    public convenience init(programName: String = TypedStreamCommand.programName, standardInput: [UInt8] = [],
                            output: any OutputSink, errorOutput: any OutputSink,
                            errorIsTerminal: Bool = false, processorCount: Int = 2,
                            outputIsTerminal: Bool = false, environment: [String: String] = [:]) {
        self.init(programName: programName, inputSource: { standardInput }, output: output, errorOutput: errorOutput,
                  errorIsTerminal: errorIsTerminal, processorCount: processorCount,
                  outputIsTerminal: outputIsTerminal, environment: environment)
    }

    private init(programName: String, inputSource: @escaping @Sendable () throws(FileReadError) -> [UInt8],
                 output: any OutputSink, errorOutput: any OutputSink, errorIsTerminal: Bool, processorCount: Int,
                 outputIsTerminal: Bool, environment: [String: String]) {
        self.outputIsTerminal = outputIsTerminal
        self.environment = environment
        self.programName = programName
        self.inputSource = inputSource
        self.output = ProgramOutput(sink: output)
        self.errorOutput = ProgramOutput(sink: errorOutput, writesThrough: true)
        self.errorIsTerminal = errorIsTerminal
        self.processorCount = max(1, processorCount)
    }

    /// The real process: file descriptors 0, 1 and 2 and all active cores.
    public static func process() -> CommandContext {
        CommandContext(programName: TypedStreamCommand.programName,
                       inputSource: { () throws(FileReadError) -> [UInt8] in try FileReading.readAll(descriptor: 0, path: "-") },
                       output: FileDescriptorOutput.standardOutput, errorOutput: FileDescriptorOutput.standardError,
                       errorIsTerminal: FileDescriptorOutput.standardError.isTerminal,
                       processorCount: ProcessInfo.processInfo.activeProcessorCount,
                       outputIsTerminal: FileDescriptorOutput.standardOutput.isTerminal,
                       environment: ProcessInfo.processInfo.environment)
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
        lock.lock()
        defer { lock.unlock() }
        if cachedInput == nil {
            do throws(FileReadError) { cachedInput = .success(try inputSource()) } catch { cachedInput = .failure(error) }
        }
        switch cachedInput {
        case .success(let bytes): return bytes
        case .failure(let error): throw error
        case nil: return []
        }
    }

    /// The bytes of the FILE argument `path`; `-` is standard input. Throws ``FileReadError``
    /// ("cannot read 'x': No such file or directory").
    public func readFile(_ path: String) throws(FileReadError) -> [UInt8] {
        if path == "-" { return try standardInput() }
        return try FileReading.readFile(atPath: path)
    }

    /// How a FILE argument is named in output: `<stdin>` for `-`, else the path as given.
    public static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}

/// A file that could not be read, with the system's reason.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    /// The path as given (`-` for standard input).
    public var path: String
    /// The reason ("No such file or directory").
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "cannot read 'x': reason".
    public var description: String { "cannot read '\(CommandContext.displayName(path))': \(reason)" }
}

/// Whole-file reads with POSIX calls, so errors carry `strerror` text.
enum FileReading {
    /// Reads the file at `path`. Throws ``FileReadError`` (missing, unreadable, a folder).
    static func readFile(atPath path: String) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: lastErrorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileReadError(path: path, reason: lastErrorText()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileReadError(path: path, reason: "it is a folder") }
        return try readAll(descriptor: descriptor, path: path, sizeHint: Int(info.st_size))
    }

    /// Reads a descriptor to its end. Throws ``FileReadError``.
    static func readAll(descriptor: Int32, path: String, sizeHint: Int = 0) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, sizeHint))
        // Read into uninitialized memory of about the file's size (4–64 KiB; 64 KiB for a pipe,
        // whose size is unknown): a zero-filled 64 KiB buffer per file was most of the cost of
        // reading a small one.
        let chunkSize = sizeHint > 0 ? min(max(sizeHint, 4096), 1 << 16) : 1 << 16
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: lastErrorText())
            }
            if count == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return bytes
    }

    /// `strerror(errno)`.
    static func lastErrorText() -> String { String(cString: strerror(errno)) }
}
