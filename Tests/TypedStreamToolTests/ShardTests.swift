import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// `--shard I/N`: a stable split of `text --lines` records (by id) and of `verify` / `convert`
/// batches (by relative path). The shards 1…N of one input must hold every record or file
/// exactly once, write between them the lines (or files) of the unsharded run, and split alike
/// on every platform and in every version (pinned hash values).
@Suite struct ShardTests {
    // MARK: The hash and the argument

    /// 64-bit FNV-1a: the published test vectors, and the values the split of message ids and
    /// paths rests on. Changing any of these moves records between shards of existing runs.
    @Test func hashValuesArePinned() {
        let pinned: [(String, UInt64)] = [
            ("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
            ("1", 0xaf63_ac4c_8601_9afc), ("2", 0xaf63_af4c_8601_a015), ("42", 0x07ee_7e07_b4b1_9223),
            ("100000", 0x3175_5d1a_8ea1_47a4), ("sub/hello.typedstream", 0x249c_7682_dc4f_ab3c),
        ]
        for (key, hash) in pinned { #expect(Shard.hash(key.utf8) == hash, "\(key)") }
        // shard = hash mod N + 1
        #expect([2, 3, 4, 10].map { Shard.number(of: "1".utf8, count: $0) } == [1, 2, 1, 9])
        #expect([2, 3, 4, 10].map { Shard.number(of: "42".utf8, count: $0) } == [2, 2, 4, 2])
        #expect([2, 3, 4, 10].map { Shard.number(of: "hello.typedstream".utf8, count: $0) } == [2, 3, 2, 2])
    }

    @Test func theArgumentIsOneBasedIOfN() {
        #expect(Shard(argument: "1/1") == Shard(number: 1, of: 1))
        #expect(Shard(argument: "3/4")?.number == 3)
        #expect(Shard(argument: "4/4")?.text == "4/4")
        for bad in ["0/4", "5/4", "1/0", "0/0", "-1/4", "+1/4", "1/+4", " 1/4", "1/4 ", "1", "1/", "/4", "1/2/3", "a/b", "1.0/2", "0x1/2",
                    "1/99999999999999999999"] {
            #expect(Shard(argument: bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        ["text", "--lines", "hex", "--shard", "0/4"],
        ["text", "--lines", "hex", "--shard", "5/4"],
        ["text", "--lines", "hex", "--shard", "two"],
        ["verify", "Samples/hello.typedstream", "--shard", "1/0"],
        ["convert", "--to", "json", "-o", "/tmp/x/", "Samples/hello.typedstream", "--shard", "3"],
    ])
    func aBadShardIsAUsageError(arguments: [String]) {
        let result = run(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.standardError.hasPrefix("error: invalid value '\(arguments.last!)' for '--shard': expected I/N, two whole numbers with 1 ≤ I ≤ N (shards are numbered from 1"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aShardOfWhatIsNotSplitIsAUsageError() {
        let text = run(["text", "Samples/hello.typedstream", "--shard", "1/2"])
        #expect(text.exitCode == .usage)
        #expect(text.standardError.hasPrefix("error: '--shard' splits the records of '--lines'"))
        let convert = run(["convert", "--to", "json", "Samples/hello.typedstream", "--shard", "1/2"])
        #expect(convert.exitCode == .usage)
        #expect(convert.standardError.hasPrefix("error: '--shard' splits a batch"))
    }

    // MARK: Records

    /// 240 records: good bodies, every kind of bad one (a NULL column, bad hex, no tab, a
    /// damaged archive, an array, a line over the limit), blank lines between.
    static func recordInput() throws -> (text: [UInt8], records: Int, failed: Int) {
        var lines: [String] = []
        var failed = 0
        for index in 1...240 {
            let id = index % 7 == 0 ? "row-\(index)-é" : "\(index)"
            switch index % 31 {
            case 3: lines.append("\(id)\t"); failed += 1
            case 5: lines.append("\(id)\tZZ00"); failed += 1
            case 8: lines.append("no tab \(id)"); failed += 1
            case 13: lines.append("\(id)\t" + TextLinesTests.hex(Array(try TextLinesTests.body("cut \(id)").dropLast(3)))); failed += 1
            case 17: lines.append("\(id)\t" + TextLinesTests.hex(try Archiver.archivedBytes(withRootObject: ArrayObject(strings: [id])))); failed += 1
            case 23: lines.append("\(id)\t" + String(repeating: "AB", count: 3000)); failed += 1
            default: lines.append("\(id)\t" + TextLinesTests.hex(try TextLinesTests.body("text of \(id) 👋")))
            }
            if index % 50 == 0 { lines.append("") }
        }
        return (Array(lines.joined(separator: "\n").utf8), 240, failed)
    }

    /// `command` (`text --lines hex` by default) with `extra` arguments over `input`, lines over
    /// 4000 bytes too long.
    static func runLines(_ input: [UInt8], _ extra: [String] = [], command: [String] = ["text", "--lines", "hex"]) -> (code: ExitCode, lines: [String], summary: String) {
        let output = CapturedOutput(), errors = CapturedOutput()
        let context = CommandContext(standardInput: input, output: output, errorOutput: errors, inputLimit: 4000)
        let code = TypedStreamCommand.run(command + extra, in: context)
        return (code, output.text.split(separator: "\n").map(String.init), errors.text)
    }

    static func id(of line: String) throws -> String {
        guard case .string(let id)? = try JSONValue.parse(Array(line.utf8))["id"] else { throw CommandFailure("no id in \(line)") }
        return id
    }

    @Test(arguments: [1, 2, 3, 7])
    func recordShardsPartitionTheStream(count: Int) throws {
        try Self.checkRecordShards(count: count, command: ["text", "--lines", "hex"])
    }

    /// `decode --lines` splits as `text --lines` does (its arrays are records, not errors).
    @Test(arguments: [(2, "--plain"), (3, "--json"), (5, "--plain")])
    func decodeRecordShardsPartitionTheStream(count: Int, form: String) throws {
        try Self.checkRecordShards(count: count, command: ["decode", "--lines", "hex", form])
    }

    /// The shards 1…count of ``recordInput()`` through `command`: each in input order, each
    /// record in exactly one, together the unsharded run's lines.
    static func checkRecordShards(count: Int, command: [String]) throws {
        var (input, records, failed) = try Self.recordInput()
        if command.first == "decode" { failed -= (1...records).filter { $0 % 31 == 17 }.count }  // the arrays decode
        let whole = Self.runLines(input, command: command)
        #expect(whole.lines.count == records)
        #expect(whole.summary == "\(records) records, \(failed) failed\n")
        var seen: [String: Int] = [:]
        var shardRecords = 0, shardFailed = 0
        for number in 1...count {
            let part = Self.runLines(input, ["--shard", "\(number)/\(count)"], command: command)
            // In input order: a subsequence of the whole run's lines.
            var rest = whole.lines[...]
            for line in part.lines {
                guard let found = rest.firstIndex(of: line) else { Issue.record("shard \(number)/\(count): \(line) out of order or not in the whole run"); break }
                rest = rest[(found + 1)...]
                seen[line, default: 0] += 1
                #expect(Shard.number(of: try Self.id(of: line).utf8, count: count) == number, "\(line)")
            }
            let partFailed = part.lines.filter { $0.contains(#""error":"#) }.count
            #expect(part.summary == "\(part.lines.count) records, \(partFailed) failed (shard \(number)/\(count); \(records - part.lines.count) records of other shards skipped)\n")
            #expect(part.code == (partFailed > 0 ? .failure : .success))
            shardRecords += part.lines.count
            shardFailed += partFailed
        }
        // Every record in exactly one shard, and the union is the unsharded run.
        #expect(shardRecords == records)
        #expect(shardFailed == failed)
        #expect(Set(seen.keys) == Set(whole.lines))
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test func everyShardIsUsedAndTheSplitIsEven() throws {
        let input = Array((1...1000).map { "\($0)\t" }.joined(separator: "\n").utf8)
        let sizes = (1...4).map { Self.runLines(input, ["--shard", "\($0)/4"]).lines.count }
        #expect(sizes.reduce(0, +) == 1000)
        #expect(sizes.allSatisfy { (200...300).contains($0) }, "\(sizes)")
    }

    // MARK: Batches

    /// A folder of archives in sub-folders, files that only their extensions tell apart (so
    /// `convert` keeps them), a file that is no archive and a damaged one.
    static func batchFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let samples = ["hello", "cycle", "scalars", "strings-array", "strings-array-big-endian"]
        for (index, name) in samples.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/\(name).typedstream")))
            for sub in ["", "a/", "b/deep/"] { try folder.write("\(sub)\(name).typedstream", bytes) }
            try folder.write("a/\(name).nib", bytes)
            if index == 0 { try folder.write("b/\(name).bin", Array(bytes.dropLast(4))) }
        }
        try folder.write("notes.txt", Array("not an archive".utf8))
        return folder
    }

    /// The per-file lines of a batch's output (the summary left out) and its summary line.
    static func batchLines(_ result: CommandResult) -> (files: [String], summary: String) {
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let files = lines.prefix { !$0.hasPrefix("Summary: ") }.filter { $0.hasPrefix("/") }
        return (files, lines.first { $0.hasPrefix("Summary: ") } ?? "")
    }

    @Test(arguments: [2, 3, 5])
    func verifyShardsPartitionTheBatch(count: Int) throws {
        let folder = try Self.batchFolder()
        let whole = run(["verify", "-r", folder.path, "--no-progress"])
        let all = Self.batchLines(whole)
        #expect(all.files.count == 22)
        var union: [String] = []
        for number in 1...count {
            let part = run(["verify", "-r", folder.path + "/", "--no-progress", "--shard", "\(number)/\(count)"])
            let lines = Self.batchLines(part)
            #expect(lines.summary.hasPrefix("Summary: \(lines.files.count) file\(lines.files.count == 1 ? "" : "s") (shard \(number)/\(count) of 22 files): "))
            for line in lines.files {
                let path = String(line[..<line.range(of: ": ")!.lowerBound])
                #expect(Shard.number(of: path.dropFirst(folder.path.count + 1).utf8, count: count) == number, "\(path)")
            }
            #expect(part.exitCode == (lines.files.contains { $0.contains(": error: ") } ? .failure : .success))
            union += lines.files
        }
        #expect(union.count == all.files.count)
        #expect(Set(union) == Set(all.files))
    }

    /// The split follows the path under the folder argument, not where the folder is.
    @Test func theSplitOfAFolderDoesNotDependOnWhereItIs() throws {
        let one = try Self.batchFolder(), other = try Self.batchFolder()
        func relative(_ folder: TemporaryFolder) -> Set<String> {
            Set(Self.batchLines(run(["verify", "-r", folder.path, "--shard", "2/3"])).files.map { String($0.dropFirst(folder.path.count + 1)) })
        }
        #expect(relative(one) == relative(other))
        #expect(!relative(one).isEmpty)
    }

    @Test func convertShardsWriteTheFilesOfOneRun() throws {
        let folder = try Self.batchFolder()
        let single = try TemporaryFolder(), sharded = try TemporaryFolder()
        let whole = run(["convert", "--to", "json", "-r", folder.path, "-o", single.path + "/out", "--no-progress"])
        #expect(whole.exitCode == .failure)  // the damaged file
        var converted = 0
        for number in 1...3 {
            let part = run(["convert", "--to", "json", "-r", folder.path, "-o", sharded.path + "/out", "--no-progress", "--shard", "\(number)/3"])
            converted += Self.batchLines(part).files.filter { $0.contains(": converted → ") }.count
        }
        let expected = filesUnder(URL(fileURLWithPath: single.path + "/out"))
        let written = filesUnder(URL(fileURLWithPath: sharded.path + "/out"))
        #expect(expected.count == 20)  // x.typedstream.json beside x.nib.json: named for the whole batch
        #expect(expected.contains { $0.hasSuffix("/a/hello.nib.json") })
        #expect(converted == expected.count)
        #expect(written.map { $0.dropFirst(sharded.path.count) } == expected.map { $0.dropFirst(single.path.count) })
        for (a, b) in zip(expected, written) {
            #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b), "\(b)")
        }
    }
}
