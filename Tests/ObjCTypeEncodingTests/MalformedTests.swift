import Testing
import ObjCTypeEncoding

@Suite("Malformed type strings")
struct MalformedTests {
    static let rows: [ErrorRow] = [
        ErrorRow("{", .unexpectedEnd, at: 1),
        ErrorRow("(", .unexpectedEnd, at: 1),
        ErrorRow("<", .unexpectedEnd, at: 1),
        ErrorRow("[", .unexpectedEnd, at: 1),
        ErrorRow("[12", .unexpectedEnd, at: 3),
        ErrorRow("[12i", .unexpectedEnd, at: 4),
        ErrorRow("{a=i", .unexpectedEnd, at: 4),
        ErrorRow("{a", .unexpectedEnd, at: 2),
        ErrorRow("(a=i", .unexpectedEnd, at: 4),
        ErrorRow("<?=ff", .unexpectedEnd, at: 5),
        ErrorRow("{\"x", .unexpectedEnd, at: 3),
        ErrorRow("{\"x\"", .unexpectedEnd, at: 4),
        ErrorRow("@\"NSStr", .unexpectedEnd, at: 7),
        ErrorRow("{?=\"a\"@\"b", .unexpectedEnd, at: 9),
        ErrorRow("b", .unexpectedEnd, at: 1),
        ErrorRow("^", .unexpectedEnd, at: 1),
        ErrorRow("r", .unexpectedEnd, at: 1),
        ErrorRow("{?=b", .unexpectedEnd, at: 4),
        ErrorRow("]", .unexpectedCharacter, at: 0),
        ErrorRow("}", .unexpectedCharacter, at: 0),
        ErrorRow(")", .unexpectedCharacter, at: 0),
        ErrorRow("\"", .unexpectedCharacter, at: 0),
        ErrorRow("=", .unexpectedCharacter, at: 0),
        ErrorRow("x", .unexpectedCharacter, at: 0),
        ErrorRow("{a=i]", .unexpectedCharacter, at: 4),
        ErrorRow("{?=ff>", .unexpectedCharacter, at: 5),
        ErrorRow("[2i}", .unexpectedCharacter, at: 3),
        ErrorRow("\u{00e9}", .unexpectedCharacter, at: 0),
        ErrorRow("[12]", .empty, at: 3),
        ErrorRow("{a=[2]}", .empty, at: 5),
        ErrorRow("b99", .badCount, at: 1),
        ErrorRow("b65", .badCount, at: 1),
        ErrorRow("bx", .badCount, at: 1),
        ErrorRow("[x]", .badCount, at: 1),
        ErrorRow("[-1i]", .badCount, at: 1),
        ErrorRow("[2147483648i]", .badCount, at: 1),
        ErrorRow("[99999999999999999999999999i]", .badCount, at: 1),
        ErrorRow(String(repeating: "{", count: 10_000), .tooDeep, at: 64),
        ErrorRow(String(repeating: "(", count: 10_000), .tooDeep, at: 64),
        ErrorRow(String(repeating: "{a=", count: 10_000), .tooDeep, at: 192),
        ErrorRow(String(repeating: "[1", count: 10_000), .tooDeep, at: 128),
        ErrorRow(String(repeating: "^", count: 10_000), .tooDeep, at: 64),
        ErrorRow(String(repeating: "^", count: 10_000) + "i", .tooDeep, at: 64),
        ErrorRow(String(repeating: "r^", count: 10_000), .tooDeep, at: 64),
        ErrorRow(String(repeating: "{\"m\"", count: 10_000), .tooDeep, at: 256),
    ]

    @Test("Each malformed string throws the right code at the right position", arguments: rows)
    func malformed(_ row: ErrorRow) {
        for (what, attempt) in [("parse", { () throws(ObjCTypeError) in _ = try ObjCType.parse(row.text) }),
                                ("parseGroup", { () throws(ObjCTypeError) in _ = try ObjCType.parseGroup(row.text) })] {
            do {
                try attempt()
                Issue.record("\(what) accepted a malformed string", sourceLocation: row.location)
            } catch {
                #expect(error.code == row.code, "\(what): \(error)", sourceLocation: row.location)
                #expect(error.position == row.position, "\(what): \(error)", sourceLocation: row.location)
                #expect(!error.reason.isEmpty, sourceLocation: row.location)
                #expect(error.description.hasPrefix("type string position \(row.position):"), sourceLocation: row.location)
            }
        }
    }

    @Test("Only a single-type parse complains about trailing text")
    func trailing() throws {
        #expect(throws: ObjCTypeError(.trailingCharacters, at: 0, "")) { try ObjCType.parse("ii") }
        do {
            _ = try ObjCType.parse("{?=i}]")
        } catch {
            #expect(error.code == .trailingCharacters && error.position == 5)
        }
        #expect(try ObjCType.parseGroup("ii").count == 2)
    }

    @Test("Limits bound the depth and the array count")
    func limits() {
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = 2
        limits.maximumArrayCount = 10
        #expect(throws: ObjCTypeError(.tooDeep, at: 0, "")) { try ObjCType.parse("^^^i", limits: limits) }
        #expect(throws: ObjCTypeError(.badCount, at: 0, "")) { try ObjCType.parse("[11c]", limits: limits) }
        #expect((try? ObjCType.parse("[10c]", limits: limits)) != nil)
        #expect((try? ObjCType.parse("^^i", limits: limits)) == nil)
        #expect((try? ObjCType.parse("^i", limits: limits)) != nil)
    }

    @Test("Errors compare by code")
    func equality() {
        #expect(ObjCTypeError(.empty, at: 1, "a") == ObjCTypeError(.empty, at: 9, "b"))
        #expect(ObjCTypeError(.empty, at: 1, "a") != ObjCTypeError(.tooDeep, at: 1, "a"))
        #expect(Set([ObjCTypeError(.empty, at: 1, "a"), ObjCTypeError(.empty, at: 2, "b")]).count == 1)
    }
}
