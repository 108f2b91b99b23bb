import Foundation
import Testing
import TypedStream
@testable import TypedStreamExport

/// Plain JSON: generic objects, references, and the natural-value hook.
@Suite struct PlainJSONTests {
    static func natural(_ archive: Archive, _ hook: @escaping PlainJSON.NaturalValue) throws -> JSONValue {
        try PlainJSON.value(archive, options: .init(naturalValue: hook))
    }

    @Test func hookSubstitutesNaturalValuesAndRepeatsThem() throws {
        let archive = SampleArchive.make()
        let value = try Self.natural(archive) { object, _ in
            switch object.className {
            case "NSString": return .value(group: 0, index: 0)
            case "NSNumber": return .value(group: object.groups.count - 1, index: 0)
            default: return nil
            }
        }
        guard case .array(let top)? = value["values"], case .object(let array)? = top.first else {
            Issue.record("unexpected shape")
            return
        }
        // NSArray stays generic; its strings and numbers became natural values; the cycle is a $ref.
        #expect(array.map(\.key) == ["$class", "$id", "contents"])
        #expect(value["values"]?[0]?["contents"] == .array([.integer(4), .string("héllo \"world\"\n"), .integer(1), .integer(0), .object([JSONMember("$ref", .integer(0))])]))
        // The string's second occurrence repeats its natural value.
        #expect(top[1] == .string("héllo \"world\"\n"))
    }

    @Test func hookThatReachesItsOwnObjectGetsAnID() throws {
        let archive = SampleArchive.make()
        let value = try Self.natural(archive) { object, _ in
            guard object.className == "NSArray" else { return nil }
            return .values(fromGroup: 0)  // contains the array itself
        }
        // Ids are object-table slots (the array #0, the string #3, the numbers #5 and #9), as
        // `decode` numbers them; the array's is written when the cycle reaches it.
        let expectedFirst = JSONValue.object([
            JSONMember("$id", .integer(0)),
            JSONMember("$value", .array([
                .integer(4),
                .object([JSONMember("$class", .string("NSString")), JSONMember("$id", .integer(3)), JSONMember("contents", .array([.string("héllo \"world\"\n")]))]),
                .object([JSONMember("$class", .string("NSNumber")), JSONMember("$id", .integer(5)), JSONMember("contents", .array([.string("c"), .integer(1)]))]),
                .object([JSONMember("$class", .string("NSNumber")), JSONMember("$id", .integer(9)), JSONMember("contents", .array([.string("c"), .integer(0)]))]),
                .object([JSONMember("$ref", .integer(0))]),
            ])),
        ])
        #expect(value["values"]?[0] == expectedFirst)
    }

    @Test func unsignedTypesAndBooleansReadNaturally() throws {
        let archive = Archive(groups: [SampleArchive.group("SIQBBcCc", [
            .integer(-1, width: nil), .integer(-2, width: nil), .integer(-3, width: nil), .byte(1), .byte(2), .byte(255),
            .byte(192), .byte(192),
        ])])
        // Unsigned types read unsigned, `c` (signed char) signed: 0xC0 is 192 as `C`, -64 as `c`.
        #expect(try PlainJSON.value(archive)["values"] == .array([
            .integer(65535), .integer(4294967294), .integer(UInt64.max - 2), .bool(true), .integer(2), .integer(-1),
            .integer(192), .integer(-64),
        ]))
    }

    /// Dates print to the precision stored: the fraction when there is one (plain JSON), whole
    /// seconds where the format has no fraction (XML plists); out of range is `nil`, not a trap.
    @Test func datesKeepTheirFraction() {
        #expect(ISODate.formatWithFraction(secondsSince2001: 700_000_000.523) == "2023-03-08T20:26:40.523Z")
        #expect(ISODate.formatWithFraction(secondsSince2001: 700_000_000) == "2023-03-08T20:26:40Z")
        #expect(ISODate.formatWithFraction(secondsSince2001: -0.25) == "2000-12-31T23:59:59.75Z")
        #expect(ISODate.format(secondsSince2001: 700_000_000.523) == "2023-03-08T20:26:40Z")
        for bad in [Double.nan, .infinity, -1e300, 1e18] {
            #expect(ISODate.formatWithFraction(secondsSince2001: bad) == nil)
            #expect(ISODate.format(secondsSince2001: bad) == nil)
        }
        #expect(FoundationPlainJSON.json(.date(Date(timeIntervalSinceReferenceDate: 700_000_000.523))) == .string("2023-03-08T20:26:40.523Z"))
    }
}
