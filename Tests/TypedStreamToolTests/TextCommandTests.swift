import Testing
import TypedStream
import TypedStreamFoundation
@testable import TypedStreamTool

/// `typedstream text FILE`: the text of a string or attributed-string archive, and its runs.
@Suite struct TextCommandTests {
    /// "👍🏽 hi @Ana ok": a non-BMP emoji with a modifier (4 UTF-16 units), a mention run, and a
    /// dictionary instance shared by the first and last runs.
    static func messageBody(mutable: Bool = true) throws -> [UInt8] {
        let plain = DictionaryObject(stringKeys: [("__kIMMessagePartAttributeName", NumberObject(int: 0))])
        let mention = DictionaryObject(stringKeys: [("__kIMMessagePartAttributeName", NumberObject(int: 0)),
                                                    ("__kIMMentionConfirmedMention", StringObject("+15550001111"))])
        let body = AttributedStringObject("👍🏽 hi @Ana ok", runs: [.init(length: 8, attributes: plain),
                                                               .init(length: 4, attributes: mention),
                                                               .init(length: 3, attributes: plain)], mutable: mutable)
        return try Archiver.archivedBytes(withRootObject: body)
    }

    @Test func anAttributedStringPrintsItsText() throws {
        let result = run(["text", "-"], stdin: try Self.messageBody())
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == "👍🏽 hi @Ana ok\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func runsAreUTF16RangesWithNaturalValues() throws {
        for mutable in [false, true] {
            let result = run(["text", "--runs", "-"], stdin: try Self.messageBody(mutable: mutable))
            #expect(result.exitCode == .success)
            #expect(result.standardOutput == """
                👍🏽 hi @Ana ok
                {"range":[0,8],"attributes":{"__kIMMessagePartAttributeName":0}}
                {"range":[8,4],"attributes":{"__kIMMessagePartAttributeName":0,"__kIMMentionConfirmedMention":"+15550001111"}}
                {"range":[12,3],"attributes":{"__kIMMessagePartAttributeName":0}}

                """)
        }
    }

    @Test func objectValuesShowTheirClass() throws {
        let link = DictionaryObject(stringKeys: [("__kIMLinkAttributeName", URLObject(string: "https://example.com/a")),
                                                 ("data", DataObject([1, 2, 3])), ("when", PlainObject())])
        let body = AttributedStringObject("x", runs: [.init(length: 1, attributes: link)])
        let result = run(["text", "--runs", "-"], stdin: try Archiver.archivedBytes(withRootObject: body))
        #expect(result.exitCode == .success)
        #expect(result.standardOutput.hasPrefix(#"x"# + "\n" + #"{"range":[0,1],"attributes":{"__kIMLinkAttributeName":"https://example.com/a","data":{"$data":"AQID"},"when":{"$class":"NSObject""#))
    }

    @Test func aPlainStringHasNoRuns() throws {
        for mutable in [false, true] {
            let bytes = try Archiver.archivedBytes(withRootObject: StringObject("line one\nline 𝄞 two", mutable: mutable))
            let result = run(["text", "--runs", "-"], stdin: bytes)
            #expect(result.exitCode == .success)
            #expect(result.standardOutput == "line one\nline 𝄞 two\n")
        }
    }

    @Test func otherRootsAreRefusedInOneLine() throws {
        let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["a"]))
        let result = run(["text", "-"], stdin: bytes)
        #expect(result.exitCode == .failure)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "error: <stdin>: the root object is of class NSArray, not a string or an attributed string\n")
    }

    @Test func aDamagedArchiveGivesTheOffset() throws {
        let bytes = try Self.messageBody()
        let result = run(["text", "-"], stdin: Array(bytes.dropLast(3)))
        #expect(result.exitCode == .failure)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: <stdin>: offset 0x"))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test func usageErrors() {
        #expect(run(["text"]).exitCode == .usage)
        #expect(run(["text", "--lines", "octal"]).standardError.contains("invalid value 'octal' for '--lines': expected hex or base64"))
        #expect(run(["text", "--lines", "hex", "some.file"]).exitCode == .usage)
        #expect(run(["text", "--lines", "hex", "-"]).exitCode == .success)
    }
}
