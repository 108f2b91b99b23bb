import Testing
@testable import TypedStreamTool

@Suite("tokens")
struct TokensCommandTests {
    /// The exact listing of ``Samples/arrayWithBool``.
    static let golden = """
        00000000  04 0b 73 74 72 65 61 …   header: streamer version 4, "streamtyped" (little-endian), system version 1000 (int16)
        00000010  84 01 40                 type string "@" (shared #0, new)
        00000013  84                       new object #0
        00000014  84 84 07 4e 53 41 72 …     class NSArray v0 (#1; name: shared #1, new)
        0000001f  84 84 08 4e 53 4f 62 …     class NSObject v0 (#2; name: shared #2, new)
        0000002b  85                         no superclass (end of class chain)
        0000002c  84 01 69                   type string "i" (shared #3, new)
        0000002f  02                         int 2 (inline)
        00000030  92                         type string "@" (reference to shared #0)
        00000031  84                         new object #3
        00000032  84 84 08 4e 53 4e 75 …       class NSNumber v0 (#4; name: shared #4, new)
        0000003e  84 84 07 4e 53 56 61 …       class NSValue v0 (#5; name: shared #5, new)
        00000049  94                           reference to class #2 NSObject
        0000004a  84 01 2a                     type string "*" (shared #6, new)
        0000004d  84 84 01 63                  new C string #6 "c" (shared #7, new)
        00000051  99                           type string "c" (reference to shared #7)
        00000052  01                           byte 0x01 (1)
        00000053  86                         end of object #3 (NSNumber)
        00000054  92                         type string "@" (reference to shared #0)
        00000055  84                         new object #7
        00000056  96                           reference to class #4 NSNumber
        00000057  98                           type string "*" (reference to shared #6)
        00000058  98                           reference to C string #6 "c"
        00000059  99                           type string "c" (reference to shared #7)
        0000005a  00                           byte 0x00 (0)
        0000005b  86                         end of object #7 (NSNumber)
        0000005c  86                       end of object #0 (NSArray)

        """

    @Test func listsEveryTokenExactly() {
        #expect(Samples.arrayWithBool.count == 93)
        let result = run(["tokens", "-"], stdin: Samples.arrayWithBool)
        #expect(result.exitCode == .success)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput == Self.golden)
    }

    @Test func byteLimitControlsTheHexColumn() {
        let all = run(["tokens", "--bytes", "0", "-"], stdin: Samples.arrayWithBool).standardOutput
        #expect(all.hasPrefix("00000000  04 0b 73 74 72 65 61 6d 74 79 70 65 64 81 e8 03 header: "))
        #expect(all.contains("\n00000014  84 84 07 4e 53 41 72 72 61 79 00   class NSArray v0"))
        let two = run(["tokens", "--bytes=2", "-"], stdin: Samples.arrayWithBool).standardOutput
        #expect(two.contains("\n00000010  84 …   type string \"@\""))
        #expect(two.contains("\n00000013  84     new object #0\n"))
    }

    /// A limit beyond the input's size shows what the input's size shows: no overflow (it used
    /// to trap), no gigabytes of padding per line.
    @Test(arguments: ["9223372036854775807", "4294967296", "94"])
    func aHugeByteLimitIsClampedToTheInput(limit: String) {
        let clamped = run(["tokens", "--bytes", "93", "-"], stdin: Samples.arrayWithBool)
        let result = run(["tokens", "--bytes", limit, "-"], stdin: Samples.arrayWithBool)
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == clamped.standardOutput)
        #expect(result.outputBytes.count < 93 * 3 * 40)
    }

    /// Every truncated prefix prints the tokens read so far (a prefix of the full listing, with
    /// the last token possibly missing) and the error with its offset, and exits 1.
    @Test func everyTruncatedPrefixFailsCleanly() {
        let fullLines = Self.golden.split(separator: "\n").map(String.init)
        for length in 0..<Samples.arrayWithBool.count {
            let result = run(["tokens", "-"], stdin: Array(Samples.arrayWithBool.prefix(length)))
            if length == Samples.appleHeader.count {
                // A header and no groups is a complete (empty) archive.
                #expect(result.exitCode == .success)
                continue
            }
            #expect(result.exitCode == .failure, "prefix \(length)")
            #expect(result.standardError.hasPrefix("error: <stdin>: offset 0x"), "prefix \(length): \(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count < fullLines.count)
            #expect(Array(fullLines.prefix(lines.count)) == lines, "prefix \(length)")
        }
    }

    @Test func errorNamesTheOffset() {
        let result = run(["tokens", "-"], stdin: Array(Samples.arrayWithBool.prefix(40)))
        #expect(result.standardError == "error: <stdin>: offset 0x21 (33): the length of a class name 8 runs past the end of the data (6 bytes remain)\n")
        #expect(result.standardOutput.split(separator: "\n").count == 4)
    }

    @Test func foreignAndMissingInput() {
        let plist = run(["tokens", "-"], stdin: Array("bplist00".utf8) + [0, 0])
        #expect(plist.exitCode == .failure)
        #expect(plist.standardOutput.isEmpty)
        #expect(plist.standardError.hasPrefix("error: <stdin>: offset 0x0 (0): this is a binary property list"))
        let missing = run(["tokens", "/nonexistent/typedstream-tool-test"])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError == "error: cannot read '/nonexistent/typedstream-tool-test': No such file or directory\n")
    }

    @Test("meanings of single values", arguments: [
        // (type string, value bytes, expected meaning of the value token)
        ("s", [0x81, 0x2A, 0x00] as [UInt8], "int 42 (int16)"),
        ("q", [0x87, 0, 0, 0, 0, 0, 0, 0, 0x80] as [UInt8], "int -9223372036854775808 (int64)"),
        ("f", [0x83, 0x00, 0x00, 0xC0, 0x3F] as [UInt8], "float 1.5 (IEEE)"),
        ("d", [0x05] as [UInt8], "double 5.0 (written as an integer, inline)"),
        ("+", [0x03, 0x61, 0x0A, 0xFF] as [UInt8], "string \"a\\n\\xff\" (3 bytes, length inline)"),
        ("+", [0x85] as [UInt8], "nil counted bytes (+)"),
        (":", [0x84, 0x04, 0x69, 0x6E, 0x69, 0x74] as [UInt8], "shared string \"init\" (shared #1, new)"),
        (":", [0x85] as [UInt8], "nil shared string"),
        ("%", [0x92] as [UInt8], "reference to shared string #0 \"%\""),
        ("*", [0x85] as [UInt8], "NULL C string"),
        ("@", [0x85] as [UInt8], "nil object"),
        ("#", [0x85] as [UInt8], "no superclass (end of class chain)"),
        ("[3c]", [0x41, 0x00, 0x42] as [UInt8], "3 raw bytes \"A\\x00B\""),
    ])
    func meaning(type: String, value: [UInt8], expected: String) {
        let bytes = Samples.appleHeader + [0x84, UInt8(type.utf8.count)] + Array(type.utf8) + value
        let result = run(["tokens", "-"], stdin: bytes)
        #expect(result.exitCode == .success, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last.map { String($0.dropFirst(35)) } == expected)
    }
}
