import Testing
import TypedStream
import TypedStreamFoundation
@testable import TypedStreamExport

/// Attributed strings written straight from their tokens (`PlainJSONConverter+Attributed.swift`)
/// against their typed decoding through the hook: the same bytes for the usual shapes and for
/// every shape that must take the hook's way.
struct PlainJSONAttributedTests {
    static func number(_ value: NumberValue) -> NumberObject { NumberObject(value) }

    /// Archives of attributed strings in the shapes the direct way reads, and some it refuses.
    static func archives() throws -> [(name: String, bytes: [UInt8])] {
        let sharedKey = StringObject("__kIMMessagePartAttributeName")
        func dictionary(_ pairs: [(AnyObject?, AnyObject?)]) -> DictionaryObject {
            let d = DictionaryObject()
            d.entries = pairs.map { DictionaryObject.Entry(key: $0.0, value: $0.1) }
            return d
        }
        let first = dictionary([(sharedKey, number(.int(0))), (StringObject("bold"), number(.bool(true)))])
        let second = dictionary([(sharedKey, number(.int(1))), (StringObject("link"), StringObject("https://example.com/ü")),
                                 (StringObject("none"), nil), (StringObject("ratio"), number(.double(0.25))),
                                 (StringObject("f"), number(.float(1.5))), (StringObject("big"), number(.uint(UInt64.max))),
                                 (StringObject("url"), URLObject(string: "https://example.com/jürgen/14491")),
                                 (StringObject("odd url"), URLObject(string: "not a [url"))])
        let text = "👍🏽 ok Ünïcödé 中文"
        let shared = AttributedStringObject(text, runs: [.init(length: 3, attributes: first), .init(length: 4, attributes: second),
                                                         .init(length: text.utf16.count - 7, attributes: first)], mutable: true)
        let withNil = AttributedStringObject("nil runs", runs: [.init(length: 3, attributes: nil), .init(length: 5, attributes: second)])
        let empty = AttributedStringObject("", runs: [])
        let duplicateKeys = AttributedStringObject("dup", runs: [.init(length: 3, attributes: dictionary([(StringObject("a"), number(.int(1))), (StringObject("a"), number(.int(2)))]))])
        // Shapes the direct way leaves to the hook: a non-string key, an array value, a shared
        // dictionary instance in another string.
        let numberKey = AttributedStringObject("nk", runs: [.init(length: 2, attributes: dictionary([(number(.int(7)), number(.int(1)))]))])
        let arrayValue = AttributedStringObject("av", runs: [.init(length: 2, attributes: dictionary([(StringObject("a"), ArrayObject([StringObject("x")]))]))])
        let reusedDictionary = AttributedStringObject("again", runs: [.init(length: 5, attributes: first)])
        let relativeURL = AttributedStringObject("rel", runs: [.init(length: 3, attributes: dictionary([(StringObject("u"), URLObject(string: "a/b", base: URLObject(string: "https://example.com/")))]))])
        let later = AttributedStringObject("later", runs: [.init(length: 5, attributes: dictionary([(sharedKey, number(.int(3)))]))])
        let roots: [(String, AnyObject)] = [
            ("shared", ArrayObject([shared, withNil, empty, duplicateKeys, later, shared, later])),
            ("odd", ArrayObject([numberKey, arrayValue, shared, reusedDictionary, relativeURL, later])),
            ("alone", shared),
        ]
        return try roots.map { ($0.0, try Archiver.archivedBytes(withRootObject: $0.1)) }
    }

    @Test func attributedStringsWriteTheSameDirectlyAsThroughTheHook() throws {
        let files = try Self.archives()
        #expect(try PlainJSONDirectTests.compare(files) == 2 * files.count)
    }

    @Test func attributedStringIsItsStringAndRuns() throws {
        let bytes = try Self.archives()[2].bytes
        let json = try JSONValue.parse(PlainJSON.encode(bytes, options: FoundationPlainJSON.options(pretty: false)))
        guard case .object(let document) = json, case .array(let values)? = document.first(where: { $0.key == "values" })?.value,
              case .object(let members)? = values.first else {
            Issue.record("unexpected document \(json)")
            return
        }
        #expect(members.map(\.key) == ["string", "runs"])
        guard case .array(let runs)? = members.last?.value else {
            Issue.record("no runs")
            return
        }
        #expect(runs.count == 3)
    }
}
