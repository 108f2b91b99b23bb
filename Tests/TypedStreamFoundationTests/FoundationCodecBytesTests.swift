import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Exact bytes of small hand-assembled archives, one per codec, and their round trips:
/// object → Archiver → the expected bytes; the bytes → Unarchiver → a typed object with the
/// same contents → Archiver → the same bytes.
@Suite("Foundation codecs: exact bytes")
struct FoundationCodecBytesTests {
    /// Checks the bytes of `object`, decodes them back and re-encodes the decoded object.
    func check<T: AnyObject>(_ object: AnyObject, _ expected: [UInt8], as type: T.Type,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        let bytes = try archived(object)
        #expect(hexText(bytes) == hexText(expected), sourceLocation: sourceLocation)
        let decoded = try #require(try decodedRoot(expected) as? T, sourceLocation: sourceLocation)
        #expect(try archived(decoded) == expected, "re-encoding the decoded object", sourceLocation: sourceLocation)
        #expect(naturalValue(of: decoded) == naturalValue(of: object), sourceLocation: sourceLocation)
        return decoded
    }

    /// The worked example of the format notes §7: `@[@YES, @NO]`, 93 bytes (UET `NSArrayWithBool`).
    @Test func arrayOfBooleans() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@",
            0x84, 0x84, 0x84, 0x07, "NSArray", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x02,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x94,
            0x84, 0x01, "*", 0x84, 0x84, 0x01, "c", 0x99, 0x01, 0x86,
            0x92, 0x84, 0x96, 0x98, 0x98, 0x99, 0x00, 0x86,
            0x86,
        ])
        #expect(expected.count == 93)
        let array = try check(ArrayObject([NumberObject(bool: true), NumberObject(bool: false)]), expected, as: ArrayObject.self)
        #expect(naturalValue(of: array) == .array([.bool(true), .bool(false)]))
        let first = try #require(array.elements.first as? NumberObject)
        #expect(first.objCType == "c")
        #expect(first.value == .bool(true))
    }

    @Test func data() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSData", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x03, 0x84, 0x04, "[3c]", 0x01, 0x02, 0xFF, 0x86,
        ])
        let data = try check(DataObject([1, 2, 0xFF]), expected, as: DataObject.self)
        #expect(Array(data.bytes) == [1, 2, 0xFF])
        #expect(data.data == Data([1, 2, 0xFF]))
        #expect(!data.isMutable)
    }

    @Test func dataIsASliceOfTheArchive() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSData", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x03, 0x84, 0x04, "[3c]", 0x01, 0x02, 0xFF, 0x86,
        ])
        let data = try #require(try decodedRoot(expected) as? DataObject)
        // The slice indexes into the archive's bytes: no copy was made.
        #expect(data.bytes.startIndex == expected.count - 4)
    }

    @Test func mutableData() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x0D, "NSMutableData", 0x00, 0x84, 0x84, 0x06, "NSData", 0x00,
            0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x00, 0x84, 0x04, "[0c]", 0x86,
        ])
        let data = try check(DataObject([], mutable: true), expected, as: DataObject.self)
        #expect(data.isMutable)
        #expect(data.bytes.isEmpty)
    }

    @Test func dates() throws {
        // CS `foundation/NSDate`: 21 692 800 s is integral, so it is written as an int32.
        let whole = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSDate", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "d", 0x82, 0x80, 0x01, 0x4B, 0x01, 0x86,
        ])
        let date = try check(DateObject(timeIntervalSinceReferenceDate: 21_692_800), whole, as: DateObject.self)
        #expect(date.date == Date(timeIntervalSinceReferenceDate: 21_692_800))
        #expect(date.date == Date(timeIntervalSince1970: 978_307_200 + 21_692_800))
        // A fractional value goes out as 0x83 + the IEEE double (little-endian).
        let half = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSDate", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "d", 0x83, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE0, 0xBF, 0x86,
        ])
        let before = try check(DateObject(Date(timeIntervalSinceReferenceDate: -0.5)), half, as: DateObject.self)
        #expect(before.timeIntervalSinceReferenceDate == -0.5)
    }

    @Test func valueWithCGSize() throws {
        // As in Grapher documents: the value group's type string is a reference to the C string's text.
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "*", 0x84, 0x84, 0x0B, "{CGSize=dd}",
            0x96, 0x81, 0x3A, 0x03, 0x81, 0x67, 0x02,
            0x86,
        ])
        let value = try check(ValueObject(.size(width: 826, height: 615)), expected, as: ValueObject.self)
        #expect(value.objCType == "{CGSize=dd}")
        #expect(value.geometry == .size(width: 826, height: 615))
    }

    @Test func valueWithNSPointSharesTheCString() throws {
        // Two 32-bit NSPoints in an array: the second reuses the C string slot and its shared text.
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x07, "NSArray", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x02,
            0x92, 0x84, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x94,
            0x84, 0x01, "*", 0x84, 0x84, 0x0D, "{_NSPoint=ff}", 0x98, 0x83, 0x00, 0x00, 0xC0, 0x3F, 0x02, 0x86,
            0x92, 0x84, 0x96, 0x97, 0x97, 0x98, 0xFF, 0x00, 0x86,
            0x86,
        ])
        let array = try check(ArrayObject([ValueObject(.point(x: 1.5, y: 2), encoding: .nsFloat32),
                                           ValueObject(.point(x: -1, y: 0), encoding: .nsFloat32)]),
                              expected, as: ArrayObject.self)
        #expect(naturalValue(of: array) == .array([.geometry(.point(x: 1.5, y: 2)), .geometry(.point(x: -1, y: 0))]))
    }

    @Test(arguments: [
        SourcedRow((GeometryValue.rect(x: 1, y: 2, width: 3, height: 4), GeometryEncoding.cgFloat64, "{CGRect={CGPoint=dd}{CGSize=dd}}", [0x01, 0x02, 0x03, 0x04] as [UInt8])),
        SourcedRow((.rect(x: 0.5, y: 0, width: 0, height: 0), .nsFloat32, "{_NSRect={_NSPoint=ff}{_NSSize=ff}}", [0x83, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00])),
        SourcedRow((.range(location: 5, length: 300), .cgFloat64, "{_NSRange=QQ}", [0x05, 0x81, 0x2C, 0x01])),
        SourcedRow((.range(location: 4_294_967_295, length: 0), .nsFloat32, "{_NSRange=II}", [0xFF, 0x00])),
        SourcedRow((.point(x: 3, y: 4), .cgFloat64, "{CGPoint=dd}", [0x03, 0x04])),
        SourcedRow((.size(width: 1e10, height: 0), .cgFloat64, "{CGSize=dd}", [0x83, 0x00, 0x00, 0x00, 0x20, 0x5F, 0xA0, 0x02, 0x42, 0x00])),
    ])
    func geometryValues(_ row: SourcedRow<(GeometryValue, GeometryEncoding, String, [UInt8])>) throws {
        let (geometry, encoding, objCType, valueBytes) = row.payload
        let type = Array(objCType.utf8)
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "*", 0x84, 0x84, .byte(UInt8(type.count)), .raw(type), 0x96, .raw(valueBytes), 0x86,
        ])
        let value = try check(ValueObject(geometry, encoding: encoding), expected, as: ValueObject.self, sourceLocation: row.location)
        #expect(value.objCType == objCType, sourceLocation: row.location)
        #expect(value.geometry == geometry, sourceLocation: row.location)
    }

    @Test(arguments: [
        SourcedRow((NumberValue.int(1), "q", [0x01] as [UInt8])),
        SourcedRow((.int(-9_000_000_000), "q", [0x87, 0x00, 0xE6, 0x8E, 0xE7, 0xFD, 0xFF, 0xFF, 0xFF])),
        SourcedRow((.int(42), "i", [0x2A])),
        SourcedRow((.int(-32767), "i", [0x81, 0x01, 0x80])),
        SourcedRow((.int(-2), "s", [0xFE])),
        SourcedRow((.int(-5), "c", [0xFB])),
        SourcedRow((.bool(true), "c", [0x01])),
        SourcedRow((.uint(18_446_744_073_709_551_613), "Q", [0xFD])),
        SourcedRow((.uint(4_294_967_295), "I", [0xFF])),
        SourcedRow((.uint(65_535), "S", [0xFF])),
        SourcedRow((.uint(200), "C", [0xC8])),
        SourcedRow((.double(100.5), "d", [0x83, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x59, 0x40])),
        SourcedRow((.double(-3), "d", [0xFD])),
        SourcedRow((.float(3.5), "f", [0x83, 0x00, 0x00, 0x60, 0x40])),
        SourcedRow((.float(1), "f", [0x01])),
    ])
    func numbers(_ row: SourcedRow<(NumberValue, String, [UInt8])>) throws {
        let (value, objCType, valueBytes) = row.payload
        let letter = Array(objCType.utf8)[0]
        let expected = wire(appleHeader + [
            0x84, 0x01, "@",
            0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "*", 0x84, 0x84, 0x01, .byte(letter), 0x97, .raw(valueBytes),
            0x86,
        ])
        let number = try check(NumberObject(value, objCType: objCType), expected, as: NumberObject.self, sourceLocation: row.location)
        #expect(number.value == value, sourceLocation: row.location)
        #expect(number.objCType == objCType, sourceLocation: row.location)
    }

    @Test func numberRejectsValuesThatDoNotFit() {
        #expect(throws: CoderError(.invalidValue, "")) { try NumberObject(.int(300), objCType: "c") }
        #expect(throws: CoderError(.invalidValue, "")) { try NumberObject(.int(-1), objCType: "I") }
        #expect(throws: CoderError(.invalidValue, "")) { try NumberObject(.double(1), objCType: "i") }
        #expect(throws: CoderError(.invalidValue, "")) { try NumberObject(.int(1), objCType: "{CGSize=dd}") }
        #expect(throws: CoderError(.invalidValue, "")) { try NumberObject(.uint(.max), objCType: "q") }
    }

    @Test func set() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSSet", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "I", 0x01,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x01, "a", 0x86,
            0x86,
        ])
        let set = try check(SetObject(strings: ["a"]), expected, as: SetObject.self)
        #expect(naturalValue(of: set) == .set([.string("a")]))
        #expect(!set.isMutable)
    }

    @Test func dictionary() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x0C, "NSDictionary", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x01,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x01, "k", 0x86,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x94,
            0x84, 0x01, "*", 0x84, 0x84, 0x01, "q", 0x9B, 0x01, 0x86,
            0x86,
        ])
        let dictionary = try check(DictionaryObject(stringKeys: [("k", NumberObject(int: 1))]), expected, as: DictionaryObject.self)
        #expect((dictionary["k"] as? NumberObject)?.value == .int(1))
        #expect(dictionary["x"] == nil)
        #expect(naturalValue(of: dictionary) == .dictionary([.init(.string("k"), .number(.int(1)))]))
    }

    @Test func dictionaryKeepsDuplicateKeysInOrder() throws {
        let shared = StringObject("k")
        let original = DictionaryObject([(shared, StringObject("first")), (shared, StringObject("second"))], mutable: true)
        let bytes = try archived(original)
        let decoded = try #require(try decodedRoot(bytes) as? DictionaryObject)
        #expect(decoded.isMutable)
        #expect(decoded.entries.count == 2)
        #expect(decoded.entries[0].key === decoded.entries[1].key)
        #expect(naturalValue(of: decoded) == .dictionary([.init(.string("k"), .string("first")), .init(.string("k"), .string("second"))]))
        #expect(try archived(decoded) == bytes)
    }

    @Test func null() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSNull", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85, 0x86,
        ])
        _ = try check(NullObject(), expected, as: NullObject.self)
    }

    @Test func absoluteURL() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSURL", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "c", 0x00,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x0A, "https://a/", 0x86,
            0x86,
        ])
        let url = try check(URLObject(string: "https://a/"), expected, as: URLObject.self)
        #expect(url.url == URL(string: "https://a/"))
        #expect(!url.isRelative)
    }

    @Test func relativeURL() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSURL", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "c", 0x01,
            0x92, 0x84, 0x93, 0x95, 0x00,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x0A, "https://a/", 0x86,
            0x86,
            0x92, 0x84, 0x97, 0x97, 0x01, "b", 0x86,
            0x86,
        ])
        let url = try check(URLObject(string: "b", base: URLObject(string: "https://a/")), expected, as: URLObject.self)
        #expect(url.relativeString == "b")
        #expect(url.url?.absoluteString == "https://a/b")
        #expect(url.isRelative)
        #expect(URLObject(try #require(url.url)).base?.relativeString == "https://a/")
    }

    /// `"👍🏽 é"` is 12 UTF-8 bytes and 7 UTF-16 units (👍 2, 🏽 2, space, e, U+0301). Runs 0..<4
    /// and 5..<7 share one dictionary: the third run repeats number 1 without a dictionary.
    @Test func attributedStringWithEmojiAndCombiningMark() throws {
        let text = "👍🏽 e\u{301}"
        #expect(text.utf16.count == 7)
        let bold = DictionaryObject(stringKeys: [("b", NumberObject(bool: true))])
        let plain = DictionaryObject()
        let original = AttributedStringObject(text, runs: [.init(length: 4, attributes: bold), .init(length: 1, attributes: plain),
                                                           .init(length: 2, attributes: bold)])
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x12, "NSAttributedString", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x0C, .text(text), 0x86,
            0x84, 0x02, "iI", 0x01, 0x04,
            0x92, 0x84, 0x84, 0x84, 0x0C, "NSDictionary", 0x00, 0x94, 0x84, 0x01, "i", 0x01,
            0x92, 0x84, 0x96, 0x96, 0x01, "b", 0x86,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x94,
            0x84, 0x01, "*", 0x84, 0x84, 0x01, "c", 0x9D, 0x01, 0x86,
            0x86,
            0x97, 0x02, 0x01,
            0x92, 0x84, 0x98, 0x99, 0x00, 0x86,
            0x97, 0x01, 0x02,
            0x86,
        ])
        let decoded = try check(original, expected, as: AttributedStringObject.self)
        #expect(decoded.string == text)
        #expect(decoded.attributeRuns.map(\.length) == [4, 1, 2])
        #expect(decoded.attributeRuns[0].attributes === decoded.attributeRuns[2].attributes)
        let runs = decoded.runs
        #expect(runs.map(\.range) == [0..<4, 4..<5, 5..<7])
        #expect(runs.map(\.attributes) == [["b": .bool(true)], [:], ["b": .bool(true)]])
        // The UTF-16 ranges address the text as NSString does.
        let utf16 = Array(text.utf16)
        #expect(String(decoding: utf16[0..<4], as: UTF16.self) == "👍🏽")
        #expect(String(decoding: utf16[5..<7], as: UTF16.self) == "e\u{301}")
    }

    @Test func emptyAttributedStringHasNoRuns() throws {
        let expected = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x19, "NSMutableAttributedString", 0x00,
            0x84, 0x84, 0x12, "NSAttributedString", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x92, 0x84, 0x84, 0x84, 0x0F, "NSMutableString", 0x01, 0x84, 0x84, 0x08, "NSString", 0x01, 0x95,
            0x84, 0x01, "+", 0x00, 0x86,
            0x86,
        ])
        let decoded = try check(AttributedStringObject("", runs: [], mutable: true), expected, as: AttributedStringObject.self)
        #expect(decoded.isMutable)
        #expect(decoded.stringObject.isMutable)
        #expect(decoded.attributeRuns.isEmpty)
    }

    @Test func attributedStringRunsMustCoverTheText() {
        let short = AttributedStringObject("abc", runs: [.init(length: 2, attributes: DictionaryObject())])
        #expect(throws: CoderError(.invalidValue, "")) { try archived(short) }
    }
}
