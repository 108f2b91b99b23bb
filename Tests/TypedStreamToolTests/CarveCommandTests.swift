import Foundation
import Testing
@testable import TypedStreamTool
import TestSupport
import TypedStream
import TypedStreamFoundation

/// An archive planted in a test file: where, how long, what `carve` should call it, and the
/// bytes it should write.
private struct Planted: CustomStringConvertible {
    var offset: Int
    var length: Int
    var kind: String
    var archive: [UInt8]
    var description: String { "\(kind) at \(offset), \(length) bytes" }
}

/// A row of `carved.tsv`.
private struct Row: Equatable, CustomStringConvertible {
    var offset: Int
    var length: Int
    var kind: String
    var status: String
    var reason: String
    var description: String { "\(kind) \(status) at \(offset), \(length) bytes: \(reason)" }
}

private func rows(_ folder: String) throws -> [Row] {
    let text = try String(contentsOfFile: folder + "/carved.tsv", encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "offset\tlength\tkind\tstatus\treason")
    lines.removeFirst()
    return lines.map { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return Row(offset: Int(fields[0]) ?? -1, length: Int(fields[1]) ?? -1, kind: fields[2], status: fields[3], reason: fields[4])
    }
}

/// The name `carve` gives a whole archive.
private func carvedName(_ offset: Int, _ length: Int, _ kind: String) -> String {
    let digits = String(offset)
    let ext = kind.hasPrefix("keyed") ? "plist" : "typedstream"
    return String(repeating: "0", count: max(0, 12 - digits.count)) + digits + "-\(length).\(ext)"
}

private func sample(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: PackageRoot.samples.appendingPathComponent(name)))
}

/// `typedstream convert --to keyed` of a sample: an NSKeyedArchiver binary property list.
private func keyedArchive(of name: String) throws -> [UInt8] {
    let result = run(["convert", "--to", "keyed", "-"], stdin: try sample(name))
    #expect(result.exitCode == .success, "\(result.standardError)")
    #expect(result.outputBytes.starts(with: Array("bplist00".utf8)))
    return result.outputBytes
}

/// Checks every planted archive is in `carved.tsv` as whole, with its exact offset and length,
/// written to its file byte for byte, and (typedstreams) verified identical.
private func expectCarved(_ planted: [Planted], in folder: String, seed: UInt64? = nil) throws {
    let found = try rows(folder).filter { $0.status == "ok" }
    let context = seed.map { "seed \($0)" } ?? ""
    for archive in planted {
        let row = found.first { $0.offset == archive.offset }
        #expect(row?.length == archive.length, "\(archive) \(context): found \(String(describing: row))")
        #expect(row?.kind == archive.kind, "\(archive) \(context)")
        let path = folder + "/" + carvedName(archive.offset, archive.length, archive.kind)
        let written = FileManager.default.contents(atPath: path).map(Array.init)
        #expect(written == archive.archive ? true : false, "\(archive) \(context): \(path) holds other bytes")
        if archive.kind.hasPrefix("typedstream") {
            let verify = run(["verify", path])
            #expect(verify.standardOutput == "\(path): identical\n", "\(archive) \(context)")
        }
    }
    #expect(found.count == planted.count, "\(context): \(found)")
}

@Suite("carve")
struct CarveCommandTests {
    /// The seed of the random tests: `TYPEDSTREAM_CARVE_SEED` when set, else a fixed one.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["TYPEDSTREAM_CARVE_SEED"].flatMap { UInt64($0) } ?? 0x5EED_CA4E

    /// The archives planted: both byte orders, several shapes, a keyed archive, base64 of each kind.
    private static func archives() throws -> [(kind: String, bytes: [UInt8], text: [UInt8]?)] {
        let little = try sample("strings-array.typedstream")
        let keyed = try keyedArchive(of: "hello.typedstream")
        return [
            ("typedstream", little, nil),
            ("typedstream", try sample("strings-array-big-endian.typedstream"), nil),
            ("typedstream", try sample("hello.typedstream"), nil),
            ("typedstream", try sample("scalars.typedstream"), nil),
            ("typedstream", try sample("cycle.typedstream"), nil),
            ("keyed-archive", keyed, nil),
            ("typedstream-base64", little, Array(Data(little).base64EncodedString().utf8)),
            // Wrapped as a property list's <data> is: lines of 64 letters, tab-indented.
            ("keyed-archive-base64", keyed, Array(Data(keyed).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
                .replacingOccurrences(of: "\n", with: "\n\t").utf8)),
        ]
    }

    /// Random bytes with the archives planted at random offsets. The byte after each raw
    /// typedstream is `86` (end of object, which cannot start a top-level group): a typedstream
    /// has no length, and random bytes after it that read as one more complete group would
    /// belong to it as far as any reader can tell.
    private static func plantedFile(seed: UInt64, copies: Int = 3) throws -> (bytes: [UInt8], planted: [Planted]) {
        var random = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        var planted: [Planted] = []
        let kinds = try archives()
        for round in 0..<copies * kinds.count {
            let (kind, archive, text) = kinds[(round * 5 + Int(random.next() % 3)) % kinds.count]
            bytes += (0..<Int(random.next() % 3000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if let text {
                bytes.append(UInt8(ascii: ">"))
                planted.append(Planted(offset: bytes.count, length: text.count, kind: kind, archive: archive))
                bytes += text
                bytes.append(UInt8(ascii: "<"))
            } else {
                planted.append(Planted(offset: bytes.count, length: archive.count, kind: kind, archive: archive))
                bytes += archive
                if kind == "typedstream" { bytes.append(0x86) }
            }
        }
        bytes += (0..<100).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return (bytes, planted)
    }

    @Test func findsArchivesPlantedInRandomBytes() throws {
        print("carve test seed: \(Self.seed) (set TYPEDSTREAM_CARVE_SEED to replay another)")
        let (bytes, planted) = try Self.plantedFile(seed: Self.seed)
        let folder = try TemporaryFolder()
        let input = try folder.write("dump.bin", bytes)
        let result = run(["carve", input, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("\(input): \(planted.count) archives carved (\(planted.map(\.length).reduce(0, +)) of \(bytes.count) bytes); list in \(folder.path)/out/carved.tsv\n"))
        try expectCarved(planted, in: folder.path + "/out", seed: Self.seed)
        #expect(try rows(folder.path + "/out").allSatisfy { $0.status == "ok" })
    }

    @Test func smallPiecesFindSignaturesAcrossTheirBoundaries() throws {
        // Pieces of 7 bytes: every signature crosses a boundary somewhere.
        let (bytes, planted) = try Self.plantedFile(seed: Self.seed &+ 1, copies: 1)
        var carver = Carver(source: CarveSource(bytes: bytes))
        carver.chunkSize = 7
        var found: [CarvedItem] = []
        _ = try carver.run { found.append($0) }
        #expect(found.map(\.offset) == planted.map(\.offset))
        #expect(found.map(\.length) == planted.map(\.length))
        #expect(found.map(\.archive) == planted.map(\.archive) ? true : false)
    }

    @Test(.needsCorpus) func findsAStreamer3Archive() throws {
        let draw = try SharedCorpus.bytes("misc/nextstep1-blit-pallette.draw.typedstream")
        #expect(draw.prefix(2) == [0x03, 0x0B])
        var random = SplitMix64(seed: Self.seed)
        for _ in 0..<20 {
            let before = (0..<Int(random.next() % 500)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // A byte that reads as "object #n again" (a whole group in streamer 3) is left out;
            // so are groups of 00 bytes (free space).
            for after: [UInt8] in [[0x86], [0x92 + UInt8(random.next() % 8), 0x86], [0, 0, 0, 0, 0x86]] {
                let bytes = before + draw + after + (0..<50).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                var found: [CarvedItem] = []
                _ = try Carver(source: CarveSource(bytes: bytes)).run { found.append($0) }
                #expect(found.first.map { [$0.offset, $0.length] } == [before.count, draw.count], "after \(after)")
                #expect(found.first?.archive == draw ? true : false)
            }
        }
    }

    @Test func reportsDamagedCandidates() throws {
        let archive = try sample("strings-array.typedstream")
        let keyed = try keyedArchive(of: "hello.typedstream")
        var bytes = Array(repeating: UInt8(0x41), count: 100)
        let truncatedAt = bytes.count
        bytes += archive.prefix(60) + [0x86, 0x86]                // cut inside the root object
        bytes += Array(repeating: 0x41, count: 50)
        let headerOnlyAt = bytes.count
        bytes += Samples.appleHeader + [0x80]                    // a header, then a reserved byte
        bytes += Array(repeating: 0x41, count: 50)
        let keyedCutAt = bytes.count
        bytes += keyed.prefix(keyed.count - 40)                  // no trailer
        bytes += Array(repeating: 0x41, count: 50)
        let wholeAt = bytes.count
        bytes += archive
        let folder = try TemporaryFolder()
        let input = try folder.write("dump.bin", bytes)
        let result = run(["carve", "-q", input, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == "\(input): 1 archive carved (\(archive.count) of \(bytes.count) bytes); 3 damaged candidates; list in \(folder.path)/out/carved.tsv\n")
        let found = try rows(folder.path + "/out")
        #expect(found.map(\.offset) == [truncatedAt, headerOnlyAt, keyedCutAt, wholeAt])
        #expect(found.map(\.status) == ["damaged", "damaged", "damaged", "ok"])
        #expect(found.map(\.kind) == ["typedstream", "typedstream", "keyed-archive", "typedstream"])
        #expect(found[1] == Row(offset: headerOnlyAt, length: 16, kind: "typedstream", status: "damaged",
                                reason: "offset 0x10 (16) from its start: expected a type string, found 0x80 (reserved tag)"))
        #expect(found[2].reason.contains("no binary property list trailer points back at this header"))
        // Only the whole archive has a file.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").sorted()
        #expect(files == [carvedName(wholeAt, archive.count, "typedstream"), "carved.tsv"])
    }

    @Test func aRunOfHeadersIsLinear() throws {
        // Every header is a damaged candidate; none reads past the next.
        let header = Samples.appleHeader
        let bytes = Array((0..<4096).map { _ in header }.joined())
        var found: [CarvedItem] = []
        let totals = try Carver(source: CarveSource(bytes: bytes)).run { found.append($0) }
        #expect(totals.damaged == 4096 && totals.ok == 0)
        #expect(found.map(\.offset) == (0..<4096).map { $0 * header.count })
    }

    @Test func nestedNeverEndingArchivesStayWithinTheBudget() throws {
        // Each header's object holds a string that holds the next header and all after it, so
        // every candidate reads to the end of the file until damaged candidates have used their
        // share (twice the file plus the maximum size); the rest read 4 KiB each.
        let prefix = Samples.appleHeader + [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x01, 0x41, 0x00, 0x85, 0x84, 0x01, 0x2B, 0x82]
        let level = prefix.count + 4
        let count = 6000
        var bytes: [UInt8] = []
        for index in 0..<count {
            let rest = UInt32((count - index - 1) * level)
            bytes += prefix + (0..<4).map { UInt8(truncatingIfNeeded: rest >> ($0 * 8)) }
        }
        var carver = Carver(source: CarveSource(bytes: bytes))
        carver.maximumSize = 64 << 10
        let totals = try carver.run { item in #expect(item.status == .damaged) }
        #expect(totals.damaged == count && totals.ok == 0)
        // Without the budget each would read about the rest of the file: 6000 × 210 KB / 2.
        let budget = 2 * bytes.count + carver.maximumSize
        let largestCandidate = carver.maximumSize * 4 / 3
        #expect(totals.damagedRead <= budget + largestCandidate + count * (512 + 2048 + 4096), "\(totals.damagedRead)")
    }

    @Test func inspectAndDetectLookInsideADump() throws {
        let (bytes, planted) = try Self.plantedFile(seed: Self.seed &+ 2, copies: 1)
        let folder = try TemporaryFolder()
        let input = try folder.write("dump.bin", bytes)
        for archive in planted where !archive.kind.hasSuffix("base64") {
            let detect = run(["detect", "--offset", String(archive.offset), input])
            #expect(detect.exitCode == .success)
            let expected = run(["detect", "-"], stdin: archive.archive).standardOutput.replacingOccurrences(of: "<stdin>:", with: "\(input) at offset \(archive.offset):")
            #expect(detect.standardOutput == expected)
            guard archive.kind == "typedstream" else { continue }
            let inspect = run(["inspect", "--color", "never", "--offset", "0x" + String(archive.offset, radix: 16), input])
            #expect(inspect.exitCode == .success, "\(inspect.standardError)")
            #expect(inspect.standardOutput == run(["inspect", "--color", "never", "-"], stdin: archive.archive).standardOutput)
        }
        // Where no archive starts, --offset keeps its meaning: the dump of the file from there.
        let plain = run(["inspect", "--offset", "3", try folder.write("a.typedstream", try sample("hello.typedstream"))])
        #expect(plain.exitCode == .success)
        #expect(plain.standardOutput.hasPrefix("00000000  04 0b"))
    }

    @Test func refusesAMissingOutputFolder() {
        let result = run(["carve", "x.bin"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("missing option '-o DIR'"))
        let size = run(["carve", "x.bin", "-o", "out", "--max-size", "12"])
        #expect(size.exitCode == .usage)
        #expect(run(["help", "carve"]).standardOutput.contains("DIR/carved.tsv lists every candidate"))
    }

    @Test func maxSizeSuffixes() throws {
        func size(_ text: String) throws -> Int? { try CarveCommand.size(.init(text, index: 0)) }
        #expect(try size("64M") == 64 << 20)
        #expect(try size("0x100") == 256)
        #expect(try size("2k") == 2048)
        #expect(throws: UsageError.self) { try size("63") }
    }

    static let sqlite: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: sqlite != nil, "the sqlite3 command-line program is not installed (looked in /usr/bin, /usr/local/bin, /opt/homebrew/bin)"))
    func findsBlobsInASQLiteDatabase() throws {
        let folder = try TemporaryFolder()
        let database = folder.path + "/chat.db"
        let kinds = try Self.archives().filter { $0.text == nil }
        var statements = "create table message(id integer primary key, text text, attributedBody blob);\n"
        for (index, entry) in kinds.enumerated() {
            let hex = entry.bytes.map { String(format: "%02x", $0) }.joined()
            statements += "insert into message(text, attributedBody) values ('message \(index)', x'\(hex)');\n"
        }
        try Self.sqlite3(database, statements)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: database)))
        // Where SQLite put each blob (each is stored whole in one page: they are small).
        let planted: [Planted] = try kinds.map { entry in
            let offset = try #require(file.firstRange(of: entry.bytes)?.lowerBound, "blob not stored contiguously")
            return Planted(offset: offset, length: entry.bytes.count, kind: entry.kind, archive: entry.bytes)
        }
        let result = run(["carve", database, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        try expectCarved(planted, in: folder.path + "/out")
    }

    /// Runs sqlite3 on `database` with `statements` on its standard input.
    private static func sqlite3(_ database: String, _ statements: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite!)
        process.arguments = [database]
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        pipe.fileHandleForWriting.write(Data(statements.utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// An archive of about `size` bytes: an array of numbered strings.
    private static func largeArchive(_ size: Int, tag: String) throws -> [UInt8] {
        let strings = (0..<(size / 29)).map { StringObject("\(tag) string number \($0)") as AnyObject? }
        return try Archiver.archivedBytes(withRootObject: ArrayObject(strings))
    }

    /// A database of 4096-byte pages holding two 20 KB archives, each split over overflow
    /// pages: one whose blob starts in its cell, one after a 5000-byte text (more than a cell
    /// keeps on such a page) so that its first byte is on an overflow page already.
    private static func spilledDatabase(_ folder: TemporaryFolder) throws -> (path: String, archives: [[UInt8]]) {
        let database = folder.path + "/chat.db"
        let archives = [try largeArchive(20_000, tag: "first"), try largeArchive(20_000, tag: "second")]
        #expect(archives.allSatisfy { $0.count >= 18_000 && $0.count <= 22_000 }, "\(archives.map(\.count))")
        let texts = ["short", String(repeating: "y", count: 5000)]
        var statements = "pragma page_size = 4096;\ncreate table message(id integer primary key, text text, attributedBody blob);\n"
        for (text, archive) in zip(texts, archives) {
            statements += "insert into message(text, attributedBody) values ('\(text)', x'\(archive.map { String(format: "%02x", $0) }.joined())');\n"
        }
        try sqlite3(database, statements)
        return (database, archives)
    }

    @Test(.enabled(if: sqlite != nil, "the sqlite3 command-line program is not installed (looked in /usr/bin, /usr/local/bin, /opt/homebrew/bin)"))
    func findsBlobsSplitOverSQLiteOverflowPagesWhole() throws {
        let folder = try TemporaryFolder()
        let (database, archives) = try Self.spilledDatabase(folder)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: database)))
        #expect(file.firstRange(of: archives[0]) == nil, "the blob is stored in one piece: nothing to put back together")
        let result = run(["carve", database, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        let found = try rows(folder.path + "/out")
        #expect(found.count == 2 && found.allSatisfy { $0.status == "ok" }, "\(found)")
        for archive in archives {
            let row = try #require(found.first { $0.length == archive.count }, "\(found)")
            #expect(row.kind == "typedstream")
            #expect(row.reason.contains("SQLite cell payload"), "\(row)")
            // The offset is where the archive's first byte is in the file.
            let head = min(16, (row.offset / 4096 + 1) * 4096 - row.offset)
            #expect(file[row.offset..<(row.offset + head)].elementsEqual(archive.prefix(head)), "\(row)")
            let path = folder.path + "/out/" + carvedName(row.offset, row.length, row.kind)
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == archive ? true : false, "\(path)")
            #expect(run(["verify", path]).standardOutput == "\(path): identical\n")
        }
    }

    @Test(.enabled(if: sqlite != nil, "the sqlite3 command-line program is not installed (looked in /usr/bin, /usr/local/bin, /opt/homebrew/bin)"))
    func aLoopingOverflowChainIsReportedNotFollowed() throws {
        let folder = try TemporaryFolder()
        let (database, archives) = try Self.spilledDatabase(folder)
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: database)))
        // The first archive's overflow pages, in payload order: each page's content is a piece of it.
        var chain: [(page: Int, at: Int)] = []
        for page in 1..<(file.count / 4096) {
            let content = file[(page * 4096 + 4)..<(page * 4096 + 68)]
            if let at = archives[0].firstRange(of: content)?.lowerBound { chain.append((page + 1, at)) }
        }
        chain.sort { $0.at < $1.at }
        try #require(chain.count >= 3, "\(chain)")
        // The second overflow page now leads back to the first.
        let second = (chain[1].page - 1) * 4096
        file.replaceSubrange(second..<(second + 4), with: withUnsafeBytes(of: UInt32(chain[0].page).bigEndian, Array.init))
        let input = try folder.write("looped.db", file)
        let result = run(["carve", input, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        let found = try rows(folder.path + "/out")
        #expect(found.contains { $0.status == "damaged" && $0.reason.contains("a loop") }, "\(found)")
        #expect(found.contains { $0.status == "ok" && $0.length == archives[1].count }, "\(found)")
    }
}
