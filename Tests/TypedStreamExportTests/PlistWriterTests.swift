import Foundation
import Testing
@testable import TypedStreamExport

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
}
