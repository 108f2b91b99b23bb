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
        #expect(value["values"]?[0]?["contents"] == .array([.integer(4), .string("héllo \"world\"\n"), .integer(1), .integer(0), .object([JSONMember("$ref", .integer(1))])]))
        // The string's second occurrence repeats its natural value.
        #expect(top[1] == .string("héllo \"world\"\n"))
    }

    @Test func hookThatReachesItsOwnObjectGetsAnID() throws {
        let archive = SampleArchive.make()
        let value = try Self.natural(archive) { object, _ in
            guard object.className == "NSArray" else { return nil }
            return .values(fromGroup: 0)  // contains the array itself
        }
        // The array's id is given when the cycle reaches it, after those of its elements.
        let expectedFirst = JSONValue.object([
            JSONMember("$id", .integer(4)),
            JSONMember("$value", .array([
                .integer(4),
                .object([JSONMember("$class", .string("NSString")), JSONMember("$id", .integer(1)), JSONMember("contents", .array([.string("héllo \"world\"\n")]))]),
                .object([JSONMember("$class", .string("NSNumber")), JSONMember("$id", .integer(2)), JSONMember("contents", .array([.string("c"), .integer(1)]))]),
                .object([JSONMember("$class", .string("NSNumber")), JSONMember("$id", .integer(3)), JSONMember("contents", .array([.string("c"), .integer(0)]))]),
                .object([JSONMember("$ref", .integer(4))]),
            ])),
        ])
        #expect(value["values"]?[0] == expectedFirst)
    }

    @Test func unsignedTypesAndBooleansReadNaturally() throws {
        let archive = Archive(groups: [SampleArchive.group("SIQBBc", [
            .integer(-1, width: nil), .integer(-2, width: nil), .integer(-3, width: nil), .byte(1), .byte(2), .byte(255),
        ])])
        #expect(try PlainJSON.value(archive)["values"] == .array([
            .integer(65535), .integer(4294967294), .integer(UInt64.max - 2), .bool(true), .integer(2), .integer(255),
        ]))
    }
}
