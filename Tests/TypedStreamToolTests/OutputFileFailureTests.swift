import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// Writing a file with `-o` fails cleanly: one line, status 1, the previous file untouched and
/// no temporary file left — on a full device, under a file-size limit, and when the program is
/// interrupted mid-write. Raw Foundation errors never reach the user.
@Suite struct OutputFileFailureTests {
    /// The names in `folder`, sorted.
    static func names(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Runs `script` with `sh -c` (arguments `$0`, `$1` …); returns status and standard error.
    static func shell(_ script: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full does not exist here"))
    func convertToAFullDeviceGivesOneLine() throws {
        let folder = try TemporaryFolder()
        let input = try OutputFailureTests.stringsArchive(2000, in: folder)
        for format in ["json", "typedstream", "keyed"] {
            let result = run(["convert", "--to", format, input, "-o", "/dev/full"])
            #expect(result.exitCode == .failure, "\(format)")
            #expect(result.standardError == "error: cannot write '/dev/full': No space left on device\n", "\(format)")
        }
        // Written in place, as a device must be: no temporary file was tried in /dev.
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    /// Under `ulimit -f`, the conversion fails with one line, the old output stays whole and
    /// no temporary file is left beside it.
    @Test func convertUnderAFileSizeLimitKeepsTheOldOutput() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OutputFailureTests.toolPath), "typedstream not built")
        let folder = try TemporaryFolder()
        let input = try OutputFailureTests.stringsArchive(2000, in: folder)
        let old = Array("the previous output\n".utf8)
        let output = try folder.write("out.json", old)
        let result = try Self.shell("ulimit -f 8 && exec \"$0\" convert --to json \"$1\" -o \"$2\"", [OutputFailureTests.toolPath, input, output])
        #expect(result.status == 1)
        #expect(result.errors == "error: cannot write '\(output)': File too large\n")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == old)
        #expect(try Self.names(folder) == ["out.json", "strings.typedstream"])
    }

    @Test func decodeUnderAFileSizeLimitGivesOneLine() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OutputFailureTests.toolPath), "typedstream not built")
        let folder = try TemporaryFolder()
        let input = try OutputFailureTests.stringsArchive(2000, in: folder)
        let result = try Self.shell("ulimit -f 8 && exec \"$0\" decode --json \"$1\" > \"$2\"", [OutputFailureTests.toolPath, input, folder.path + "/out.json"])
        #expect(result.status == 1)
        #expect(result.errors == "typedstream: cannot write standard output: File too large\n")
    }

    /// SIGTERM, SIGHUP or SIGINT in the middle of a conversion removes the temporary file, and
    /// the program still ends by that signal.
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalMidWriteRemovesTheTemporaryFile(signalNumber: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: OutputFailureTests.toolPath), "typedstream not built")
        let folder = try TemporaryFolder()
        let input = try OutputFailureTests.stringsArchive(300_000, in: folder)
        let child = try Self.spawn(OutputFailureTests.toolPath, ["convert", "--to", "json", input, "-o", folder.path + "/out.json"])
        // Watch the folder for the temporary file; signal as soon as it appears.
        var caught = false
        var status: Int32 = 0
        while waitpid(child, &status, WNOHANG) == 0 {
            if try Self.names(folder).contains(where: { $0.hasPrefix(".out.json.tmp-") }) {
                kill(child, signalNumber)
                caught = true
                waitpid(child, &status, 0)
                break
            }
            usleep(200)
        }
        guard caught else {
            print("inconclusive: the conversion ended before its temporary file was seen")
            return
        }
        // Ended by the signal (WIFSIGNALED, WTERMSIG), with nothing left beside the input.
        #expect(status & 0x7F == signalNumber, "wait status \(status)")
        #expect(try Self.names(folder) == ["strings.typedstream"])
    }

    /// Starts `path` with `arguments`, its output discarded, with no signal blocked or ignored
    /// (Foundation's `Process` passes on the blocked signals of the thread that starts it).
    static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        // Opaque pointers on Darwin, structures elsewhere.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        try #require(result == 0, "posix_spawn failed: \(result)")
        return pid
    }

    /// A Foundation error becomes "cannot write 'PATH': reason" with the system's words.
    @Test func foundationErrorsBecomeOneLine() {
        let denied = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteNoPermission.rawValue,
                             userInfo: [NSFilePathErrorKey: "/ro/out"])
        #expect(ErrorText.describe(denied) == "cannot write '/ro/out': Permission denied")
        let full = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                           userInfo: [NSFilePathErrorKey: "/full/out", NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(ErrorText.describe(full) == "cannot write '/full/out': No space left on device")
        let missing = CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/nowhere"])
        #expect(ErrorText.describe(missing) == "cannot read '/nowhere': No such file or directory")
        #expect(ErrorText.describe(CommandFailure("plain")) == "plain")
    }

    /// A batch into a folder it cannot create says so in one line, before anything is written.
    @Test func aBatchIntoAFolderThatCannotBeMadeSaysWhy() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("a.typedstream", Samples.arrayWithBool)
        let other = try folder.write("b.typedstream", Samples.arrayWithBool)
        let blocker = try folder.write("file", [])
        let underFile = run(["convert", "--to", "json", input, other, "-o", blocker + "/out"])
        #expect(underFile.exitCode == .failure)
        #expect(underFile.standardError == "error: cannot create folder '\(blocker)': a file of that name is in the way; "
                + "choose another output folder (the output folder given with -o)\n")
        guard geteuid() != 0 else {
            print("skipped: the read-only folder case, as root may write into a read-only folder")
            return
        }
        try FileManager.default.createDirectory(atPath: folder.path + "/ro", withIntermediateDirectories: true)
        chmod(folder.path + "/ro", 0o555)
        defer { chmod(folder.path + "/ro", 0o755) }
        let result = run(["convert", "--to", "json", input, input, "-o", folder.path + "/ro/out"])
        #expect(result.exitCode == .failure)
        #expect(result.standardOutput.contains("\(input): error: cannot write '\(folder.path)/ro/out': Permission denied\n"))
        #expect(!result.standardOutput.contains("Error Domain"))
    }
}
