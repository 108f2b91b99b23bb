import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// Every write is checked: a full disk, a closed descriptor or a file-size limit end the program
/// with status 1 and one line on standard error; a pipe whose reader went away ends it quietly,
/// by SIGPIPE, as `… | head` expects.
@Suite struct OutputFailureTests {
    /// The `typedstream` next to this test binary (SwiftPM builds every product before tests).
    static var toolPath: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("typedstream").path
    }

    /// An archive of `count` strings, written to a temporary file.
    static func stringsArchive(_ count: Int, in folder: TemporaryFolder) throws -> String {
        let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject(strings: (0..<count).map { "string number \($0)" }))
        return try folder.write("strings.typedstream", bytes)
    }

    /// Runs the tool with `arguments`, standard output on `output`; returns how it ended and
    /// what it wrote on standard error.
    static func runTool(_ arguments: [String], output: Any) throws -> (reason: Process.TerminationReason, status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: toolPath)
        process.arguments = arguments
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: - In-process

    @Test func aFailedWriteEndsWithOneLineAndStatusOne() {
        let output = CapturedOutput(failingAfter: 100)
        let errors = CapturedOutput()
        let context = CommandContext(standardInput: Samples.arrayWithBool, output: output, errorOutput: errors)
        let code = TypedStreamCommand.run(["tokens", "-"], in: context)
        #expect(code == .failure)
        #expect(errors.text == "typedstream: cannot write captured output: No space left on device\n")
        #expect(output.bytes.count == 100)
    }

    @Test func aBrokenPipeEndsQuietly() {
        let output = CapturedOutput(failingAfter: 0, code: EPIPE)
        let errors = CapturedOutput()
        let context = CommandContext(standardInput: Samples.arrayWithBool, output: output, errorOutput: errors)
        #expect(TypedStreamCommand.run(["decode", "--json", "-"], in: context) == .brokenPipe)
        #expect(errors.bytes.isEmpty)
    }

    @Test func theWriterKeepsTheFirstErrorAndDropsTheRest() {
        let capture = CapturedOutput(failingAfter: 10)
        var out = OutputWriter(sink: capture, capacity: 256)
        for _ in 0..<100 { out.append("0123456789") }
        out.flush()
        #expect(out.error?.code == ENOSPC)
        #expect(out.bytesAppended == 1000)
        #expect(capture.bytes == Array("0123456789".utf8))
    }

    // MARK: - The real program

    @Test func aFullDiskGivesStatusOneAndOneLine() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.toolPath), "typedstream not built at \(Self.toolPath)")
        let folder = try TemporaryFolder()
        let input = try Self.stringsArchive(2000, in: folder)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for command in [["decode"], ["decode", "--json"], ["decode", "--plain"], ["tokens"], ["inspect"]] {
            let result = try Self.runTool(command + [input], output: full)
            #expect(result.reason == .exit && result.status == 1, "\(command)")
            #expect(result.errors == "typedstream: cannot write standard output: No space left on device\n", "\(command)")
        }
    }

    @Test func aClosedStandardOutputGivesStatusOne() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.toolPath), "typedstream not built at \(Self.toolPath)")
        let folder = try TemporaryFolder()
        let input = try Self.stringsArchive(10, in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" decode \"$1\" >&-", Self.toolPath, input]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(text == "typedstream: cannot write standard output: Bad file descriptor\n")
    }

    @Test func aPipeWhoseReaderWentAwayEndsBySIGPIPE() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.toolPath), "typedstream not built at \(Self.toolPath)")
        let folder = try TemporaryFolder()
        let input = try Self.stringsArchive(2000, in: folder)
        for command in [["tokens"], ["decode", "--plain"]] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()  // no reader at all
            let result = try Self.runTool(command + [input], output: pipe)
            #expect(result.reason == .uncaughtSignal && result.status == SIGPIPE, "\(command): \(result)")
            #expect(result.errors.isEmpty, "\(command)")
        }
    }

    @Test func aFileSizeLimitGivesStatusOne() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.toolPath), "typedstream not built at \(Self.toolPath)")
        let folder = try TemporaryFolder()
        let input = try Self.stringsArchive(2000, in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 8 && exec \"$0\" decode \"$1\" > \"$2\"", Self.toolPath, input, folder.path + "/out.txt"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(text == "typedstream: cannot write standard output: File too large\n")
        let written = (try? FileManager.default.attributesOfItem(atPath: folder.path + "/out.txt")[.size] as? Int) ?? 0
        #expect(written <= 8 * 1024)
    }
}
