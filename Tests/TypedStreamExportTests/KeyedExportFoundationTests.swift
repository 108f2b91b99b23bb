import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// Hand-made typedstreams (written by our Archiver) exported to keyed archives and read back by
/// Foundation's own NSKeyedUnarchiver, PropertyListSerialization and Python's plistlib.
@Suite("Keyed export: read back by Foundation")
struct KeyedExportFoundationTests {
    static let bold = NaturalValue.Entry(.string("NSFont"), .string("bold"))

    static let values: [(String, NaturalValue)] = [
        ("string", .string("hello")),
        ("unicode string", .string("wörld ✓ 👍🏽")),
        ("empty string", .string("")),
        ("numbers", .array([.number(.int(-42)), .number(.int(1 << 40)), .number(.uint(7)), .number(.double(1.5)),
                            .number(.float(0.25)), .bool(true), .bool(false)])),
        ("data", .data(Data([0, 1, 2, 255]))),
        ("empty data", .data(Data())),
        ("date", .date(Date(timeIntervalSinceReferenceDate: 123_456.75))),
        ("absolute URL", .url(URL(string: "https://example.org/a?b=c")!)),
        ("relative URL", .url(URL(string: "d/e.txt", relativeTo: URL(string: "file:///tmp/"))!)),
        ("null", .null),
        ("nested array", .array([.array([.string("a"), .array([])]), .null, .string("a")])),
        ("dictionary", .dictionary([.init(.string("k"), .number(.int(1))), .init(.string("list"), .array([.string("x")])),
                                    .init(.string("inner"), .dictionary([.init(.string("z"), .data(Data([9])))]))])),
        ("set", .set([.string("a"), .string("b"), .number(.int(3))])),
        ("point", .geometry(.point(x: 1.5, y: -2))),
        ("size", .geometry(.size(width: 826, height: 615))),
        ("rect", .geometry(.rect(x: 0.5, y: 1, width: 100, height: 50.25))),
        ("range", .geometry(.range(location: 5, length: 6))),
        ("attributed, one run", .attributedString(.init(string: "hi", runs: [.init(range: 0..<2, attributes: [bold])]))),
        ("attributed, runs", .attributedString(.init(string: "hello world", runs: [
            .init(range: 0..<5, attributes: [bold]), .init(range: 5..<6, attributes: []), .init(range: 6..<11, attributes: [bold])]))),
        ("attributed, empty", .attributedString(.init(string: "", runs: []))),
    ]

    /// The typedstream bytes of a natural value, written by our Archiver.
    private func typedstream(_ value: NaturalValue, encoding: GeometryEncoding = .cgFloat64) throws -> [UInt8] {
        try Archiver.archivedBytes(withRootObject: FoundationBuilder.object(from: value, geometryEncoding: encoding))
    }

    private var linuxReadable: KeyedArchiveExporter.Options {
        var options = KeyedArchiveExporter.Options()
        options.attributeRuns = .alwaysIndexed
        return options
    }

    @Test(arguments: values.map(\.0))
    func binaryOpensWithNSKeyedUnarchiver(_ name: String) throws {
        let value = try #require(Self.values.first { $0.0 == name }?.1)
        for encoding in [GeometryEncoding.cgFloat64, .nsFloat32] {
            let bytes = try KeyedArchiveExporter.binary(typedstream: typedstream(value, encoding: encoding), options: linuxReadable)
            let object = try KeyedTestSupport.unarchive(bytes)
            #expect(KeyedTestSupport.mismatch(object, value) == nil, "\(name)")
        }
    }

    @Test(arguments: values.map(\.0))
    func xmlParsesAndOpens(_ name: String) throws {
        let value = try #require(Self.values.first { $0.0 == name }?.1)
        let text = try KeyedArchiveExporter.xml(typedstream: typedstream(value), options: linuxReadable)
        let parsed = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil) as? [String: Any]
        #expect(parsed?["$archiver"] as? String == "NSKeyedArchiver")
        #expect(parsed?["$version"] as? Int == 100000)
        let object = try KeyedTestSupport.unarchive(Array(text.utf8))
        #expect(KeyedTestSupport.mismatch(object, value) == nil, "\(name)")
    }

    @Test func theComparisonNoticesDifferences() throws {
        let object = try KeyedTestSupport.unarchive(KeyedArchiveExporter.binary(typedstream: typedstream(.array([.string("a"), .number(.int(1))]))))
        #expect(KeyedTestSupport.mismatch(object, .array([.string("a"), .number(.int(1))])) == nil)
        #expect(KeyedTestSupport.mismatch(object, .array([.string("a"), .number(.int(2))])) != nil)
        #expect(KeyedTestSupport.mismatch(object, .array([.string("b"), .number(.int(1))])) != nil)
        #expect(KeyedTestSupport.mismatch(object, .array([.string("a")])) != nil)
        #expect(KeyedTestSupport.mismatch(object, .set([.string("a"), .number(.int(1))])) != nil)
    }

    @Test func mutableClassesOpenWithTheirValues() throws {
        let root = ArrayObject([StringObject("mutable", mutable: true), DataObject([1, 2], mutable: true),
                                DictionaryObject(stringKeys: [("k", SetObject(strings: ["s"], mutable: true))], mutable: true),
                                AttributedStringObject("ab", runs: [.init(length: 2, attributes: DictionaryObject())], mutable: true)],
                               mutable: true)
        let bytes = try KeyedArchiveExporter.binary(typedstream: Archiver.archivedBytes(withRootObject: root), options: linuxReadable)
        let array = try #require(try KeyedTestSupport.unarchive(bytes) as? NSArray)
        #expect(array is NSMutableArray)
        #expect((array[0] as? NSString).map { String(describing: $0) } == "mutable")
        #expect((array[1] as? NSData).map { Data(referencing: $0) } == Data([1, 2]))
        #expect(((array[2] as? NSDictionary)?["k"] as? NSSet)?.count == 1)
        #expect((array[3] as? NSAttributedString)?.string == "ab")
    }

    @Test func sharedAndCyclicGraphsOpen() throws {
        // The same dictionary twice in an array: one UID, read back twice. (Identity cannot be
        // checked here: swift-corelibs-foundation bridges NSArray elements to Swift values.)
        let shared = DictionaryObject(stringKeys: [("k", StringObject("v"))])
        let root = ArrayObject([shared, shared])
        let bytes = try KeyedArchiveExporter.binary(typedstream: Archiver.archivedBytes(withRootObject: root))
        #expect(KeyedTestSupport.mismatch(try KeyedTestSupport.unarchive(bytes), naturalValue(of: root)) == nil)
        // A cycle through a mutable array: the keyed archive refers back with a UID.
        let cyclic = ArrayObject([], mutable: true)
        cyclic.elements = [StringObject("self"), cyclic]
        let plist = try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: cyclic))
        #expect(KeyedTestSupport.root(plist)?["NS.objects"] == .array([.uid(2), .uid(1)]))
    }

    @Test(.enabled(if: KeyedTestSupport.hasPython, "python3 is not available")) func plistlibReadsWhatWeWrite() throws {
        var plists: [PlistValue] = [], files: [[UInt8]] = []
        for (_, value) in Self.values {
            let plist = try KeyedArchiveExporter.export(typedstream: typedstream(value))
            plists.append(plist)
            files += [BinaryPlistWriter.write(plist), Array(try XMLPlistWriter.write(plist).utf8)]
        }
        let read = try #require(try KeyedTestSupport.readWithPlistlib(files))
        for (i, plist) in plists.enumerated() {
            #expect(read[2 * i] == plist, "\(Self.values[i].0): binary")
            #expect(read[2 * i + 1] == plist, "\(Self.values[i].0): XML")
        }
    }

    // MARK: - The same layout as Foundation's own NSKeyedArchiver

    /// `value` with every UID replaced by what it points at (cycles cut at depth 32) and
    /// dictionary keys sorted, so archives compare whatever their UID numbering.
    static func resolved(_ value: PlistValue, _ objects: [PlistValue], depth: Int = 0) -> PlistValue {
        guard depth < 32 else { return .string("<deep>") }
        switch value {
        case .uid(let uid):
            return Int(uid) < objects.count ? resolved(objects[Int(uid)], objects, depth: depth + 1) : .string("<bad uid>")
        case .array(let items):
            return .array(items.map { resolved($0, objects, depth: depth) })
        case .dictionary(let entries):
            return .dictionary(entries.sorted { $0.key < $1.key }.map { PlistEntry($0.key, resolved($0.value, objects, depth: depth)) })
        default:
            return value
        }
    }

    static func resolvedRoot(_ archive: PlistValue) -> PlistValue? {
        guard case .array(let objects)? = archive["$objects"], let root = archive["$top"]?["root"] else { return nil }
        return resolved(root, objects)
    }

    /// Objects whose keyed layout swift-corelibs-foundation writes exactly as Apple does; ours
    /// must be the same tree. (Where they differ — NSMutableString, geometry text, NSAttributeInfo
    /// — we follow Apple; see docs/keyed-mapping.md.)
    @Test(.enabled(if: KeyedTestSupport.hasPython, "python3 is not available")) func sameTreeAsFoundationsNSKeyedArchiver() throws {
        let rows: [(String, NSObject, AnyObject)] = [
            ("NSArray", NSArray(array: ["a" as NSString, NSNumber(value: 1), NSNull()]),
             ArrayObject([StringObject("a"), NumberObject(int: 1), NullObject()])),
            ("NSMutableArray", NSMutableArray(array: ["a" as NSString]), ArrayObject(strings: ["a"], mutable: true)),
            ("NSDictionary", NSDictionary(dictionary: ["k" as NSString: NSNumber(value: 2.5)]),
             DictionaryObject(stringKeys: [("k", NumberObject(double: 2.5))])),
            ("NSMutableDictionary", NSMutableDictionary(dictionary: ["k" as NSString: Data([1, 2]) as NSData]),
             DictionaryObject(stringKeys: [("k", DataObject([1, 2]))], mutable: true)),
            ("NSSet", NSSet(array: [NSNumber(value: true)]), SetObject([NumberObject(bool: true)])),
            ("NSMutableSet", NSMutableSet(array: ["x" as NSString]), SetObject(strings: ["x"], mutable: true)),
            ("NSDate", NSDate(timeIntervalSinceReferenceDate: -12.5), DateObject(timeIntervalSinceReferenceDate: -12.5)),
            ("NSURL", NSURL(string: "http://x.org/a")!, URLObject(string: "http://x.org/a")),
            ("NSURL relative", NSURL(string: "b/c", relativeTo: URL(string: "http://x.org/a/"))!,
             URLObject(string: "b/c", base: URLObject(string: "http://x.org/a/"))),
            ("NSMutableData", NSMutableData(data: Data([7])), DataObject([7], mutable: true)),
            ("NSNull", NSNull(), NullObject()),
            ("NSValue range", NSValue(range: NSRange(location: 3, length: 4)), ValueObject(.range(location: 3, length: 4))),
        ]
        let theirs = try rows.map { [UInt8](try NSKeyedArchiver.archivedData(withRootObject: $0.1, requiringSecureCoding: false)) }
        let read = try #require(try KeyedTestSupport.readWithPlistlib(theirs))
        for ((name, _, ours), read) in zip(rows, read) {
            let read = try #require(read)
            let mine = try KeyedArchiveExporter.export(typedstream: Archiver.archivedBytes(withRootObject: ours))
            #expect(Self.resolvedRoot(mine) == Self.resolvedRoot(read), "\(name)")
            #expect(read["$version"] == mine["$version"] && read["$archiver"] == mine["$archiver"])
        }
    }
}
