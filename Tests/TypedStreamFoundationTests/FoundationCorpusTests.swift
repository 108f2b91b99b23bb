import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// The real archives of the shared corpus: every object of a class with a codec decodes typed,
/// every Apple-written file (system version 1000) re-encodes byte for byte through the coder,
/// and the natural values of the small Foundation samples are what their names say.
@Suite("Foundation codecs: corpus", .needsCorpus)
struct FoundationCorpusTests {
    /// Classes that must never stay generic in the corpus.
    static let codecClasses: Set<String> = [
        "NSObject", "NSString", "NSMutableString", "NSArray", "NSMutableArray",
        "NSData", "NSMutableData", "NSDate", "NSValue", "NSNumber", "NSSet", "NSMutableSet",
        "NSDictionary", "NSMutableDictionary", "NSNull", "NSURL", "NSAttributedString", "NSMutableAttributedString",
    ]

    /// The corpus files as (path relative to the corpus, bytes), or nil when absent.
    static func corpusFiles() -> [(name: String, bytes: [UInt8])]? { loadedFiles }

    private static let loadedFiles: [(name: String, bytes: [UInt8])]? = {
        guard let corpus = CorpusFontPlists.corpusDirectory else { return nil }
        return CorpusFontPlists.archiveFiles(in: corpus).compactMap { url in
            guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return (String(url.path.dropFirst(corpus.path.count + 1)), [UInt8](data))
        }
    }()

    @Test func everyCodecClassDecodesTypedAndAppleFilesReencodeExactly() throws {
        let files = try #require(Self.corpusFiles())
        #expect(files.count > 90)
        var totals = ArchiveStatistics()
        var identical = 0, apple = 0
        for (name, bytes) in files {
            let archive: Archive
            do { archive = try ArchiveReader.read(bytes) } catch {
                // Only the two files damaged on purpose may fail to read.
                #expect(name.contains("malformed"), "\(name): \(error)")
                print("unreadable (expected): \(name)")
                continue
            }
            let stats = try ArchiveStatistics.compute(archive: archive, registry: .foundation)
            for (className, count) in stats.perClass where Self.codecClasses.contains(className) {
                #expect(count.generic == 0, "\(name): \(count.generic) \(className) objects stayed generic; \(stats.warnings)")
            }
            totals.objects += stats.objects
            totals.typed += stats.typed
            totals.generic += stats.generic
            for (className, count) in stats.perClass {
                totals.perClass[className, default: .init()].typed += count.typed
                totals.perClass[className, default: .init()].generic += count.generic
            }
            let again = try reencoded(bytes)
            let same = again == bytes
            if archive.header.systemVersion.value >= 1000 {
                apple += 1
                #expect(same, "\(name): first difference at \(firstDifference(again, bytes) ?? -1)")
            }
            if same { identical += 1 }
            let share = String(format: "%5.1f", stats.typedShare * 100)
            print("\(share) % typed (\(stats.typed)/\(stats.objects))  \(same ? "identical" : "differs  ")  \(name)")
        }
        print("corpus: \(totals.typed)/\(totals.objects) objects typed; \(identical) files re-encode identically (\(apple) Apple-written)")
        let codecCounts = totals.perClass.filter { Self.codecClasses.contains($0.key) }.sorted { $0.key < $1.key }
        print(codecCounts.map { "\($0.key) \($0.value.typed)" }.joined(separator: ", "))
        // The counts the format notes' replay reports for the same files.
        #expect(totals.perClass["NSString"]?.typed == 8494)
        #expect(totals.perClass["NSNumber"]?.typed == 873)
        #expect(totals.perClass["NSAttributedString"]?.typed == 56)
        #expect(totals.perClass["NSURL"]?.typed == 11)
        #expect(totals.perClass["NSValue"]?.typed == 10)
    }

    /// Decoding with type strings carried over from every file before
    /// (`Unarchiver(bytes:registry:compiled:)`) gives what a fresh decoder gives: the same
    /// natural value of the root, or the same error.
    @Test func carriedTypeStringsDecodeTheSame() throws {
        let files = try #require(Self.corpusFiles())
        func outcome(_ make: () throws -> Unarchiver) -> String {
            do {
                return "\(naturalValue(of: try make().decodeRootObject()))"
            } catch {
                return "error: \(error)"
            }
        }
        var compiled = CompiledTypeStrings()
        var decoded = 0
        for (name, bytes) in files {
            let fresh = outcome { try Unarchiver(bytes: bytes, registry: .foundation) }
            let carried = outcome { try Unarchiver(bytes: bytes, registry: .foundation, compiled: &compiled) }
            #expect(carried == fresh, "\(name)")
            if !fresh.hasPrefix("error: ") { decoded += 1 }
        }
        #expect(decoded > 50)
        #expect(compiled.count > 10)
    }

    static func url(_ string: String, relativeTo base: String? = nil) -> NaturalValue {
        .url(URL(string: string, relativeTo: base.flatMap { URL(string: $0) })!)
    }

    static let expectedNaturalValues: [SourcedRow<(String, NaturalValue)>] = [
        SourcedRow(("foundation-NSArray", .array([.string("a"), .number(.int(1)), .string("b")]))),
        SourcedRow(("foundation-NSArrayEmpty", .array([]))),
        SourcedRow(("foundation-NSArrayNested", .array([.string("top"), .array([.number(.int(1)), .number(.int(2))])]))),
        SourcedRow(("foundation-NSArrayWithNull", .array([.string("x"), .null, .string("y")]))),
        SourcedRow(("foundation-NSAttributedString", .attributedString(.init(string: "Hello, world", runs: [.init(range: 0..<12, attributes: [])])))),
        SourcedRow(("foundation-NSDate", .date(Date(timeIntervalSinceReferenceDate: 21_692_800)))),
        SourcedRow(("foundation-NSDateFractional", .date(Date(timeIntervalSinceReferenceDate: 700_000_000.523)))),
        SourcedRow(("foundation-NSDictionary", .dictionary([.init(.string("k2"), .string("v")), .init(.string("k1"), .number(.int(1)))]))),
        SourcedRow(("foundation-NSMutableDictionary", .dictionary([.init(.string("key"), .number(.int(9)))]))),
        SourcedRow(("foundation-NSMutableSet", .set([.string("m1")]))),
        SourcedRow(("foundation-NSSet", .set([.string("s2"), .string("s1")]))),
        SourcedRow(("foundation-NSString", .string("Hello, world"))),
        SourcedRow(("foundation-NSMutableString", .string("Hello, world"))),
        SourcedRow(("foundation-NSURL", url("https://example.com/path?q=1"))),
        SourcedRow(("foundation-NSURLRelative", url("page.html", relativeTo: "https://example.com/dir/"))),
        SourcedRow(("foundation-NestedScalars", .array([.date(Date(timeIntervalSinceReferenceDate: 21_692_800)), url("https://example.com/path?q=1"),
                                                        url("page.html", relativeTo: "https://example.com/dir/"), .null]))),
        SourcedRow(("foundation-NestedStrings", .array([.string("imm"), .string("mut")]))),
        SourcedRow(("foundation-NumberBool", .bool(true))),
        SourcedRow(("foundation-NumberDouble", .number(.double(100.5)))),
        SourcedRow(("foundation-NumberFloat", .number(.float(3.5)))),
        SourcedRow(("foundation-NumberInt", .number(.int(42)))),
        SourcedRow(("foundation-NumberInt64", .number(.int(-9_000_000_000)))),
        // An empty body: an empty string has no runs.
        SourcedRow(("imsg-Blank", .attributedString(.init(string: "", runs: [])))),
    ]

    @Test(arguments: expectedNaturalValues)
    func naturalValues(_ row: SourcedRow<(String, NaturalValue)>) throws {
        let files = try #require(Self.corpusFiles())
        let (stem, expected) = row.payload
        let file = try #require(files.first { $0.name.hasSuffix("/\(stem).typedstream") }, sourceLocation: row.location)
        let root = try decodedRoot(file.bytes)
        let value = naturalValue(of: root)
        #expect(value == expected, sourceLocation: row.location)
        // Built back from the natural value, the archive decodes to the same value.
        let rebuilt = try archived(FoundationBuilder.object(from: value))
        #expect(naturalValue(of: try decodedRoot(rebuilt)) == expected, sourceLocation: row.location)
    }

    @Test func foundationDataSamples() throws {
        let files = try #require(Self.corpusFiles())
        for stem in ["foundation-NSData", "foundation-NSMutableData"] {
            let file = try #require(files.first { $0.name.hasSuffix("/\(stem).typedstream") })
            let data = try #require(try decodedRoot(file.bytes) as? DataObject)
            #expect(data.isMutable == stem.contains("Mutable"))
            #expect(!data.bytes.isEmpty)
            // The decoded bytes are the ones at the end of the file, before the end-of-object marker.
            #expect(Array(file.bytes[(file.bytes.count - 1 - data.bytes.count)..<(file.bytes.count - 1)]) == Array(data.bytes))
        }
    }

    /// iMessage bodies: the runs cover the text in UTF-16 units; links decode to URLs.
    @Test func attributedStringSamples() throws {
        let files = try #require(Self.corpusFiles())
        var checked = 0
        for file in files where file.name.hasPrefix("attributed-string/imsg-") && !file.name.contains("malformed") {
            let text = try #require(try decodedRoot(file.bytes) as? AttributedStringObject, "\(file.name)")
            let runs = text.runs
            #expect(runs.last?.range.upperBound ?? 0 == text.string.utf16.count, "\(file.name)")
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound }, "\(file.name)")
            checked += 1
        }
        #expect(checked >= 30)

        let email = try #require(files.first { $0.name.hasSuffix("imsg-Email.typedstream") })
        let text = try #require(try decodedRoot(email.bytes) as? AttributedStringObject)
        #expect(text.string == "asdfghjklq@gmail.com might work")
        #expect(text.runs.map(\.range) == [0..<20, 20..<31])
        #expect(text.runs[0].attributes["__kIMLinkAttributeName"] == .url(URL(string: "mailto:asdfghjklq@gmail.com")!))
        #expect(text.runs[0].attributes["__kIMMessagePartAttributeName"] == .number(.int(0)))
        #expect(text.runs[1].attributes == ["__kIMMessagePartAttributeName": .number(.int(0))])
        // The NSNumber 0 is one shared instance in both dictionaries.
        let first = try #require(text.attributeRuns[0].attributes?["__kIMMessagePartAttributeName"])
        let second = try #require(text.attributeRuns[1].attributes?["__kIMMessagePartAttributeName"])
        let same = first === second
        #expect(same)
    }

    /// Grapher documents hold NSValues of `{CGSize=dd}` whose C string is shared.
    @Test func grapherSizes() throws {
        let files = try #require(Self.corpusFiles())
        let file = try #require(files.first { $0.name.hasSuffix("grapher-Empty2D-macOS-13.gcx.typedstream") })
        let root = try #require(try decodedRoot(file.bytes) as? DictionaryObject)
        let size = try #require(root["DocumentBottomSplitSize"] as? ValueObject)
        #expect(size.objCType == "{CGSize=dd}")
        #expect(size.geometry == .size(width: 826, height: 615))
    }
}
