import Testing
@testable import TypedStreamExport

/// The packed form of property-list values a keyed export keeps its `$objects` in, and the XML
/// text written from it.
struct PlistCodeTests {
    /// Integers are packed as varints of their zigzag form and read back exactly, the small
    /// ones most keys hold in two bytes.
    @Test func integersRoundTripAtEveryWidth() {
        let samples: [Int64] = [0, -1, 1, 63, -64, 64, 127, 128, -129, 300, 1 << 31, -(1 << 31), 1 << 53, .max, .min, .max - 1, .min + 1]
        for value in samples {
            var keys: PlistCode.Keys? = PlistCode.Keys()
            var code: [UInt8] = []
            PlistCode.append(.integer(value), keys: &keys, to: &code)
            var reader = PlistCode.Reader(code, at: 0)
            #expect(reader.value(keys: []) == .integer(value))
            #expect(reader.position == code.count)
            var skipper = PlistCode.Reader(code, at: 0)
            skipper.skipScalar()
            #expect(skipper.position == code.count)
        }
        var keys: PlistCode.Keys? = PlistCode.Keys()
        var code: [UInt8] = []
        PlistCode.append(.array([.integer(0), .integer(-1), .integer(63)]), keys: &keys, to: &code)
        #expect(code == [PlistCode.array, 3, PlistCode.integer, 0, PlistCode.integer, 1, PlistCode.integer, 126])
    }

    /// The binary plist of integers packed this way is the one written from the values.
    @Test func binaryPlistOfPackedIntegersIsExact() throws {
        let value = PlistValue.array([.integer(-1), .integer(0), .integer(255), .integer(256), .integer(.min), .integer(.max)])
        let bytes = BinaryPlistWriter.write(value)
        #expect(try BinaryPlistReader.read(bytes) == value)
    }

    /// XML text: escapes, tabs, UIDs and empty collections, byte for byte; a character XML 1.0
    /// cannot hold is refused with its path.
    @Test func xmlTextIsExact() throws {
        let value = PlistValue.dictionary([
            PlistEntry("a&b", .string("x<y>z\r\t\n\u{FFFD}é")),
            PlistEntry("list", .array([.uid(7), .integer(-3), .bool(true), .array([]), .dictionary([])])),
        ])
        let expected = XMLPlistWriter.header + """
            <dict>
            \t<key>a&amp;b</key>
            \t<string>x&lt;y&gt;z&#13;\t
            \u{FFFD}é</string>
            \t<key>list</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>CF$UID</key>
            \t\t\t<integer>7</integer>
            \t\t</dict>
            \t\t<integer>-3</integer>
            \t\t<true/>
            \t\t<array/>
            \t\t<dict/>
            \t</array>
            </dict>

            """ + XMLPlistWriter.footer
        #expect(try XMLPlistWriter.write(value) == expected)
        #expect(throws: XMLPlistWriter.Unrepresentable.self) {
            try XMLPlistWriter.write(.array([.string("ok"), .dictionary([PlistEntry("k", .string("bad\u{FFFE}"))])]))
        }
        do {
            _ = try XMLPlistWriter.write(.array([.string("ok"), .dictionary([PlistEntry("k", .string("a\u{1B}"))])]))
        } catch {
            #expect(error.path == "[1].k")
            #expect(error.problem.hasPrefix("holds U+001B,"))
        }
    }
}
