import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Version branching and malformed contents: an unsupported version keeps the object generic
/// (with a warning) instead of guessing; contents that break a class's rules throw with an offset.
@Suite("Foundation codecs: versions and bad contents")
struct FoundationCodecErrorTests {
    /// NSData version 1, assembled by hand: decodes generically, warns, re-encodes exactly.
    @Test func unsupportedDataVersionStaysGeneric() throws {
        let bytes = wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSData", 0x01, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x03, 0x84, 0x04, "[3c]", 0x01, 0x02, 0x03, 0x86,
        ])
        let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
        let root = try decoder.decodeRootObject()
        let generic = try #require(root as? GenericObject)
        #expect(generic.archiveClassChain == [ArchiveClassLink("NSData", version: 1), .nsObject])
        #expect(decoder.warnings.count == 1)
        #expect(decoder.warnings.first?.contains("NSData version 1") == true)
        #expect(try reencoded(bytes) == bytes)
        #expect(naturalValue(of: root) == .object(className: "NSData", description: "\(generic)"))
    }

    /// A sample object of each codec, by name.
    static func sample(_ name: String) -> AnyObject {
        switch name {
        case "data": DataObject([1, 2])
        case "mutableData": DataObject([1], mutable: true)
        case "date": DateObject(timeIntervalSinceReferenceDate: 1)
        case "value": ValueObject(.size(width: 1, height: 2))
        case "number": NumberObject(int: 5)
        case "set": SetObject(strings: ["a"])
        case "mutableSet": SetObject(strings: ["a"], mutable: true)
        case "dictionary": DictionaryObject(stringKeys: [("k", StringObject("v"))])
        case "mutableDictionary": DictionaryObject(stringKeys: [], mutable: true)
        case "null": NullObject()
        case "url": URLObject(string: "https://a/")
        case "attributed": AttributedStringObject("x", runs: [.init(length: 1, attributes: DictionaryObject())])
        case "mutableAttributed": AttributedStringObject("", runs: [], mutable: true)
        default: PlainObject()
        }
    }

    /// Each codec, given a chain with a version it does not know, stays generic, warns, and
    /// re-encodes exactly; the same object with the known versions decodes typed.
    @Test(arguments: [
        SourcedRow(("NSData", Int64(1), "data")),
        SourcedRow(("NSMutableData", 3, "mutableData")),
        SourcedRow(("NSData", 1, "mutableData")),
        SourcedRow(("NSDate", 1, "date")),
        SourcedRow(("NSValue", 2, "value")),
        SourcedRow(("NSNumber", 1, "number")),
        SourcedRow(("NSValue", 1, "number")),
        SourcedRow(("NSSet", 1, "set")),
        SourcedRow(("NSMutableSet", 1, "mutableSet")),
        SourcedRow(("NSDictionary", 1, "dictionary")),
        SourcedRow(("NSMutableDictionary", 1, "mutableDictionary")),
        SourcedRow(("NSNull", 1, "null")),
        SourcedRow(("NSURL", 1, "url")),
        SourcedRow(("NSAttributedString", 1, "attributed")),
        SourcedRow(("NSMutableAttributedString", 1, "mutableAttributed")),
    ])
    func unsupportedVersions(_ row: SourcedRow<(String, Int64, String)>) throws {
        let (className, version, name) = row.payload
        let known = try archived(Self.sample(name))
        #expect(!(try decodedRoot(known) is GenericObject), sourceLocation: row.location)

        // Same contents, other version: change the class entry in the graph and write it again.
        let graph = try ArchiveReader.read(known)
        guard case .object(let entry?, _)? = graph.groups.first?.values.first else {
            Issue.record("no root object", sourceLocation: row.location)
            return
        }
        let links = entry.archivedClass.chain.filter { $0.nameText == className }
        #expect(links.count == 1, "the chain names \(className)", sourceLocation: row.location)
        for link in links { link.version = version }
        let bytes = try ArchiveWriter.write(graph, policy: .archiver)

        let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
        let decoded = try decoder.decodeRootObject()
        #expect(decoded is GenericObject, sourceLocation: row.location)
        #expect(decoder.warnings.contains { $0.contains("\(className) version \(version)") }, "\(decoder.warnings)", sourceLocation: row.location)
        #expect(try reencoded(bytes) == bytes, sourceLocation: row.location)
    }

    /// `NSAttributedString` "hi" with one run `(number, length)` and, when `withDictionary`, an
    /// empty dictionary after it.
    func attributedHi(number: UInt8, length: UInt8, withDictionary: Bool = true, extra: [WirePart] = []) -> [UInt8] {
        var parts = appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x12, "NSAttributedString", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSString", 0x01, 0x94, 0x84, 0x01, "+", 0x02, "hi", 0x86,
            0x84, 0x02, "iI", .byte(number), .byte(length),
        ]
        if withDictionary {
            parts += [0x92, 0x84, 0x84, 0x84, 0x0C, "NSDictionary", 0x00, 0x94, 0x84, 0x01, "i", 0x00, 0x86]
        }
        return wire(parts + extra + [0x86])
    }

    @Test func attributedStringSanity() throws {
        let text = try #require(try decodedRoot(attributedHi(number: 1, length: 2)) as? AttributedStringObject)
        #expect(text.string == "hi")
        #expect(text.runs.map(\.range) == [0..<2])
    }

    @Test(arguments: [
        SourcedRow(("run longer than the string", [UInt8]([]), UInt8(1), UInt8(3), true, CoderError.Code?.some(.badContents))),
        SourcedRow(("first number is 2", [], 2, 2, true, .badContents)),
        SourcedRow(("number 0", [], 0, 2, true, .badContents)),
        SourcedRow(("negative number", [], 0xFF, 2, true, .badContents)),
        SourcedRow(("runs stop short", [], 1, 1, true, .noMoreValues)),
        SourcedRow(("second run names number 3", [0x97, 0x03, 0x01], 1, 1, true, .badContents)),
        SourcedRow(("second run repeats number 1", [0x97, 0x01, 0x01], 1, 1, true, nil)),
    ])
    func badAttributedRuns(_ row: SourcedRow<(String, [UInt8], UInt8, UInt8, Bool, CoderError.Code?)>) {
        let (_, extra, number, length, withDictionary, code) = row.payload
        let bytes: [UInt8]
        if extra.isEmpty {
            bytes = attributedHi(number: number, length: length, withDictionary: withDictionary)
        } else {
            // A second run: "iI" (shared string #5 = 0x97), number, length.
            bytes = attributedHi(number: number, length: length, withDictionary: withDictionary, extra: extra.map(WirePart.byte))
        }
        do {
            let decoded = try decodedRoot(bytes)
            if code != nil { Issue.record("decoding succeeded", sourceLocation: row.location) }
            let text = decoded as? AttributedStringObject
            #expect(text?.attributeRuns.count == 2, sourceLocation: row.location)
            #expect(text?.attributeRuns[0].attributes === text?.attributeRuns[1].attributes, sourceLocation: row.location)
        } catch let error as CoderError {
            #expect(error.code == code, "\(error)", sourceLocation: row.location)
            #expect(error.offset != nil, sourceLocation: row.location)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: row.location)
        }
    }

    /// Bad counts and flags: rejected before anything is allocated, with an offset.
    @Test(arguments: [
        SourcedRow(("negative dictionary count", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x0C, "NSDictionary", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0xFF, 0x86,
        ]), CoderError.Code.badContents)),
        SourcedRow(("dictionary count beyond its groups", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x0C, "NSDictionary", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x82, 0xFF, 0xFF, 0xFF, 0x7F, 0x86,
        ]), .badContents)),
        SourcedRow(("set count beyond its groups", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSSet", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "I", 0x82, 0xFF, 0xFF, 0xFF, 0xFF, 0x86,
        ]), .badContents)),
        SourcedRow(("URL flag 2", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSURL", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "c", 0x02, 0x86,
        ]), .badContents)),
        SourcedRow(("URL with a nil string", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSURL", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "c", 0x00, 0x92, 0x85, 0x86,
        ]), .badContents)),
        SourcedRow(("URL whose string is a number", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x05, "NSURL", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "c", 0x00,
            0x92, 0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x94,
            0x84, 0x01, "*", 0x84, 0x84, 0x01, "q", 0x99, 0x01, 0x86,
            0x86,
        ]), .unexpectedClass)),
        SourcedRow(("NSNumber holding a struct", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x08, "NSNumber", 0x00, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "*", 0x84, 0x84, 0x06, "{?=ii}", 0x97, 0x01, 0x02, 0x86,
        ]), .badContents)),
        SourcedRow(("NSValue with a NULL objCType", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x07, "NSValue", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "*", 0x85, 0x86,
        ]), .badContents)),
        SourcedRow(("NSDate holding an int", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSDate", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x01, 0x86,
        ]), .typeMismatch)),
        SourcedRow(("NSNull with contents", wire(appleHeader + [
            0x84, 0x01, "@", 0x84, 0x84, 0x84, 0x06, "NSNull", 0x00, 0x84, 0x84, 0x08, "NSObject", 0x00, 0x85,
            0x84, 0x01, "i", 0x01, 0x86,
        ]), .unconsumedValues)),
    ])
    func badContents(_ row: SourcedRow<(String, [UInt8], CoderError.Code)>) {
        let (_, bytes, code) = row.payload
        do {
            _ = try decodedRoot(bytes)
            Issue.record("decoding succeeded", sourceLocation: row.location)
        } catch let error as CoderError {
            #expect(error.code == code, "\(error)", sourceLocation: row.location)
            #expect(error.offset != nil, "\(error)", sourceLocation: row.location)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: row.location)
        }
    }

    /// Every truncated prefix of an archive using all codecs fails cleanly (throws, never traps).
    @Test func truncatedPrefixesThrow() throws {
        let bold = DictionaryObject(stringKeys: [("b", NumberObject(bool: true))], mutable: true)
        let root = ArrayObject([
            AttributedStringObject("👍🏽 e\u{301}", runs: [.init(length: 4, attributes: bold), .init(length: 3, attributes: bold)], mutable: true),
            DataObject([1, 2, 3]), DateObject(timeIntervalSinceReferenceDate: 0.25), ValueObject(.rect(x: 0, y: 1, width: 2, height: 3)),
            SetObject(strings: ["s"]), NullObject(), URLObject(string: "b", base: URLObject(string: "https://a/")),
            NumberObject(.uint(7)),
        ])
        let bytes = try archived(root)
        #expect(try reencoded(bytes) == bytes)
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self, "prefix of \(length) bytes") { try decodedRoot(Array(bytes.prefix(length))) }
        }
    }
}
