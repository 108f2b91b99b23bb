import Testing
import ObjCTypeEncoding

@Suite("Parsing and canonical printing")
struct ParseTests {
    static let letters: [ParseRow] = [
        ParseRow("c", .char), ParseRow("C", .unsignedChar),
        ParseRow("s", .short), ParseRow("S", .unsignedShort),
        ParseRow("i", .int), ParseRow("I", .unsignedInt),
        ParseRow("l", .long), ParseRow("L", .unsignedLong),
        ParseRow("q", .longLong), ParseRow("Q", .unsignedLongLong),
        ParseRow("f", .float), ParseRow("d", .double),
        ParseRow("B", .bool), ParseRow("v", .void),
        ParseRow("*", .cString), ParseRow("@", .id),
        ParseRow("#", .classObject), ParseRow(":", .selector),
        ParseRow("%", .atom), ParseRow("+", .bytes),
        ParseRow("!", .ignored), ParseRow("?", .unknown),
        ParseRow("^i", .pointer(.int)), ParseRow("^v", .pointer(.void)),
        ParseRow("^^{CGContext}", .pointer(.pointer(.st("CGContext"))), canonical: "^^{CGContext=}"),
    ]

    static let compound: [ParseRow] = [
        ParseRow("@\"NSString\"", .object(className: "NSString")),
        ParseRow("@\"\"", .object(className: "")),
        // Arrays.
        ParseRow("[4c]", .array(count: 4, element: .char)),
        ParseRow("[0i]", .array(count: 0, element: .int)),
        ParseRow("[13@]", .array(count: 13, element: .id)),
        ParseRow("[2[3d]]", .array(count: 2, element: .array(count: 3, element: .double))),
        ParseRow("[3ii]", .array(count: 3, element: .st(nil, .int, .int)), canonical: "[3{ii}]"),
        ParseRow("[2{?=ff}]", .array(count: 2, element: .st("?", .float, .float))),
        // Structs.
        ParseRow("{?=ffff}", .st("?", .float, .float, .float, .float)),
        ParseRow("{ff}", .st(nil, .float, .float)),
        ParseRow("{}", .st(nil)),
        ParseRow("{CGContext=}", .st("CGContext")),
        ParseRow("{CGContext}", .st("CGContext"), canonical: "{CGContext=}"),
        ParseRow("{?}", .st("?"), canonical: "{?=}"),
        ParseRow("{_NSRange=II}", .st("_NSRange", .unsignedInt, .unsignedInt)),
        ParseRow("{CGRect={CGPoint=dd}{CGSize=dd}}", .st("CGRect", .st("CGPoint", .double, .double), .st("CGSize", .double, .double))),
        ParseRow("{a={b={c=i}}}", .st("a", .st("b", .st("c", .int)))),
        ParseRow("{{ii}f}", .st(nil, .st(nil, .int, .int), .float)),
        ParseRow("{CGPoint=\"x\"d\"y\"d}", .named("CGPoint", ("x", .double), ("y", .double))),
        ParseRow("{\"x\"i}", .named(nil, ("x", .int))),
        ParseRow("{?=\"o\"@\"NSString\"\"n\"i}", .named("?", ("o", .object(className: "NSString")), ("n", .int))),
        ParseRow("{?=\"o\"@\"NSString\"}", .named("?", ("o", .object(className: "NSString")))),
        // `@"b"` followed by a type: "b" names the next member (clang's ambiguity).
        ParseRow("{?=\"a\"@\"b\"i}", .named("?", ("a", .id), ("b", .int))),
        ParseRow("{?=\"a\"@\"b\"{?=ii}}", .named("?", ("a", .id), ("b", .st("?", .int, .int)))),
        ParseRow("(?=\"a\"@\"b\"i)", .union(name: "?", fields: [ObjCField(name: "a", type: .id), ObjCField(name: "b", type: .int)])),
        // Without member names a quoted text after `@` is always a class hint.
        ParseRow("{?=@\"NSView\"i}", .st("?", .object(className: "NSView"), .int)),
        ParseRow("{s=cib3b5}", .st("s", .char, .int, .bitfield(width: 3), .bitfield(width: 5))),
        ParseRow("{s=b0b64}", .st("s", .bitfield(width: 0), .bitfield(width: 64))),
        ParseRow("{?=^{?=i}i}", .st("?", .pointer(.st("?", .int)), .int)),
        // Unions.
        ParseRow("(u=ic)", .un("u", .int, .char)),
        ParseRow("(?=i{?=ss})", .un("?", .int, .st("?", .short, .short))),
        ParseRow("(ic)", .un(nil, .int, .char)),
        ParseRow("(\"a\"i\"b\"f)", .union(name: nil, fields: [ObjCField(name: "a", type: .int), ObjCField(name: "b", type: .float)])),
        // Bitfields.
        ParseRow("b1", .bitfield(width: 1)), ParseRow("b32", .bitfield(width: 32)),
        // Qualifiers.
        ParseRow("r*", .q("r", .cString)), ParseRow("n@", .q("n", .id)),
        ParseRow("N^i", .q("N", .pointer(.int))), ParseRow("o^@", .q("o", .pointer(.id))),
        ParseRow("O@", .q("O", .id)), ParseRow("R@", .q("R", .id)), ParseRow("Vv", .q("V", .void)),
        ParseRow("rn^v", .q("rn", .pointer(.void))),
        ParseRow("^r*", .pointer(.q("r", .cString))),
        ParseRow("{?=ri}", .st("?", .q("r", .int))),
        // The design-card alias: accepted, printed with braces.
        ParseRow("<?=ffff>", .st("?", .float, .float, .float, .float), canonical: "{?=ffff}"),
        ParseRow("<ff>", .st(nil, .float, .float), canonical: "{ff}"),
        ParseRow("{a=<b=i>}", .st("a", .st("b", .int)), canonical: "{a={b=i}}"),
    ]

    @Test("Every type letter", arguments: letters)
    func letter(_ row: ParseRow) throws {
        try check(row)
    }

    @Test("Compound types", arguments: compound)
    func compoundType(_ row: ParseRow) throws {
        try check(row)
    }

    private func check(_ row: ParseRow) throws {
        let parsed = try ObjCType.parse(row.text)
        #expect(parsed == row.expected, sourceLocation: row.location)
        #expect(parsed.encoding == row.canonical, sourceLocation: row.location)
        #expect(parsed.description == row.canonical, sourceLocation: row.location)
        #expect(row.expected.encoding == row.canonical, sourceLocation: row.location)
        // The canonical text parses back to the same tree and prints identically.
        let again = try ObjCType.parse(parsed.encoding)
        #expect(again == parsed, sourceLocation: row.location)
        #expect(again.encoding == row.canonical, sourceLocation: row.location)
    }

    @Test("letter and simple(letter:) agree for every simple type")
    func letterTable() {
        var found = 0
        for byte in UInt8(0)...UInt8(127) {
            guard let type = ObjCType.simple(letter: byte) else { continue }
            found += 1
            #expect(type.letter == byte, "letter \(Character(UnicodeScalar(byte)))")
        }
        #expect(found == 22)
        #expect(ObjCType.simple(letter: UInt8(ascii: "x")) == nil)
        #expect(ObjCType.st("?", .int).letter == nil)
        #expect(ObjCType.bitfield(width: 3).letter == nil)
    }

    @Test("unqualified strips every qualifier layer")
    func unqualified() throws {
        #expect(try ObjCType.parse("rn@").unqualified == .id)
        #expect(try ObjCType.parse("^ri").unqualified == .pointer(.q("r", .int)))
        #expect(ObjCType.q("r", .q("n", .int)).unqualified == .int)
    }

    @Test("isQualifier answers as the set of allowed qualifiers, for every byte")
    func qualifierTest() {
        for byte in UInt8.min...UInt8.max {
            #expect(ObjCTypeQualifiers.isQualifier(byte) == ObjCTypeQualifiers.allowed.contains(byte), "byte \(byte)")
        }
    }

    @Test("Bytes parse the same as text")
    func bytesInput() throws {
        var parser = ObjCTypeParser(bytes: Array("{?=ffff}".utf8))
        #expect(try parser.parseSingle() == .st("?", .float, .float, .float, .float))
        #expect(try ObjCType.parseGroup(bytes: Array("iI".utf8)[...]) == [.int, .unsignedInt])
    }

    @Test("A deep but allowed nesting parses, prints and lays out")
    func deepWithinLimit() throws {
        let text = String(repeating: "{a=", count: 63) + "i" + String(repeating: "}", count: 63)
        let type = try ObjCType.parse(text)
        #expect(type.encoding == text)
        #expect(type.layout(.lp64) == ObjCTypeLayout(size: 4, alignment: 4))
        var limits = ObjCTypeParser.Limits()
        limits.maximumDepth = 200
        let deeper = String(repeating: "^", count: 150) + "i"
        #expect(try ObjCType.parse(deeper, limits: limits).encoding == deeper)
    }
}
