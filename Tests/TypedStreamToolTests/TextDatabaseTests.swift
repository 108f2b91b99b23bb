import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// The way `text --lines` is meant to be used: a SQLite table of message bodies (a few
/// damaged), dumped by `sqlite3 -separator $'\t' … "select ROWID, hex(attributedBody) …"` and
/// read back in one process. Every good body's text must be the string it was made from, every
/// bad one reported. (The 100 000-body run with timings is `examples/message-text.sh`.)
@Suite struct TextDatabaseTests {
    static let sqlite = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs sqlite3 with `arguments`, `input` on its standard input; returns its standard output.
    static func sqlite3(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite ?? "sqlite3")
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread { stdin.fileHandleForWriting.write(Data(input)); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(output)
    }

    /// A random message text: words, emoji (non-BMP, with modifiers), quotes, tabs, newlines.
    static func randomText(_ random: inout SplitMix64) -> String {
        let words = ["hi", "it's", "\"quoted\"", "tab\there", "new\nline", "café", "👍🏽", "🎉", "مرحبا", "𝖍𝖎", "\u{FFFC}", "back\\slash"]
        return (0..<Int(random.next() % 12)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
    }

    /// The body of `text`: 1–3 runs, the middle one a mention sharing nothing, the others sharing
    /// one dictionary instance; mutable or not.
    static func body(_ text: String, _ random: inout SplitMix64) throws -> AttributedStringObject {
        let units = text.utf16.count
        let plain = DictionaryObject(stringKeys: [("__kIMMessagePartAttributeName", NumberObject(int: 0))])
        guard units >= 3, random.next() % 2 == 0 else {
            return AttributedStringObject(text, runs: units == 0 ? [] : [.init(length: units, attributes: plain)], mutable: random.next() % 2 == 0)
        }
        let mention = DictionaryObject(stringKeys: [("__kIMMentionConfirmedMention", StringObject("+1555"))])
        // Run lengths in UTF-16 units; a boundary may split a surrogate pair, as NSString allows.
        let first = 1 + Int(random.next() % UInt64(units - 2)), second = 1
        return AttributedStringObject(text, runs: [.init(length: first, attributes: plain), .init(length: second, attributes: mention),
                                                   .init(length: units - first - second, attributes: plain)], mutable: true)
    }

    @Test(.enabled(if: sqlite != nil, "sqlite3 is not installed"))
    func aDatabaseDumpReadsBackInOneProcess() throws {
        let seed = TestSeed.resolve("TYPEDSTREAM_TEXT_SEED", label: "TextDatabaseTests")
        var random = SplitMix64(seed: seed)
        let count = 400
        var expected: [String?] = []
        var script = "CREATE TABLE message(ROWID INTEGER PRIMARY KEY, attributedBody BLOB);\nBEGIN;\n"
        for row in 1...count {
            let text = Self.randomText(&random)
            var bytes = try Archiver.archivedBytes(withRootObject: try Self.body(text, &random))
            var blob: String? = nil
            switch row % 100 {
            case 17: bytes = []                                        // NULL
            case 42: bytes.removeLast(1 + Int(random.next() % 5))      // truncated
            case 63: bytes = try Archiver.archivedBytes(withRootObject: NumberObject(int: 5))
            default: expected.append(text); blob = text
            }
            if blob == nil { expected.append(nil) }
            let literal = bytes.isEmpty ? "NULL" : "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
            script += "INSERT INTO message VALUES(\(row), \(literal));\n"
        }
        script += "COMMIT;\n"
        let folder = try TemporaryFolder()
        let database = folder.path + "/chat.db"
        _ = try Self.sqlite3([database], input: Array(script.utf8))
        let dump = try Self.sqlite3(["-separator", "\t", database, "select ROWID, hex(attributedBody) from message"])

        let result = run(["text", "--lines", "hex"], stdin: dump)
        let bad = expected.filter { $0 == nil }.count
        #expect(bad == 12)
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "\(count) records, \(bad) failed\n")
        let records = try result.standardOutput.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(records.count == count)
        for (index, record) in records.enumerated() {
            #expect(record["id"] == .string("\(index + 1)"))
            if let text = expected[index] {
                #expect(record["text"] == .string(text), "row \(index + 1), seed \(seed)")
            } else {
                #expect(record["error"]?["code"] != nil, "row \(index + 1), seed \(seed)")
            }
        }
    }
}
