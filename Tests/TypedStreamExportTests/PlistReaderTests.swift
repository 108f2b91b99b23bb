import Testing
@testable import TypedStreamExport

/// The bounded property-list readers and the keyed-archive check, on hostile shapes.
@Suite struct PlistReaderTests {
    static let rich = PlistValue.dictionary([
        PlistEntry("text", .string("a < b & \"c\" ✓ \t\r\n")), PlistEntry("int", .integer(-5)), PlistEntry("big", .integer(Int64.min)),
        PlistEntry("real", .real(1.5)), PlistEntry("yes", .bool(true)), PlistEntry("no", .bool(false)),
        PlistEntry("data", .data([0, 1, 2, 255, 254])), PlistEntry("date", .date(-978_307_200)), PlistEntry("uid", .uid(7)),
        PlistEntry("list", .array([.array([]), .dictionary([]), .string("")])),
    ])

    @Test func xmlReaderReadsWhatTheWriterWrites() throws {
        #expect(try XMLPlistReader.read(Array(XMLPlistWriter.write(Self.rich).utf8)) == Self.rich)
        #expect(try BinaryPlistReader.read(BinaryPlistWriter.write(Self.rich)) == Self.rich)
    }

    @Test func xmlReaderReadsFoundationSpellings() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <!-- a comment -->
        <plist version="1.0"><dict>
          <key>s</key><string><![CDATA[<raw>]]>&#x41;&#66;&apos;</string>
          <key>e</key><string/>
          <key>d</key><data>
            AAEC
            /w==
          </data>
          <key>t</key><date>2001-01-02T00:00:01Z</date>
          <key>u</key><dict><key>CF$UID</key><integer>3</integer></dict>
          <key>r</key><real>-inf</real>
        </dict></plist>
        """
        let value = try XMLPlistReader.read(Array(text.utf8))
        #expect(value["s"] == .string("<raw>AB'"))
        #expect(value["e"] == .string(""))
        #expect(value["d"] == .data([0, 1, 2, 255]))
        #expect(value["t"] == .date(86401))
        #expect(value["u"] == .uid(3))
        #expect(value["r"] == .real(-.infinity))
    }

    static func xmlError(_ text: String) -> String {
        do {
            _ = try XMLPlistReader.read(Array(text.utf8))
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func xmlReaderExpandsNoEntities() {
        let billion = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
        <plist><string>&lol2;</string></plist>
        """
        #expect(Self.xmlError(billion) == "offset 0x26 (38): XML property list: a DOCTYPE with an internal subset (entity declarations) is not accepted")
        #expect(Self.xmlError("<plist><string>&xxe;</string></plist>")
                == "offset 0xf (15): XML property list: entity \"&xxe;\" is not one of XML's five predefined entities or a character reference")
        #expect(Self.xmlError("<plist><string>a & b</string></plist>") == "offset 0x11 (17): XML property list: '&' that does not start an entity (write &amp;)")
    }

    @Test func xmlReaderRefusesMalformedShapes() {
        #expect(Self.xmlError("<plist><array><string>x</string></dict></plist>") == "offset 0x20 (32): XML property list: unexpected </dict>")
        #expect(Self.xmlError("<plist><dict><string>x</string></dict></plist>") == "offset 0xd (13): XML property list: expected <key> in <dict>, found <string>")
        #expect(Self.xmlError("<plist><integer>12x</integer></plist>") == "offset 0x7 (7): XML property list: <integer> \"12x\" is not an integer")
        #expect(Self.xmlError("<plist><string>x</string>") == "offset 0x19 (25): XML property list: the property list ends early")
        #expect(Self.xmlError("<plist><string>x</string></plist>junk") == "offset 0x21 (33): XML property list: content after the end of the property list")
        #expect(Self.xmlError("<plist><blob>x</blob></plist>") == "offset 0x7 (7): XML property list: unknown element <\"blob\">")
    }

    @Test func xmlNestingIsBoundedWithoutRecursion() {
        let depth = 100_000
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(Self.xmlError(text) == "offset 0xe07 (3591): XML property list: collections nested deeper than 512")
        let fine = "<plist>" + String(repeating: "<array>", count: 512) + String(repeating: "</array>", count: 512) + "</plist>"
        #expect(Self.xmlError(fine) == "no error")
    }

    static func binaryError(_ bytes: [UInt8]) -> String {
        do {
            _ = try BinaryPlistReader.read(bytes)
            return "no error"
        } catch {
            return error.description
        }
    }

    /// Big-endian `value` in `size` bytes.
    static func be(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }

    /// A bplist of `objects` (markers and references written by hand with `refSize`-byte
    /// references), 4-byte offsets.
    static func bplist(_ objects: [[UInt8]], top: Int = 0, refSize: Int = 1) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(out.count); out += object }
        let table = out.count
        for offset in offsets { out += be(offset, 4) }
        return out + [0, 0, 0, 0, 0, 0, 4, UInt8(refSize)] + be(objects.count, 8) + be(top, 8) + be(table, 8)
    }

    @Test func binaryReaderRefusesCyclesAndBombs() {
        #expect(Self.binaryError(Self.bplist([[0xA1, 0]])) == "offset 0x8 (8): binary property list: object 0 (a collection) contains itself")
        #expect(Self.binaryError(Self.bplist([[0xA1, 1], [0xA1, 0]])) == "offset 0x8 (8): binary property list: object 0 (a collection) contains itself")
        // 40 levels of [a, a] over a 1 000-byte string: 2⁴⁰ kB written out.
        var objects: [[UInt8]] = [[0x5F, 0x11, 0x03, 0xE8] + Array(repeating: UInt8(ascii: "x"), count: 1000)]
        for k in 1...40 { objects.append([0xA2, UInt8(k - 1), UInt8(k - 1)]) }
        let bomb = Self.bplist(objects, top: 40)
        let budget = PlistLimits.default.expandedBytes(forInputOf: bomb.count)
        #expect(Self.binaryError(bomb) == "offset 0x412 (1042): binary property list: object 11 expands to more than \(budget) bytes through shared references (at most 64 per input byte plus 1048576)")
        // Sharing within the budget is read, once per object.
        #expect(Self.binaryError(Self.bplist(Array(objects.prefix(6)), top: 5)) == "no error")
    }

    @Test func binaryNestingIsBoundedWithoutRecursion() throws {
        var objects: [[UInt8]] = [[0x56] + Array("bottom".utf8)]
        for k in 1...100_000 { objects.append([0xA1] + Self.be(k - 1, 3)) }
        let error = Self.binaryError(Self.bplist(objects, top: 100_000, refSize: 3))
        #expect(error.hasSuffix("binary property list: collections nested deeper than 512 (object 99488)"), "\(error)")
    }

    static func graphError(_ objects: [PlistValue], top: PlistValue = .uid(1), acyclic: Bool = false) -> String {
        let archive = PlistValue.dictionary([
            PlistEntry("$archiver", .string("NSKeyedArchiver")), PlistEntry("$objects", .array(objects)),
            PlistEntry("$top", .dictionary([PlistEntry("root", top)])),
        ])
        var options = KeyedArchiveGraph.Options()
        options.allowsCycles = !acyclic
        do {
            _ = try KeyedArchiveGraph(archive, options: options)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func keyedGraphChecks() {
        let arrayClass = PlistValue.dictionary([PlistEntry("$classes", .array([.string("NSArray")])), PlistEntry("$classname", .string("NSArray"))])
        func array(_ refs: [UInt32]) -> PlistValue {
            .dictionary([PlistEntry("$class", .uid(2)), PlistEntry("NS.objects", .array(refs.map(PlistValue.uid)))])
        }
        #expect(Self.graphError([.string("$null"), array([1]), arrayClass]) == "no error")
        #expect(Self.graphError([.string("$null"), array([1]), arrayClass], acyclic: true) == "keyed archive: object 1 refers to itself through $objects[1].NS.objects[0]")
        #expect(Self.graphError([.string("$null"), array([3]), arrayClass, array([0, 1])], acyclic: true)
                == "keyed archive: object 1 refers to itself through $objects[1].NS.objects[0] → $objects[3].NS.objects[1]")
        #expect(Self.graphError([.string("$null"), array([42]), arrayClass]) == "keyed archive: UID 42 is outside $objects (3 objects) at $objects[1].NS.objects[0]")
        #expect(Self.graphError([.string("$null"), array([]), arrayClass], top: .uid(9)) == "keyed archive: UID 9 is outside $objects (3 objects) at $top.root")
        #expect(Self.graphError([.string("$null"), .dictionary([PlistEntry("$class", .string("NSArray"))])]) == "keyed archive: $objects[1].$class is a string, not a UID")
        #expect(Self.graphError([.string("$null"), .dictionary([PlistEntry("$class", .uid(1))])])
                == "keyed archive: $objects[1].$class refers to itself, not a class (a dictionary with a $classname string and $classes strings)")
        let oddKey = PlistValue.dictionary([PlistEntry("$class", .uid(2)), PlistEntry("we\"ird\n", .array([.uid(77)]))])
        #expect(Self.graphError([.string("$null"), oddKey, arrayClass]) == "keyed archive: UID 77 is outside $objects (3 objects) at $objects[1][\"we\\\"ird\\n\"][0]")
        #expect(Self.graphError([.string("x")]) == "keyed archive: $objects is missing or does not start with \"$null\"")
    }

    @Test func keyedGraphBoundsDepthAcrossSharedObjects() {
        // A diamond ladder: 300 levels, each object referring twice to the next; depth 300 > 256.
        let arrayClass = PlistValue.dictionary([PlistEntry("$classes", .array([.string("NSArray")])), PlistEntry("$classname", .string("NSArray"))])
        var objects: [PlistValue] = [.string("$null"), arrayClass]
        for level in 0..<300 {
            let next = UInt32(level == 299 ? 0 : 3 + level)
            objects.append(.dictionary([PlistEntry("$class", .uid(1)), PlistEntry("NS.objects", .array([.uid(next), .uid(next)]))]))
        }
        let error = Self.graphError(objects, top: .uid(2), acyclic: true)
        #expect(error.hasPrefix("keyed archive: objects nested deeper than 256 through $top.root → $objects[2].NS.objects[0]"), "\(error)")
    }
}
