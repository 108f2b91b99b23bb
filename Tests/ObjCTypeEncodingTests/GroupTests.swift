import Testing
import ObjCTypeEncoding

@Suite("Group splitting")
struct GroupTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let text: String
        let types: [ObjCType]
        let location: SourceLocation
        init(_ text: String, _ types: [ObjCType], _ location: SourceLocation = #_sourceLocation) {
            self.text = text
            self.types = types
            self.location = location
        }
        var testDescription: String { "\"\(text)\"" }
    }

    static let rows: [Row] = [
        Row("", []),
        Row("i", [.int]),
        Row("iI", [.int, .unsignedInt]),
        Row("@@@@ffffffff", [.id, .id, .id, .id] + Array(repeating: ObjCType.float, count: 8)),
        Row("{?=ffff}Ii", [.st("?", .float, .float, .float, .float), .unsignedInt, .int]),
        Row("icc@", [.int, .char, .char, .id]),
        Row("@i", [.id, .int]),
        Row("ffff", Array(repeating: ObjCType.float, count: 4)),
        Row("[4c]i", [.array(count: 4, element: .char), .int]),
        Row("@\"NSString\"i", [.object(className: "NSString"), .int]),
        Row("*@ss@", [.cString, .id, .short, .short, .id]),
        Row("r*ri", [.q("r", .cString), .q("r", .int)]),
        Row("(u=ic)b3^v", [.un("u", .int, .char), .bitfield(width: 3), .pointer(.void)]),
        Row("<?=ff>i", [.st("?", .float, .float), .int]),
    ]

    @Test("Splits into complete types", arguments: rows)
    func split(_ row: Row) throws {
        let types = try ObjCType.parseGroup(row.text)
        #expect(types == row.types, sourceLocation: row.location)
        let fromBytes = try ObjCType.parseGroup(bytes: Array(row.text.utf8))
        #expect(fromBytes == row.types, sourceLocation: row.location)
        // Printing the types one after the other gives the canonical group string back.
        let printed = types.map(\.encoding).joined()
        #expect(try ObjCType.parseGroup(printed) == types, sourceLocation: row.location)
    }

    @Test("A single-type parse refuses a group or an empty string")
    func singleRefusesGroup() {
        #expect(throws: ObjCTypeError(.trailingCharacters, at: 1, "")) { try ObjCType.parse("iI") }
        #expect(throws: ObjCTypeError(.empty, at: 0, "")) { try ObjCType.parse("") }
    }
}
