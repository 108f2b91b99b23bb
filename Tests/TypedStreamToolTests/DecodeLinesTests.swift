import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool

/// `typedstream decode --lines hex|base64 --plain|--json`: records `ID<TAB>BLOB` in, one JSON
/// line per record out holding the document `decode --plain` or `decode --json` prints for the
/// blob, in input order, with the record errors, summary and exit status of `text --lines`.
@Suite struct DecodeLinesTests {
    static let plainString = try! Archiver.archivedBytes(withRootObject: StringObject("plain \"q\""))
    static let array = try! Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["x", "y"]))

    /// Good records and every kind of bad one, with a blank line and a CR line end.
    static func mixedInput() throws -> [UInt8] {
        let body = try TextCommandTests.messageBody()
        return Array([
            "1\t" + TextLinesTests.hex(plainString),
            "2\t",                                                       // NULL column
            "3\t" + TextLinesTests.hex(body).lowercased(),
            "4\tZZ",                                                     // not hex
            "no tab",
            "",                                                          // blank: ignored
            "5\t" + TextLinesTests.hex(Array(body.dropLast(2))),         // truncated archive
            "6\t" + TextLinesTests.hex(array) + "\r",
        ].joined(separator: "\n").utf8)
    }

    /// The document `decode --plain` or `decode --json` prints for `bytes`, parsed.
    static func document(_ flag: String, _ bytes: [UInt8]) throws -> JSONValue {
        let result = run(["decode", flag, "-"], stdin: bytes)
        #expect(result.exitCode == .success)
        return try JSONValue.parse(Array(result.standardOutput.utf8))
    }

    @Test func plainLinesHoldWhatDecodePlainPrints() throws {
        let result = run(["decode", "--lines", "hex", "--plain"], stdin: try Self.mixedInput())
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "7 records, 4 failed\n")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 8 && lines.last == "")
        #expect(lines[0] == #"{"id":"1","plain":{"systemVersion":1000,"values":["plain \"q\""]}}"#)
        #expect(lines[1] == #"{"id":"2","error":{"code":"emptyBlob","offset":null,"reason":"empty blob (a NULL column)"}}"#)
        #expect(lines[3] == #"{"id":"4","error":{"code":"badHex","offset":0,"reason":"the blob has a character that is not a hex digit (byte 0x5a)"}}"#)
        #expect(lines[4] == #"{"id":"no tab","error":{"code":"badRecord","offset":null,"reason":"the line has no tab between the id and the blob"}}"#)
        #expect(lines[6] == #"{"id":"6","plain":{"systemVersion":1000,"values":[["x","y"]]}}"#)
        // One line each, and the member is the document of 'decode --plain'.
        let records = try lines.dropLast().map { try JSONValue.parse(Array($0.utf8)) }
        #expect(records.map { $0["id"] } == ["1", "2", "3", "4", "no tab", "5", "6"].map { JSONValue.string($0) })
        #expect(records[2]["plain"] == (try Self.document("--plain", TextCommandTests.messageBody())))
        #expect(records[6]["plain"] == (try Self.document("--plain", Self.array)))
        // The damaged archive: the offset and reason 'decode FILE' reports.
        let cut = Array(try TextCommandTests.messageBody().dropLast(2))
        let single = run(["decode", "--plain", "-"], stdin: cut)
        #expect(single.exitCode == .failure)
        #expect(records[5]["error"]?["code"] == .string("malformed"))
        guard case .number(let offset)? = records[5]["error"]?["offset"], case .string(let reason)? = records[5]["error"]?["reason"] else {
            Issue.record("no offset in \(lines[5])")
            return
        }
        #expect(single.standardError.hasSuffix("(\(offset)): \(reason)\n"), "\(single.standardError)")
    }

    @Test func jsonLinesAreLosslessAndEncodeBack() throws {
        let body = try TextCommandTests.messageBody()
        let input = Array(("a\t" + TextLinesTests.hex(body) + "\nb\t" + Data(Self.array).base64EncodedString() + "\n").utf8)
        let hex = run(["decode", "--lines", "hex", "--json"], stdin: input)
        #expect(hex.exitCode == .failure)
        #expect(hex.standardError == "2 records, 1 failed\n")
        let records = try TextLinesTests.records(hex)
        #expect(records[0]["json"] == (try Self.document("--json", body)))
        #expect(records[1]["error"]?["code"] == .string("badHex"))
        // The member is the lossless document: 'encode' writes the blob back byte for byte.
        let member = try #require(records[0]["json"])
        let encoded = run(["encode", "-"], stdin: member.text(pretty: false))
        #expect(encoded.exitCode == .success)
        #expect(encoded.outputBytes == body)

        let base64 = run(["decode", "--lines", "base64", "--json"], stdin: Array(("b\t" + Data(Self.array).base64EncodedString()).utf8))
        #expect(base64.exitCode == .success)
        #expect(base64.standardOutput == #"{"id":"b","json":"# + String(decoding: try Self.document("--json", Self.array).text(pretty: false), as: UTF8.self) + "}\n")
    }

    @Test func idsThatNeedEscapesAreEscaped() throws {
        let input = Array(("a\"b\\c\t\nd\u{1}é\t\n").utf8)
        let result = run(["decode", "--lines", "hex", "--plain"], stdin: input)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix(while: { $0 != "," }) } == [#"{"id":"a\"b\\c""#, #"{"id":"d\u0001é""#])
    }

    @Test(arguments: [
        (["decode", "--lines", "hex"], "'--lines' writes one JSON line per record: add '--plain' or '--json'"),
        (["decode", "--lines", "hex", "--stats"], "'--lines' writes one JSON line per record: add '--plain' or '--json'"),
        (["decode", "--lines", "hex", "--plain", "--json"], "choose one of '--stats', '--json' and '--plain'"),
        (["decode", "--lines", "octal", "--plain"], "invalid value 'octal' for '--lines': expected hex or base64"),
        (["decode", "--lines", "hex", "--plain", "file"], "'--lines' reads standard input; give no FILE (or '-')"),
        (["decode", "--plain", "--shard", "1/2", "file"], "'--shard' splits the records of '--lines'; one archive is not split"),
        (["decode", "--lines", "hex", "--json", "--deep"], "'--deep' goes with the tree or '--plain'"),
    ])
    func misuseIsAUsageError(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func deepPlainRecordsDecodeNestedArchives() throws {
        let inner = Self.plainString
        let outer = try Archiver.archivedBytes(withRootObject: DataObject(inner))
        let input = Array(("1\t" + TextLinesTests.hex(outer)).utf8)
        let deep = try TextLinesTests.records(run(["decode", "--lines", "hex", "--plain", "--deep"], stdin: input))
        let flat = try TextLinesTests.records(run(["decode", "--lines", "hex", "--plain"], stdin: input))
        #expect(deep[0]["plain"] == (try Self.document("--plain", outer, deep: true)))
        #expect(flat[0]["plain"] == (try Self.document("--plain", outer)))
        #expect(deep[0]["plain"] != flat[0]["plain"])
    }

    static func document(_ flag: String, _ bytes: [UInt8], deep: Bool) throws -> JSONValue {
        let result = run(["decode", flag] + (deep ? ["--deep"] : []) + ["-"], stdin: bytes)
        #expect(result.exitCode == .success)
        return try JSONValue.parse(Array(result.standardOutput.utf8))
    }
}
