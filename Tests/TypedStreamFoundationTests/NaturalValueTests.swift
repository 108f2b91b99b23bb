import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Natural values: what typed objects mean, cycle- and depth-safe; and the way back, building
/// archivable objects from natural values.
@Suite("Natural values and the builder")
struct NaturalValueTests {
    @Test func sharedObjectsAppearOncePerUse() {
        let shared = StringObject("x")
        #expect(naturalValue(of: ArrayObject([shared, shared])) == .array([.string("x"), .string("x")]))
    }

    @Test func cyclesAreCut() throws {
        let array = ArrayObject()
        array.elements = [array, StringObject("x"), nil]
        let expected = NaturalValue.array([.object(className: "NSArray", description: "<cycle>"), .string("x"), .nilObject])
        #expect(naturalValue(of: array) == expected)
        // The cycle survives the archive: the inner element is a reference to the array itself.
        let bytes = try archived(array)
        let decoded = try #require(try decodedRoot(bytes) as? ArrayObject)
        let inner = try #require(decoded.elements.first ?? nil)
        let isItself = inner === decoded
        #expect(isItself)
        #expect(naturalValue(of: decoded) == expected)
        #expect(try archived(decoded) == bytes)
    }

    @Test func sharedObjectsRepeatedPastTheBudgetAreMarked() {
        // Level k holds level k − 1 twice: 2^40 strings at the bottom, a few objects in memory.
        var level: AnyObject = StringObject("lol")
        for _ in 0..<40 { level = ArrayObject([level, level]) }
        func count(_ value: NaturalValue, _ marked: inout Int) -> Int {
            switch value {
            case .array(let items): return 1 + items.reduce(0) { $0 + count($1, &marked) }
            case .object(_, let description) where description == "<over budget>": marked += 1; return 1
            default: return 1
            }
        }
        var marked = 0
        let converted = count(naturalValue(of: level, maximumDepth: 64, maximumObjects: 1_000), &marked)
        // 1 000 objects converted, and one marker where each further one was met.
        #expect(marked > 0)
        #expect(converted - marked == 1_000)
        #expect(NaturalValue.defaultMaximumObjects == 1 << 24)
    }

    @Test func cyclesAreCutDeepInAPath() {
        // A chain 100 arrays deep whose innermost array holds the 80th: found through the part
        // of the path kept in a set (below the first 64 objects).
        let arrays = (0..<100).map { _ in ArrayObject() }
        for index in 0..<99 { arrays[index].elements = [arrays[index + 1]] }
        arrays[99].elements = [arrays[80], StringObject("end")]
        var natural = naturalValue(of: arrays[0], maximumDepth: 1_000)
        var depth = 0
        while case .array(let items) = natural, let first = items.first, case .array = first {
            natural = first
            depth += 1
        }
        #expect(depth == 99)
        #expect(natural == .array([.object(className: "NSArray", description: "<cycle>"), .string("end")]))
        // The shallow part too: a cycle back to the 10th.
        arrays[99].elements = [arrays[10]]
        natural = naturalValue(of: arrays[0], maximumDepth: 1_000)
        depth = 0
        while case .array(let items) = natural, let first = items.first, case .array = first {
            natural = first
            depth += 1
        }
        #expect(depth == 99)
        #expect(natural == .array([.object(className: "NSArray", description: "<cycle>")]))
        for array in arrays { array.elements = [] }  // break the cycle for the allocator
    }

    @Test func depthIsLimited() {
        var value: AnyObject = StringObject("core")
        for _ in 0..<200 { value = ArrayObject([value]) }
        var natural = naturalValue(of: value, maximumDepth: 10)
        var depth = 0
        while case .array(let items) = natural, let first = items.first {
            natural = first
            depth += 1
        }
        #expect(depth == 10)
        #expect(natural == .object(className: "NSArray", description: "<too deep>"))
        // The default limit is generous enough for ordinary documents.
        #expect(NaturalValue(ArrayObject([ArrayObject(strings: ["a"])])) == .array([.array([.string("a")])]))
    }

    @Test func genericAndPlainObjects() {
        let generic = GenericObject()
        generic.archiveClassChain = [ArchiveClassLink("MyThing", version: 3), .nsObject]
        #expect(naturalValue(of: generic) == .object(className: "MyThing", description: generic.description))
        #expect(naturalValue(of: PlainObject()) == .object(className: "NSObject", description: ""))
        #expect(naturalValue(of: nil) == .nilObject)
        let odd = ValueObject(objCType: "{?=ii}", value: .structure([.integer(1, width: nil), .integer(2, width: nil)]))
        #expect(naturalValue(of: odd) == .object(className: "NSValue", description: "NSValue({?=ii})"))
    }

    @Test func numbersByKind() throws {
        #expect(naturalValue(of: NumberObject(bool: false)) == .bool(false))
        #expect(naturalValue(of: try NumberObject(.int(42), objCType: "i")) == .number(.int(42)))
        #expect(naturalValue(of: try NumberObject(.int(-5), objCType: "c")) == .number(.int(-5)))
        #expect(naturalValue(of: try NumberObject(.uint(7), objCType: "C")) == .number(.uint(7)))
        // A `c` number holding 1 is indistinguishable from @YES.
        let charOne = try NumberObject(.int(1), objCType: "c")
        #expect(naturalValue(of: try decodedRoot(archived(charOne))) == .bool(true))
    }

    /// The builder writes what the explicit constructors write: `@[@YES, @NO]` is the 93-byte
    /// worked example.
    @Test func builderMatchesExplicitConstruction() throws {
        let built = try FoundationBuilder.object(from: .array([.bool(true), .bool(false)]))
        #expect(try archived(built) == archived(ArrayObject([NumberObject(bool: true), NumberObject(bool: false)])))
        #expect(try archived(built).count == 93)

        let dictionary = try FoundationBuilder.object(from: .dictionary([.init(.string("k"), .number(.int(1)))]))
        #expect(try archived(dictionary) == archived(DictionaryObject(stringKeys: [("k", NumberObject(int: 1))])))

        let strings = try FoundationBuilder.object(from: .array([.string("a"), .string("b")]))
        #expect(try archived(strings) == archived(ArrayObject(strings: ["a", "b"])))

        let url = try FoundationBuilder.object(from: .url(URL(string: "b", relativeTo: URL(string: "https://a/"))!))
        #expect(try archived(url) == archived(URLObject(string: "b", base: URLObject(string: "https://a/"))))
    }

    /// Every kind of natural value survives builder → archive → unarchiver → natural value.
    @Test func everyKindRoundTrips() throws {
        let value = NaturalValue.dictionary([
            .init(.string("string"), .string("Grüße 👍🏽")),
            .init(.string("data"), .data(Data([0, 1, 0xFF]))),
            .init(.string("date"), .date(Date(timeIntervalSinceReferenceDate: 700_000_000.523))),
            .init(.string("url"), .url(URL(string: "https://example.com/a?b=c")!)),
            .init(.string("numbers"), .array([.number(.int(-9_000_000_000)), .number(.uint(.max)), .number(.double(0.1)),
                                              .number(.float(2.5)), .bool(true)])),
            .init(.string("geometry"), .array([.geometry(.point(x: 1, y: 2)), .geometry(.size(width: 0.5, height: 3)),
                                               .geometry(.rect(x: 1, y: 2, width: 3, height: 4)),
                                               .geometry(.range(location: 3, length: 1 << 40))])),
            .init(.string("set"), .set([.string("b"), .string("a")])),
            .init(.null, .nilObject),
            .init(.string("text"), .attributedString(.init(string: "👍🏽 e\u{301}", runs: [
                .init(range: 0..<4, attributes: [.init(.string("bold"), .bool(true))]),
                .init(range: 4..<5, attributes: []),
                .init(range: 5..<7, attributes: [.init(.string("bold"), .bool(true))]),
            ]))),
        ])
        let object = try FoundationBuilder.object(from: value)
        let bytes = try archived(object)
        let decoded = try decodedRoot(bytes)
        #expect(naturalValue(of: decoded) == value)
        #expect(try archived(decoded) == bytes)
        // Equal attribute sets share one dictionary, so the third run only repeats number 1.
        let text = try #require((decoded as? DictionaryObject)?["text"] as? AttributedStringObject)
        let sharesDictionary = text.attributeRuns[0].attributes === text.attributeRuns[2].attributes
        #expect(sharesDictionary)
    }

    @Test func geometryEncodings() throws {
        let narrow = try #require(try FoundationBuilder.object(from: .geometry(.point(x: 1.5, y: 2)), geometryEncoding: .nsFloat32) as? ValueObject)
        #expect(narrow.objCType == "{_NSPoint=ff}")
        #expect(naturalValue(of: try decodedRoot(archived(narrow))) == .geometry(.point(x: 1.5, y: 2)))
    }

    @Test(arguments: [
        SourcedRow(NaturalValue.object(className: "NSView", description: "")),
        SourcedRow(.nilObject),
        SourcedRow(.array([.object(className: "NSView", description: "")])),
        SourcedRow(.attributedString(.init(string: "abc", runs: [.init(range: 0..<2, attributes: [])]))),
        SourcedRow(.attributedString(.init(string: "abc", runs: [.init(range: 1..<3, attributes: [])]))),
        SourcedRow(.attributedString(.init(string: "ab", runs: [.init(range: 0..<1, attributes: []), .init(range: 2..<2, attributes: [])]))),
    ])
    func builderRejects(_ row: SourcedRow<NaturalValue>) {
        #expect(throws: CoderError(.invalidValue, ""), sourceLocation: row.location) {
            try FoundationBuilder.object(from: row.payload)
        }
    }

    @Test func attributedRunsAsDictionaries() {
        let attributes = DictionaryObject(stringKeys: [("a", NumberObject(int: 1)), ("a", NumberObject(int: 2))])
        let text = AttributedStringObject("xy", runs: [.init(length: 2, attributes: attributes)])
        #expect(text.runs.count == 1)
        // A later duplicate key wins in the dictionary view; the natural value keeps both.
        #expect(text.runs[0].attributes == ["a": .number(.int(2))])
        guard case .attributedString(let natural) = naturalValue(of: text) else { Issue.record("not an attributed string"); return }
        #expect(natural.runs[0].attributes.count == 2)
    }
}
