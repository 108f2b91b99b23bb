import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport
import TestSupport

/// Keyed archive → typedstream: what the exporter writes comes back; generic objects byte for
/// byte; bad input throws.
@Suite("Keyed import")
struct KeyedImportTests {
    /// What a keyed archive cannot tell apart: unsigned and signed integers, float and double.
    static func normalized(_ value: NaturalValue) -> NaturalValue {
        switch value {
        case .number(.uint(let v)) where v <= UInt64(Int64.max): return .number(.int(Int64(v)))
        case .number(.float(let f)): return .number(.double(Double(f)))
        case .array(let items): return .array(items.map(normalized))
        case .set(let items): return .set(items.map(normalized))
        case .dictionary(let entries): return .dictionary(entries.map { .init(normalized($0.key), normalized($0.value)) })
        case .attributedString(let text):
            return .attributedString(.init(string: text.string, runs: text.runs.map {
                .init(range: $0.range, attributes: $0.attributes.map { .init(normalized($0.key), normalized($0.value)) })
            }))
        default: return value
        }
    }

    private func natural(_ typedstream: [UInt8]) throws -> NaturalValue {
        naturalValue(of: try Unarchiver(bytes: typedstream, registry: .foundation).decodeRootObject())
    }

    /// typedstream → keyed (binary and XML) → typedstream.
    private func roundTrips(_ bytes: [UInt8], options: KeyedArchiveExporter.Options = .init()) throws -> [[UInt8]] {
        let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: options)
        return [try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(plist)),
                try KeyedArchiveImporter.typedstream(fromKeyed: Array(try XMLPlistWriter.write(plist).utf8))]
    }

    @Test func naturalValuesComeBack() throws {
        for (name, value) in KeyedExportFoundationTests.values {
            let bytes = try Archiver.archivedBytes(withRootObject: FoundationBuilder.object(from: value))
            for again in try roundTrips(bytes) {
                #expect(Self.normalized(try natural(again)) == Self.normalized(value), "\(name)")
            }
        }
    }

    @Test func modernFoundationObjectsComeBackByteForByte() throws {
        // Objects as FoundationBuilder makes them (q/d/c numbers, CG geometry), no equal-but-distinct strings.
        let shared = StringObject("shared")
        let root = ArrayObject([
            shared, StringObject("mutable", mutable: true), shared, NumberObject(int: -7), NumberObject(double: 0.1), NumberObject(bool: false),
            DataObject([1, 2, 3]), DataObject([4], mutable: true), DateObject(timeIntervalSinceReferenceDate: 1e9 + 0.5),
            URLObject(string: "b", base: URLObject(string: "http://h/")), NullObject(), PlainObject(),
            ValueObject(.rect(x: 0.1, y: 2, width: 3, height: 4)), ValueObject(.range(location: 1, length: 2)),
            SetObject(strings: ["s"], mutable: true), DictionaryObject(stringKeys: [("k", shared)], mutable: true),
            AttributedStringObject("ab", runs: [.init(length: 2, attributes: DictionaryObject(stringKeys: [("w", NumberObject(int: 3))]))]),
        ], mutable: true)
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        for again in try roundTrips(bytes) { #expect(again == bytes) }
        var indexed = KeyedArchiveExporter.Options()
        indexed.attributeRuns = .alwaysIndexed
        for again in try roundTrips(bytes, options: indexed) { #expect(again == bytes) }
    }

    @Test func genericObjectsComeBackByteForByte() throws {
        let gadget = KeyedExportGenericTests.Gadget()
        let gadgetBytes = try Archiver.archivedBytes(withRootObject: ArrayObject([gadget, gadget, StringObject("after")]))
        for again in try roundTrips(gadgetBytes) { #expect(again == gadgetBytes) }
    }

    @Test func cyclesAndTopLevelGroupsComeBack() throws {
        let archiver = Archiver()
        let cyclic = ArrayObject([], mutable: true)
        cyclic.elements = [StringObject("me"), cyclic]
        try archiver.encodeRootObject(cyclic)
        try archiver.encodeValues([archiver.archivedValue(for: cyclic), .integer(42, width: nil)], ofObjCTypes: "@i")
        // An `@` slot naming a class already written (NeXT nibs do this).
        let entry = ArchivedClass(name: Array("NSMutableArray".utf8), version: 0, superclass: ArchivedClass(
            name: Array("NSArray".utf8), version: 0, superclass: ArchivedClass(name: Array("NSObject".utf8), version: 0)))
        try archiver.encodeObject(ArrayObject([ClassReference(entry)]))
        let bytes = try archiver.encodedBytes()
        for again in try roundTrips(bytes) { #expect(again == bytes) }
    }

    @Test(.needsCorpus) func corpusSamplesComeBackWithTheirValues() throws {
        let foundation = try #require(KeyedTestSupport.corpusFiles("foundation"))
        let attributed = try #require(KeyedTestSupport.corpusFiles("attributed-string"))
        var checked = 0
        for (name, bytes) in foundation + attributed where !name.contains("malformed") {
            guard let original = try? natural(bytes) else { continue }  // samples with trailing data
            for again in try roundTrips(bytes) {
                #expect(Self.normalized(try natural(again)) == Self.normalized(original), "\(name)")
            }
            checked += 1
        }
        #expect(checked > 50)
    }

    // MARK: - Bad input

    @Test func badArchivesThrow() throws {
        func archive(_ objects: [PlistValue], archiver: String = "NSKeyedArchiver") -> [UInt8] {
            BinaryPlistWriter.write(.dictionary([
                PlistEntry("$archiver", .string(archiver)), PlistEntry("$version", .integer(100000)),
                PlistEntry("$top", .dictionary([PlistEntry("root", .uid(1))])), PlistEntry("$objects", .array(objects)),
            ]))
        }
        func cls(_ names: String...) -> PlistValue {
            .dictionary([PlistEntry("$classname", .string(names[0])), PlistEntry("$classes", .array(names.map(PlistValue.string)))])
        }
        let cases: [(String, [UInt8], KeyedArchiveError.Code)] = [
            ("not a plist", Array("hello".utf8), .notAKeyedArchive),
            ("another archiver", archive([.string("$null"), .string("x")], archiver: "Other"), .notAKeyedArchive),
            ("no $null", archive([.string("x")]), .notAKeyedArchive),
            ("UID out of range", archive([.string("$null")]), .badReference),
            ("unknown class", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(2))]), cls("NSColor", "NSObject")]), .badObject),
            ("array without NS.objects", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(2))]), cls("NSArray", "NSObject")]), .badObject),
            ("class is not a class", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(1))])]), .badObject),
            ("attribute runs overflow", archive([
                .string("$null"),
                .dictionary([PlistEntry("$class", .uid(5)), PlistEntry("NSString", .uid(2)), PlistEntry("NSAttributes", .uid(3)), PlistEntry("NSAttributeInfo", .uid(4))]),
                .string("ab"), .dictionary([PlistEntry("$class", .uid(6)), PlistEntry("NS.objects", .array([]))]), .data([3, 0]),
                cls("NSAttributedString", "NSObject"), cls("NSArray", "NSObject"),
            ]), .badObject),
            ("attribute info ends inside a varint", archive([
                .string("$null"),
                .dictionary([PlistEntry("$class", .uid(6)), PlistEntry("NSString", .uid(2)), PlistEntry("NSAttributes", .uid(3)), PlistEntry("NSAttributeInfo", .uid(5))]),
                .string("ab"), .dictionary([PlistEntry("$class", .uid(7)), PlistEntry("NS.objects", .array([.uid(4)]))]),
                .dictionary([PlistEntry("$class", .uid(8)), PlistEntry("NS.keys", .array([])), PlistEntry("NS.objects", .array([]))]),
                .data([0x82]), cls("NSAttributedString", "NSObject"), cls("NSArray", "NSObject"), cls("NSDictionary", "NSObject"),
            ]), .badObject),
            ("bad group type", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(2)),
                PlistEntry("TSGroups", .array([.dictionary([PlistEntry("type", .string("{")), PlistEntry("values", .array([]))])]))]), cls("X")]), .badObject),
            ("group value of the wrong shape", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(2)),
                PlistEntry("TSGroups", .array([.dictionary([PlistEntry("type", .string("[2i]")), PlistEntry("values", .array([.array([.integer(1)])]))])]))]), cls("X")]), .badObject),
            ("keys of a class without a registered form", archive([.string("$null"), .dictionary([PlistEntry("$class", .uid(3)), PlistEntry("rect", .uid(2)),
                PlistEntry("flag", .integer(0)), PlistEntry("kind", .integer(0))]), .string("{1, 2}"), cls("Sprite", "NSObject")]), .badObject),
        ]
        for (name, bytes, code) in cases {
            do {
                _ = try KeyedArchiveImporter.typedstream(fromKeyed: bytes)
                Issue.record("\(name): no error")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
            }
        }
    }

    @Test func everyTruncatedPrefixFailsCleanly() throws {
        let plist = try KeyedArchiveExporter.export(root: ArrayObject([StringObject("a"), DictionaryObject(stringKeys: [("k", NumberObject(int: 1))])]))
        let bytes = BinaryPlistWriter.write(plist)
        #expect(try BinaryPlistReader.read(bytes) == plist)
        for length in 0..<bytes.count {
            #expect(throws: KeyedArchiveError.self) { try BinaryPlistReader.read(Array(bytes.prefix(length))) }
        }
    }

    @Test func corruptedBytesNeverCrash() throws {
        let seed = ProcessInfo.processInfo.environment["KEYED_CORRUPT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("corruptedBytesNeverCrash seed: \(seed) (replay with KEYED_CORRUPT_SEED=\(seed))")
        var rng = SplitMix64(seed: seed)
        let root = try FoundationBuilder.object(from: KeyedExportFoundationTests.values.first { $0.0 == "dictionary" }!.1)
        let bytes = try KeyedArchiveExporter.binary(typedstream: Archiver.archivedBytes(withRootObject: root))
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0...(rng.next() % 4) {
                damaged[Int(rng.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            _ = try? KeyedArchiveImporter.typedstream(fromKeyed: damaged)
        }
    }

    @Test func binaryReaderReadsFoundationsBinaryPlists() throws {
        let object: [String: Any] = ["int": -5, "big": 1 << 40, "real": 1.5, "yes": true, "data": Data([0, 255]),
                                     "date": Date(timeIntervalSinceReferenceDate: 10), "text": "wörld ✓", "list": [1, "two"]]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let value = try BinaryPlistReader.read([UInt8](data))
        #expect(value["int"] == .integer(-5))
        #expect(value["big"] == .integer(1 << 40))
        #expect(value["real"] == .real(1.5))
        #expect(value["yes"] == .bool(true))
        #expect(value["data"] == .data([0, 255]))
        #expect(value["date"] == .date(10))
        #expect(value["text"] == .string("wörld ✓"))
        #expect(value["list"] == .array([.integer(1), .string("two")]))
    }
}
