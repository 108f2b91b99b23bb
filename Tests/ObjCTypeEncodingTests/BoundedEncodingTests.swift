import Testing
import ObjCTypeEncoding

/// `encoding(limit:)` prints at most about `limit` bytes, whatever the type's size: a tool that
/// names a megabyte-long struct type at each of 100 000 groups must not print it each time.
@Suite("Bounded encodings")
struct BoundedEncodingTests {
    @Test(arguments: ["i", "{CGPoint=dd}", "[12{?=ff}]", "(u=ic)", "^{S=\"x\"i}", "r*"])
    func shortTypesPrintInFull(_ text: String) throws {
        let type = try ObjCType.parse(text)
        #expect(type.encoding(limit: 64) == type.encoding)
        #expect(type.encoding(limit: type.encoding.utf8.count) == type.encoding)
    }

    @Test func longTypesAreCutWithAnEllipsis() {
        let longName = ObjCType.structure(name: String(repeating: "N", count: 100_000), fields: [ObjCField(type: .char)])
        let manyFields = ObjCType.structure(name: "?", fields: Array(repeating: ObjCField(type: .int), count: 100_000))
        let deep = (0..<60).reduce(ObjCType.int) { inner, _ in .array(count: 2, element: inner) }
        for type in [longName, manyFields, deep] {
            let cut = type.encoding(limit: 64)
            #expect(cut.hasSuffix("…"))
            #expect(cut.utf8.count == 64 + "…".utf8.count)
            #expect(type.encoding.hasPrefix(String(cut.dropLast())))
        }
    }
}
