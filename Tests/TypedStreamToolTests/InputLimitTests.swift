import Foundation
import Testing
@testable import TypedStreamTool

/// Every input goes through one bounded reader: a regular file larger than the limit is refused
/// by its size before a byte is read; a pipe or device is read to the limit and one byte more,
/// then refused; `detect` reads only the first bytes unless the format needs the rest.
@Suite struct InputLimitTests {
    /// A context whose inputs may be at most `limit` bytes.
    static func runLimited(_ arguments: [String], limit: Int) -> (code: ExitCode, output: String, errors: String) {
        let output = CapturedOutput(), errors = CapturedOutput()
        let context = CommandContext(output: output, errorOutput: errors, inputLimit: limit)
        let code = TypedStreamCommand.run(arguments, in: context)
        return (code, output.text, errors.text)
    }

    /// A stream that gives `head` and then zeros for as long as it is read (a socket pair, so
    /// the writer sees an error rather than SIGPIPE when the reader closes); returns its read
    /// end and a count of the bytes written so far.
    static func endlessStream(head: [UInt8]) -> (Int32, () -> Int) {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
        let noSignal = Int32(MSG_NOSIGNAL)
        #else
        _ = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends)
        var on: Int32 = 1
        _ = setsockopt(ends[1], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        let noSignal: Int32 = 0
        #endif
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let written = ManagedCounter()
        let writer = Thread {
            var chunk = head + [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeBytes { send(writeEnd, $0.baseAddress, $0.count, noSignal) }
                if count <= 0 { break }
                written.add(count)
                chunk = [UInt8](repeating: 0, count: 4096)
            }
            close(writeEnd)
        }
        writer.start()
        return (readEnd, { written.value })
    }

    final class ManagedCounter: @unchecked Sendable {
        private var count = 0
        private let lock = NSLock()
        func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }

    @Test func aSparseFileOverTheLimitIsRefusedBeforeReading() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("sparse.typedstream", [])
        #expect(truncate(path, 3 << 30) == 0)  // 3 GiB of holes: cheap to make
        let started = ContinuousClock.now
        #expect(throws: FileReadError(path: path, reason: "input larger than 2147483648 bytes")) {
            try FileReading.readFile(atPath: path)
        }
        #expect(ContinuousClock.now - started < .seconds(1))  // reading it would take far longer
        let result = TypedStreamCommand.run(["decode", path])
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "error: cannot read '\(path)': input larger than 2147483648 bytes\n")
    }

    @Test func aFileAtTheLimitIsReadAndOneByteMoreIsNot() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("a.typedstream", Samples.arrayWithBool)
        #expect(try FileReading.readFile(atPath: path, limit: Samples.arrayWithBool.count) == Samples.arrayWithBool)
        #expect(throws: FileReadError.tooLarge(path, limit: 92)) { try FileReading.readFile(atPath: path, limit: 92) }
        let decoded = Self.runLimited(["decode", path], limit: 92)
        #expect(decoded.code == .failure)
        #expect(decoded.errors == "error: cannot read '\(path)': input larger than 92 bytes\n")
    }

    @Test func anEndlessDeviceIsReadOnlyToTheLimit() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/zero"), "skipped: no /dev/zero")
        for command in [["decode"], ["tokens"], ["inspect"], ["convert", "--to", "json"], ["verify"]] {
            let result = Self.runLimited(command + ["/dev/zero"], limit: 1 << 20)
            #expect(result.code == .failure, "\(command)")
            // `verify` reports in its summary, the others on standard error.
            let text = result.output + result.errors
            #expect(text.contains("cannot read") && text.contains("input larger than 1048576 bytes"), "\(command): \(text)")
        }
    }

    /// `detect` needs the first bytes of an unknown file, so `/dev/zero` is answered at once.
    @Test func detectReadsOnlyTheHead() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/zero"), "skipped: no /dev/zero")
        let result = Self.runLimited(["detect", "/dev/zero"], limit: 1 << 20)
        #expect(result.code == .success)
        #expect(result.output == "/dev/zero: unknown — no known signature; first bytes 00 00 00 00 00 00 00 00\n")
    }

    /// Standard input on a stream: the head takes one byte more than asked; the whole stops at
    /// the limit and one byte more.
    @Test func standardInputIsReadOnlyAsFarAsAsked() throws {
        let (readEnd, written) = Self.endlessStream(head: Array("bplist00".utf8))
        defer { close(readEnd) }
        let input = StandardInput(descriptor: readEnd)
        let head = try input.head(FormatDetector.headLength)
        #expect(head.bytes.count == FormatDetector.headLength && !head.isWhole)
        #expect(FormatDetector.needsWholeFile(head.bytes))
        #expect(throws: FileReadError.tooLarge("-", limit: 1 << 20)) { try input.all(limit: 1 << 20) }
        // The writer is ahead by at most the socket's buffers.
        #expect(written() < (1 << 20) + (1 << 22))
    }

    @Test func pipesStopAtTheLimit() throws {
        for (size, limit) in [(100, 100), (101, 100), (0, 0), (1, 0)] {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let bytes = [UInt8](repeating: 7, count: size)
            _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            close(ends[1])
            defer { close(ends[0]) }
            if size <= limit {
                #expect(try FileReading.readAll(descriptor: ends[0], path: "p", limit: limit) == bytes)
            } else {
                #expect(throws: FileReadError.tooLarge("p", limit: limit)) { try FileReading.readAll(descriptor: ends[0], path: "p", limit: limit) }
            }
        }
    }

    /// Whenever the head is enough, detecting from it says what detecting the whole file says.
    @Test func theHeadAnswersAsTheWholeFileWould() throws {
        var inputs: [[UInt8]] = [Samples.arrayWithBool, Samples.appleHeader]
        for name in ["hello", "scalars", "strings-array-big-endian", "cycle"] {
            inputs.append(try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/\(name).typedstream"))))
        }
        inputs.append(Array("GNUstep archive00002c24:".utf8) + [UInt8](repeating: 1, count: 5000))
        inputs.append(Array(String(repeating: "plain text line\n", count: 400).utf8))
        inputs.append([UInt8](repeating: 0, count: 5000))
        inputs.append([UInt8](repeating: 0xAB, count: 5000))
        for bytes in inputs {
            let head = Array(bytes.prefix(FormatDetector.headLength))
            let whole = FormatDetector.detect(bytes)
            if head.count < bytes.count {
                #expect(!FormatDetector.needsWholeFile(head), "\(whole.line)")
            }
            #expect(FormatDetector.detect(head) == whole)
        }
        // Property lists and leading white space need the rest.
        for start in ["bplist00", "<?xml version", "   \n<plist", String(repeating: " ", count: 4096)] {
            #expect(FormatDetector.needsWholeFile(Array(start.utf8)))
        }
        #expect(FormatDetector.needsWholeFile([7, 0, 0, 0, 1, 0, 0, 0]))  // an old NeXT dictionary
    }
}
