import Testing
import ObjCTypeEncoding

/// Expected values were checked against clang (`sizeof`/`_Alignof` for i386-linux-gnu,
/// i386-apple-darwin and x86_64-linux-gnu) with `int`/`unsigned` bitfields (`long long` for
/// widths over 32).
@Suite("Sizes and alignments")
struct LayoutTests {
    static let rows: [LayoutRow] = [
        LayoutRow("c", both: (1, 1)), LayoutRow("C", both: (1, 1)), LayoutRow("B", both: (1, 1)),
        LayoutRow("s", both: (2, 2)), LayoutRow("S", both: (2, 2)),
        LayoutRow("i", both: (4, 4)), LayoutRow("I", both: (4, 4)), LayoutRow("f", both: (4, 4)),
        LayoutRow("l", ilp32: (4, 4), lp64: (8, 8)), LayoutRow("L", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("q", ilp32: (8, 4), lp64: (8, 8)), LayoutRow("Q", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("d", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("*", ilp32: (4, 4), lp64: (8, 8)), LayoutRow("@", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("@\"NSString\"", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("#", ilp32: (4, 4), lp64: (8, 8)), LayoutRow(":", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("%", ilp32: (4, 4), lp64: (8, 8)), LayoutRow("^i", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("^v", ilp32: (4, 4), lp64: (8, 8)), LayoutRow("?", ilp32: (4, 4), lp64: (8, 8)),
        LayoutRow("rd", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("v", both: nil), LayoutRow("!", both: nil), LayoutRow("+", both: nil),
        // Arrays.
        LayoutRow("[4c]", both: (4, 1)), LayoutRow("[3i]", both: (12, 4)),
        LayoutRow("[0d]", ilp32: (0, 4), lp64: (0, 8)), LayoutRow("[2l]", ilp32: (8, 4), lp64: (16, 8)),
        LayoutRow("[3ii]", both: (24, 4)), LayoutRow("[2{?=cd}]", ilp32: (24, 4), lp64: (32, 8)),
        LayoutRow("[4v]", both: nil),
        // Structs.
        LayoutRow("{?=ffff}", both: (16, 4)), LayoutRow("<?=ffff>", both: (16, 4)),
        LayoutRow("{CGRect={CGPoint=dd}{CGSize=dd}}", ilp32: (32, 4), lp64: (32, 8)),
        LayoutRow("{CGPoint=\"x\"d\"y\"d}", ilp32: (16, 4), lp64: (16, 8)),
        LayoutRow("{_NSRange=QQ}", ilp32: (16, 4), lp64: (16, 8)),
        LayoutRow("{s=cd}", ilp32: (12, 4), lp64: (16, 8)),
        LayoutRow("{s=ql}", ilp32: (12, 4), lp64: (16, 8)),
        LayoutRow("{s=*c}", ilp32: (8, 4), lp64: (16, 8)),
        LayoutRow("{s=ci}", both: (8, 4)), LayoutRow("{s=ic}", both: (8, 4)),
        LayoutRow("{s=sc}", both: (4, 2)), LayoutRow("{s=cs}", both: (4, 2)),
        LayoutRow("{s=[3c]s}", both: (6, 2)), LayoutRow("{s=c{?=cc}c}", both: (4, 1)),
        LayoutRow("{CGContext=}", both: (0, 1)), LayoutRow("{CGContext}", both: (0, 1)),
        LayoutRow("{?=v}", both: nil), LayoutRow("{?=i+}", both: nil),
        // Bitfields (i386 and x86-64 pack them alike except for 64-bit units).
        LayoutRow("{s=cib3b5}", both: (12, 4)),
        LayoutRow("{s=cb3}", both: (4, 4)), LayoutRow("{s=b3c}", both: (4, 4)),
        LayoutRow("{s=b31b2}", both: (8, 4)), LayoutRow("{s=b8b8b8b8}", both: (4, 4)),
        LayoutRow("{s=b3S}", both: (4, 4)),
        LayoutRow("{s=b1d}", ilp32: (12, 4), lp64: (16, 8)),
        LayoutRow("{s=cb0c}", both: (5, 1)),
        LayoutRow("{s=b40}", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("{s=cb40}", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("{s=b20b40}", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("{s=b30b40}", ilp32: (12, 4), lp64: (16, 8)),
        LayoutRow("{s=[5c]b40}", ilp32: (12, 4), lp64: (16, 8)),
        // Unions.
        LayoutRow("(u=ic)", both: (4, 4)), LayoutRow("(u=cd)", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("(u=c[5c])", both: (5, 1)), LayoutRow("(u=s[3c])", both: (4, 2)),
        LayoutRow("(u=b3)", both: (4, 4)), LayoutRow("(u=b40)", ilp32: (8, 4), lp64: (8, 8)),
        LayoutRow("(u=@c)", ilp32: (4, 4), lp64: (8, 8)), LayoutRow("(u=iv)", both: nil),
    ]

    @Test("Size and alignment on ilp32 and lp64", arguments: rows)
    func layout(_ row: LayoutRow) throws {
        let type = try ObjCType.parse(row.text)
        #expect(type.layout(.ilp32) == row.ilp32, "ilp32", sourceLocation: row.location)
        #expect(type.layout(.lp64) == row.lp64, "lp64", sourceLocation: row.location)
    }

    @Test("Sizes too large to represent give nil, never a trap")
    func overflow() throws {
        let huge = try ObjCType.parse("[2147483647[2147483647[2147483647d]]]")
        #expect(huge.layout(.lp64) == nil)
        let maxBytes = ObjCType.array(count: Int.max, element: .char)
        #expect(maxBytes.layout(.ilp32) == ObjCTypeLayout(size: Int.max, alignment: 1))
        #expect(ObjCType.st(nil, maxBytes, .int).layout(.lp64) == nil)
        #expect(ObjCType.st(nil, .int, maxBytes).layout(.lp64) == nil)
        #expect(ObjCType.st(nil, maxBytes, .bitfield(width: 3)).layout(.lp64) == nil)
        #expect(ObjCType.un(nil, maxBytes, .int).layout(.lp64) == nil)
    }
}
