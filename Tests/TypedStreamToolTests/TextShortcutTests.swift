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
        ]
    }

    @Test func usualBodiesTakeTheShortcut() throws {
        var shortcut = MessageTextShortcut()
        var compiled = CompiledTypeStrings()
        #expect(shortcut.text(of: try TextCommandTests.messageBody(), compiled: &compiled) == "👍🏽 hi @Ana ok")
        #expect(shortcut.text(of: try Archiver.archivedBytes(withRootObject: StringObject("plain")), compiled: &compiled) == "plain")
        #expect(shortcut.text(of: try Archiver.archivedBytes(withRootObject: ArrayObject(strings: ["x"])), compiled: &compiled) == nil)
    }

    @Test func theShortcutAgreesWithTheTypedDecode() throws {
        for body in try Self.bodies() {
            let (shortcut, typed) = Self.bothWays(body)
            #expect(shortcut == typed)
        }
    }

    /// Every truncated prefix, and every one-byte change, of a message body.
    @Test func damagedBodiesGiveTheTypedDecodesErrors() throws {
        let body = try TextCommandTests.messageBody()
        for end in 0..<body.count {
            let (shortcut, typed) = Self.bothWays(Array(body[..<end]))
            #expect(shortcut == typed, "prefix of \(end) bytes")
        }
        for at in body.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = body
                damaged[at] ^= change
                let (shortcut, typed) = Self.bothWays(damaged)
                #expect(shortcut == typed, "byte \(at) ^ \(change)")
            }
        }
    }

    @Test(.needsCorpus) func corpusBodiesAgree() throws {
        for path in TextCorpusTests.paths() {
            let (shortcut, typed) = Self.bothWays(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(shortcut == typed, "\(path)")
        }
    }
}
