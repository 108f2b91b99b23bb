import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool
import TestSupport

/// `typedstream text --lines hex|base64`: records `ID<TAB>BLOB` in, one JSON line per record
/// out, in input order; bad records are reported and the stream goes on.
@Suite struct TextLinesTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    static func body(_ text: String) throws -> [UInt8] {
        let attributes = DictionaryObject(stringKeys: [("__kIMMessagePartAttributeName", NumberObject(int: 0))])
        return try Archiver.archivedBytes(withRootObject: AttributedStringObject(text, runs: [.init(length: text.utf16.count, attributes: attributes)]))
    }

    /// The JSON lines of standard output, parsed.
    static func records(_ result: CommandResult) throws -> [JSONValue] {
        try result.standardOutput.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test func goodAndBadRecordsInInputOrder() throws {
        let good = try Self.body("hello \"there\"\n👋🏾")
        let input = [
            "7\t" + Self.hex(good),
            "8\t",                                                    // NULL column
            "9\t" + Self.hex(good).lowercased(),
            "10\t" + String(Self.hex(good).dropLast()),               // odd length
            "11\tZZ" + Self.hex(good),                                // not hex
            "no tab here",
            "",                                                       // blank: ignored
            "12\t" + Self.hex(Array(good.dropLast(2))),               // truncated archive
            "13\t" + Self.hex(try Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["x"]))),
            "14\t" + Self.hex(try Archiver.archivedBytes(withRootObject: StringObject("plain"))) + "\r",
        ].joined(separator: "\n")
        let result = run(["text", "--lines", "hex"], stdin: Array(input.utf8))
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "9 records, 6 failed\n")
        let records = try Self.records(result)
        #expect(records.map { $0["id"] } == ["7", "8", "9", "10", "11", "no tab here", "12", "13", "14"].map { JSONValue.string($0) })
        #expect(records[0] == .object([JSONMember("id", .string("7")), JSONMember("text", .string("hello \"there\"\n👋🏾"))]))
        #expect(records[2]["text"] == .string("hello \"there\"\n👋🏾"))
        #expect(records[8]["text"] == .string("plain"))
        let codes = records.map { $0["error"]?["code"] }
        #expect(codes == [nil, .string("emptyBlob"), nil, .string("badHex"), .string("badHex"), .string("badRecord"),
                          .string("malformed"), .string("notText"), nil])
        #expect(records[4]["error"]?["offset"] == .number("0"))
        #expect(records[6]["error"]?["offset"] != .null)
    }

    @Test func runsComeWithTheText() throws {
        let input = "1\t" + Self.hex(try TextCommandTests.messageBody()) + "\n"
        let result = run(["text", "--lines", "hex", "--runs"], stdin: Array(input.utf8))
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == #"{"id":"1","text":"👍🏽 hi @Ana ok","runs":[{"range":[0,8],"attributes":{"__kIMMessagePartAttributeName":0}},{"range":[8,4],"attributes":{"__kIMMessagePartAttributeName":0,"__kIMMentionConfirmedMention":"+15550001111"}},{"range":[12,3],"attributes":{"__kIMMessagePartAttributeName":0}}]}"# + "\n")
        #expect(result.standardError == "1 records, 0 failed\n")
    }

    @Test func base64Records() throws {
        let good = try Self.body("base 64")
        let input = "a\t" + Data(good).base64EncodedString() + "\nb\t!!!\n"
        let result = run(["text", "--lines", "base64"], stdin: Array(input.utf8))
        let records = try Self.records(result)
        #expect(records.count == 2)
        #expect(records[0]["text"] == .string("base 64"))
        #expect(records[1]["error"]?["code"] == .string("badBase64"))
        #expect(result.exitCode == .failure)
    }

    @Test func anOverlongRecordIsAnErrorAndTheStreamGoesOn() throws {
        let good = Self.hex(try Self.body("short"))
        let long = String(repeating: "AB", count: 5000)
        let input = "1\t\(good)\n2\t\(long)\n3\t\(good)\n4\t\(long)"
        let output = CapturedOutput(), errors = CapturedOutput()
        let context = CommandContext(standardInput: Array(input.utf8), output: output, errorOutput: errors, inputLimit: 1000)
        #expect(TypedStreamCommand.run(["text", "--lines", "hex"], in: context) == .failure)
        let records = try output.text.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(records.map { $0["id"] } == ["1", "2", "3", "4"].map { JSONValue.string($0) })
        #expect(records[1]["error"]?["code"] == .string("recordTooLong"))
        #expect(records[3]["error"]?["code"] == .string("recordTooLong"))
        #expect(records[2]["text"] == .string("short"))
        #expect(errors.text == "4 records, 2 failed\n")
    }

    @Test func aClosedPipeEndsQuietly() throws {
        let line = "1\t" + Self.hex(try Self.body(String(repeating: "x", count: 200))) + "\n"
        let output = CapturedOutput(failingAfter: 0, code: EPIPE), errors = CapturedOutput()
        let context = CommandContext(standardInput: Array(String(repeating: line, count: 2000).utf8), output: output, errorOutput: errors)
        #expect(TypedStreamCommand.run(["text", "--lines", "hex"], in: context) == .brokenPipe)
        #expect(errors.bytes.isEmpty)
    }

    @Test func noInputNoRecords() {
        let result = run(["text", "--lines", "hex"])
        #expect(result.exitCode == .success)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "0 records, 0 failed\n")
    }

    /// Hex blobs read as the bytes they spell, in either case, at every length (the word-at-a-
    /// time loop and its tail); a character that is not a hex digit, at any place, refuses the
    /// blob and is the one named.
    @Test func hexBlobsReadAsTheirBytes() {
        var random = SplitMix64(seed: 0x4845_5842)
        func decode(_ text: [UInt8]) -> [UInt8]? { text.withUnsafeBufferPointer { ByteText.bytes(fromHex: $0) } }
        for length in 0...41 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = bytes.map { String(format: Bool.random(using: &random) ? "%02X" : "%02x", $0) }.joined()
            #expect(decode(Array(text.utf8)) == bytes, "\(text)")
            for position in 0..<(2 * length) {
                for bad: UInt8 in [0x00, 0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x7F, 0x80, 0xB0, 0xC6, 0xE6, 0xFF] {
                    var damaged = Array(text.utf8)
                    damaged[position] = bad
                    #expect(decode(damaged) == nil, "\(length) \(position) \(bad)")
                    #expect(damaged.withUnsafeBufferPointer { ByteText.firstNonHexDigit(in: $0) } == position)
                }
            }
        }
        #expect(decode(Array("ABC".utf8)) == nil)
    }

    /// Lines split across chunks of every size come out whole; over-long ones are cut off.
    @Test(arguments: [1, 2, 3, 7, 64])
    func theLineReaderJoinsChunks(chunk: Int) throws {
        let text = Array("one\r\ntwo\n\nthree is long\nfour".utf8)
        var position = 0
        var reader = LineReader(maximumLength: 9) { (buffer: inout [UInt8], maximum: Int) throws(FileReadError) -> Bool in
            let end = min(text.count, position + min(chunk, maximum))
            buffer.append(contentsOf: text[position..<end])
            position = end
            return position == text.count
        }
        var lines: [String] = []
        while let line = try reader.next() {
            switch line {
            case .line(let bytes): lines.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong(let head, let length): lines.append("long \(length) " + String(decoding: head.prefix(5), as: UTF8.self))
            }
        }
        #expect(lines == ["one", "two", "", "long 13 three", "four"])
    }
}
