import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamFoundation
@testable import TypedStreamTool

/// The text of a usual message body read off its tokens (``MessageTextShortcut``): the same
/// text the typed decode gives, and for every other body — damaged ones included — the typed
/// decode's own text or error.
@Suite struct TextShortcutTests {
    /// The text (or the error's code, offset and reason) without runs, where the shortcut may
    /// answer, and with runs, where the typed decode always does.
    static func bothWays(_ bytes: [UInt8]) -> (shortcut: String, typed: String) {
        func outcome(withRuns: Bool) -> String {
            var decoder = MessageText.Decoder()
            decoder.withRuns = withRuns
            do { return "text " + (try decoder.decode(bytes)).string } catch {
                return "error \(error.code) \(error.offset.map(String.init) ?? "-") \(error.reason)"
            }
        }
        return (outcome(withRuns: false), outcome(withRuns: true))
    }

    static func bodies() throws -> [[UInt8]] {
        let plain = DictionaryObject(stringKeys: [("__kIMMessagePartAttributeName", NumberObject(int: 0))])
        let nested = DictionaryObject(stringKeys: [("inner", DictionaryObject(stringKeys: [("n", NumberObject(double: 1.5))]))])
        return [
            try TextCommandTests.messageBody(mutable: true),
            try TextCommandTests.messageBody(mutable: false),
            try Archiver.archivedBytes(withRootObject: StringObject("plain")),
            try Archiver.archivedBytes(withRootObject: StringObject("mutable ü", mutable: true)),
            try Archiver.archivedBytes(withRootObject: AttributedStringObject("", runs: [])),
            try Archiver.archivedBytes(withRootObject: AttributedStringObject("nil attributes", runs: [.init(length: 14, attributes: nil)])),
            try Archiver.archivedBytes(withRootObject: AttributedStringObject("ab", runs: [.init(length: 1, attributes: nested), .init(length: 1, attributes: plain)])),
            try Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["not text"])),
            try Self.largeBody(),
        ]
    }

    /// A body over ``MessageTextShortcut/largestBody`` bytes (left to the typed decode).
    static func largeBody() throws -> [UInt8] {
        let text = String(repeating: "long ", count: MessageTextShortcut.largestBody / 4)
        return try Archiver.archivedBytes(withRootObject: AttributedStringObject(text, runs: [.init(length: text.utf16.count, attributes: nil)]))
    }

    @Test func usualBodiesTakeTheShortcut() throws {
        var shortcut = MessageTextShortcut()
        var compiled = CompiledTypeStrings()
        #expect(shortcut.text(of: try TextCommandTests.messageBody(), compiled: &compiled) == "👍🏽 hi @Ana ok")
        #expect(shortcut.text(of: try Archiver.archivedBytes(withRootObject: StringObject("plain")), compiled: &compiled) == "plain")
        #expect(shortcut.text(of: try Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["x"])), compiled: &compiled) == nil)
        #expect(shortcut.text(of: try Self.largeBody(), compiled: &compiled) == nil)
    }

    @Test func theShortcutAgreesWithTheTypedDecode() throws {
        for body in try Self.bodies() {
            let (shortcut, typed) = Self.bothWays(body)
            #expect(shortcut == typed)
        }
    }

    /// Every truncated prefix, and every one-byte change, of a message body: the typed decode's
    /// error, except where the change lies inside an attribute dictionary and still reads as
    /// tokens — the shortcut skips the dictionaries, so it gives the text where the typed decode
    /// finds the dictionary's contents wrong.
    @Test func damagedBodiesGiveTheTypedDecodesErrors() throws {
        let body = try TextCommandTests.messageBody()
        let firstRun = try #require(body.indices.first { body[$0...].starts(with: [0x84, 0x02, 0x69, 0x49]) })  // "iI"
        for end in 0..<body.count {
            let (shortcut, typed) = Self.bothWays(Array(body[..<end]))
            #expect(shortcut == typed, "prefix of \(end) bytes")
        }
        var skipped = 0
        for at in body.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = body
                damaged[at] ^= change
                let (shortcut, typed) = Self.bothWays(damaged)
                if shortcut == typed { continue }
                // Only a codec's complaint about a dictionary's contents, after the string.
                #expect(shortcut == "text 👍🏽 hi @Ana ok", "byte \(at) ^ \(change)")
                let offset = typed.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }
                #expect(at > firstRun && (offset ?? 0) > firstRun, "byte \(at) ^ \(change): \(typed)")
                skipped += 1
            }
        }
        #expect(skipped < 10)
    }

    @Test(.needsCorpus) func corpusBodiesAgree() throws {
        for path in TextCorpusTests.paths() {
            let (shortcut, typed) = Self.bothWays(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(shortcut == typed, "\(path)")
        }
    }
}
