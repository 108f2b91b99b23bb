import Foundation
import Testing
@testable import TypedStreamExport
import TestSupport

struct PlistWriterTests {
    /// A hand-built keyed archive (an NSArray of two strings) opens with Foundation's own
    /// NSKeyedUnarchiver, and both writers' outputs parse with PropertyListSerialization.
    @Test func keyedArchiveOpensWithFoundation() throws {
        let archive: PlistValue = .dictionary([
            PlistEntry("$version", .integer(100000)),
            PlistEntry("$archiver", .string("NSKeyedArchiver")),
            PlistEntry("$top", .dictionary([PlistEntry("root", .uid(1))])),
            PlistEntry("$objects", .array([
                .string("$null"),
                .dictionary([PlistEntry("NS.objects", .array([.uid(2), .uid(3)])), PlistEntry("$class", .uid(4))]),
                .string("hello"),
                .string("wörld ✓"),
                .dictionary([PlistEntry("$classname", .string("NSArray")), PlistEntry("$classes", .array([.string("NSArray"), .string("NSObject")]))]),
            ])),
        ])
        let binary = Data(BinaryPlistWriter.write(archive))
        let object = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(binary)
        let array = try #require(object as? [Any])
        #expect(array.compactMap { $0 as? String } == ["hello", "wörld ✓"])
        let xml = Data(try XMLPlistWriter.write(archive).utf8)
        let parsed = try PropertyListSerialization.propertyList(from: xml, format: nil) as? [String: Any]
        #expect(parsed?["$archiver"] as? String == "NSKeyedArchiver")
    }

    @Test func scalarsRoundTripThroughFoundation() throws {
        let value: PlistValue = .dictionary([
            PlistEntry("int", .integer(-5)), PlistEntry("big", .integer(1 << 40)), PlistEntry("real", .real(1.5)),
            PlistEntry("yes", .bool(true)), PlistEntry("data", .data([0, 1, 2, 255])), PlistEntry("date", .date(0)),
            PlistEntry("long", .string(String(repeating: "x", count: 40))),
        ])
        for bytes in [Data(BinaryPlistWriter.write(value)), Data(try XMLPlistWriter.write(value).utf8)] {
            let parsed = try #require(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any])
            #expect(parsed["int"] as? Int == -5)
            #expect(parsed["big"] as? Int == 1 << 40)
            #expect(parsed["real"] as? Double == 1.5)
            #expect(parsed["yes"] as? Bool == true)
            #expect(parsed["data"] as? Data == Data([0, 1, 2, 255]))
            #expect(parsed["date"] as? Date == Date(timeIntervalSinceReferenceDate: 0))
            #expect((parsed["long"] as? String)?.count == 40)
        }
        #expect(ISODate.format(secondsSince2001: 0) == "2001-01-01T00:00:00Z")
        #expect(ISODate.format(secondsSince2001: -978_307_200) == "1970-01-01T00:00:00Z")
    }

    /// Strings that are not ASCII are written as UTF-16 straight from their UTF-8 bytes: one, two,
    /// three and four-byte scalars (a surrogate pair), at the start, middle and end, give the
    /// units Swift's own `utf16` view gives, and Foundation reads every string back; so do
    /// seeded random strings over the same scalar ranges.
    @Test func nonASCIIStringsAreWrittenAsTheirUTF16() throws {
        var samples = ["é", "wörld ✓", "日本語", "🎉", "a🎉b", "x\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}", "\u{0}é"]
        let seed = TestSeed.resolve("PLIST_UTF16_SEED", label: "plist UTF-16")
        var random = SplitMix64(seed: seed)
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF]
        for _ in 0..<200 {
            let length = Int.random(in: 1...24, using: &random)
            var text = String.UnicodeScalarView()
            for _ in 0..<length {
                let range = ranges[Int.random(in: 0..<ranges.count, using: &random)]
                text.append(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
            }
            samples.append(String(text))
        }
        samples = samples.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
        let bytes = BinaryPlistWriter.write(.array(samples.map { PlistValue.string($0) }))
        for sample in samples {
            var expected: [UInt8] = []
            for unit in sample.utf16 { expected += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            #expect(bytes.firstRange(of: expected) != nil, "seed \(seed): \(sample.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        let parsed = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String])
        #expect(parsed == samples, "seed \(seed)")
    }
}
