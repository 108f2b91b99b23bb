import Testing
@testable import TypedStreamTool

@Suite("verify")
struct VerifyCommandTests {
    @Test func identicalFromStandardInput() {
        let result = run(["verify", "-"], stdin: Samples.arrayWithBool)
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == "<stdin>: identical\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func roundTripGivesTheSameBytes() throws {
        for depth in [RoundTripDepth.tokens, .graph] {
            #expect(try roundTrip(Samples.arrayWithBool, through: depth) == Samples.arrayWithBool)
            #expect(try roundTrip(Samples.appleHeader, through: depth) == Samples.appleHeader)
        }
        let graph = run(["verify", "--graph", "-"], stdin: Samples.arrayWithBool)
        #expect(graph.exitCode == .success)
        #expect(graph.standardOutput == "<stdin>: identical\n")
    }

    @Test func everyTruncatedPrefixIsAnErrorWithAnOffset() {
        for length in 0..<Samples.arrayWithBool.count where length != Samples.appleHeader.count {
            let prefix = Array(Samples.arrayWithBool.prefix(length))
            let result = run(["verify", "-"], stdin: prefix)
            #expect(result.exitCode == .failure, "prefix \(length)")
            #expect(result.standardOutput.hasPrefix("<stdin>: error: offset 0x"), "prefix \(length): \(result.standardOutput)")
            // Both depths refuse a prefix at the same offset, with the same reason.
            #expect(run(["verify", "--graph", "-"], stdin: prefix).standardOutput == result.standardOutput, "prefix \(length)")
        }
    }

    @Test func foreignFormatsNamedExplicitlyFail() {
        let gnustep = run(["verify", "-"], stdin: Array("GNUstep archive00002c25:00000003:00000003:00000000:".utf8))
        #expect(gnustep.exitCode == .failure)
        #expect(gnustep.standardOutput.hasPrefix("<stdin>: error: offset 0x0: this is a GNUstep archive"))
        let missing = run(["verify", "/nonexistent/typedstream-tool-test"])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardOutput == "/nonexistent/typedstream-tool-test: error: cannot read: No such file or directory\n")
    }

    @Test("differences are located", arguments: [
        ([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8], "identical"),
        ([1, 2, 3], [1, 9, 3], "differs at offset 0x1 (input has 02, re-encoded has 09)"),
        ([1, 2, 3], [1, 2], "differs at offset 0x2 (re-encoded output ends here; the input has 1 more bytes)"),
        ([1, 2], [1, 2, 3, 4], "differs at offset 0x2 (the input ends here; re-encoded output has 2 more bytes)"),
    ])
    func compare(input: [UInt8], output: [UInt8], expected: String) {
        #expect(BatchOutcome.compare(input: input, output: output).text == expected)
    }

    /// A folder with a good archive, a damaged one, a text file, a hidden file and a nested folder.
    static func makeFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("b-good.typedstream", Samples.arrayWithBool)
        try folder.write("a-sub/c-truncated.typedstream", Array(Samples.arrayWithBool.prefix(50)))
        try folder.write("a-sub/d-good.typedstream", Samples.arrayWithBool)
        try folder.write("notes.txt", Array("hello\n".utf8))
        try folder.write(".hidden.typedstream", [0x04])
        return folder
    }

    @Test func recursiveWalkReportsInSortedOrderWithSummary() throws {
        let folder = try Self.makeFolder()
        let path = folder.path
        let result = run(["verify", "--recursive", path])
        #expect(result.exitCode == .failure)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("\(path)/a-sub/c-truncated.typedstream: error: offset 0x32: "))
        #expect(lines[1] == "\(path)/a-sub/d-good.typedstream: identical")
        #expect(lines[2] == "\(path)/b-good.typedstream: identical")
        #expect(lines[3] == "\(path)/notes.txt: skipped: not a typedstream: looks like text: \"hello\"")
        #expect(lines[4] == "")
        #expect(lines[5] == "Summary: 4 files: 2 identical, 0 differing, 1 failed, 1 skipped")
        #expect(lines[6] == "Failed:")
        #expect(lines[7].hasPrefix("  \(path)/a-sub/c-truncated.typedstream: offset 0x32: "))
        #expect(lines[8] == "Skipped:")
        #expect(!result.standardOutput.contains(".hidden"))
        #expect(result.standardError.isEmpty)
    }

    @Test func outputIsTheSameWhateverTheNumberOfJobs() throws {
        let folder = try Self.makeFolder()
        let one = run(["verify", "-r", "--jobs", "1", folder.path])
        for jobs in ["2", "3", "8"] {
            let many = run(["verify", "-r", "-j", jobs, folder.path])
            #expect(many.standardOutput == one.standardOutput)
            #expect(many.exitCode == one.exitCode)
        }
    }

    @Test func explicitFilesKeepTheirOrderAndAreNeverSkipped() throws {
        let folder = try Self.makeFolder()
        let text = folder.path + "/notes.txt"
        let good = folder.path + "/b-good.typedstream"
        let result = run(["verify", text, good, "-"], stdin: Samples.arrayWithBool)
        #expect(result.exitCode == .failure)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("\(text): error: offset 0x0: "))
        #expect(lines[1] == "\(good): identical")
        #expect(lines[2] == "<stdin>: identical")
        #expect(lines[3] == "Summary: 3 files: 2 identical, 0 differing, 1 failed, 0 skipped")
    }

    @Test func quietPrintsOnlyProblemsAndTheSummary() throws {
        let folder = try Self.makeFolder()
        let result = run(["verify", "-rq", folder.path])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("\(folder.path)/a-sub/c-truncated.typedstream: error: offset 0x32"))
        #expect(lines[1].hasPrefix("Summary: 4 files: 2 identical"))
        let allGood = run(["verify", "-q", "-"], stdin: Samples.arrayWithBool)
        #expect(allGood.exitCode == .success)
        #expect(allGood.standardOutput.isEmpty)
    }

    @Test func progressIsDrawnOnlyOnATerminal() throws {
        let folder = try Self.makeFolder()
        let terminal = run(["verify", "-r", folder.path], terminal: true)
        #expect(terminal.standardError.contains("files"))
        #expect(terminal.standardError.contains("ETA"))
        #expect(terminal.standardError.hasSuffix(ProgressMeter.erase))
        #expect(terminal.standardOutput == run(["verify", "-r", folder.path]).standardOutput)
        let disabled = run(["verify", "-r", "--no-progress", folder.path], terminal: true)
        #expect(disabled.standardError.isEmpty)
    }

    @Test func progressLine() {
        let meter = ProgressMeter(totalFiles: 10, totalBytes: 4_000_000)
        #expect(meter.line(doneFiles: 0, doneBytes: 0, elapsed: 0)
                == "[........................]  0/10 files  0 B  ETA --:--")
        #expect(meter.line(doneFiles: 5, doneBytes: 1_000_000, elapsed: 2)
                == "[######..................]  5/10 files  1.0 MB  500.0 kB/s  ETA 0:06")
        #expect(meter.line(doneFiles: 10, doneBytes: 4_000_000, elapsed: 8)
                == "[########################]  10/10 files  4.0 MB  500.0 kB/s  ETA 0:00")
        let bySize = ProgressMeter(totalFiles: 4, totalBytes: nil)
        #expect(bySize.line(doneFiles: 1, doneBytes: 10, elapsed: 100)
                == "[######..................]  1/4 files  10 B  0 B/s  ETA 5:00")
    }
}
