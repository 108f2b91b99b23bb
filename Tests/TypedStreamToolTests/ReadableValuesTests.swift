import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool
import TestSupport

/// Fonts, colours, colour lists and RTF text as the tree and plain JSON show them, and `--deep`.
struct ReadableValuesTests {
    /// Every value of a JSON document, depth first.
    private func allObjects(_ value: JSONValue) -> [[JSONMember]] {
        var found: [[JSONMember]] = []
        var stack = [value]
        while let v = stack.popLast() {
            switch v {
            case .object(let members):
                found.append(members)
                stack.append(contentsOf: members.map(\.value))
            case .array(let items): stack.append(contentsOf: items)
            default: break
            }
        }
        return found
    }

    @Test(.needsCorpus) func fontsAndColoursInTheTree() throws {
        let (tree, status) = run(["decode"], try SharedCorpus.bytes("nib/macosx-DropScript-MainMenu.nib.typedstream"))
        #expect(status == .success)
        #expect(tree.contains("#91 NSFont v21 : NSObject v0 = NSFont \"Helvetica\" 12\n"))
        #expect(tree.contains("#97 NSFont v21 : NSObject v0 = NSFont \"LucidaGrande-Bold\" 13\n"))
        #expect(tree.contains("#98 NSColor v0 : NSObject v0 = NSColor named \"System\" \"controlColor\"\n"))
        #expect(tree.contains("#102 NSColor v0 : NSObject v0 = NSColor calibratedWhite 0.6666667 1\n"))
        // The groups stay beneath the readable line.
        #expect(tree.contains("#91 NSFont v21 : NSObject v0 = NSFont \"Helvetica\" 12\n                      \"i\" 28\n"))

        let (draw, _) = run(["decode"], try SharedCorpus.bytes("misc/nextstep1-blit-pallette.draw.typedstream"))
        #expect(draw.contains("#21 Font v0 : Object v0 = Font \"Helvetica\" 18 style 0 flags 0x4000 matrix [1 0 0 -1 0 0]\n"))
        let (doom, _) = run(["decode"], try SharedCorpus.bytes("nib/nextstep3-DoomEd-data.nib.typedstream"))
        #expect(doom.contains("#12 Font v2 : Object v0 = Font \"Helvetica\" 12 style 0 flags 0x8802\n"))
    }

    @Test(.needsCorpus) func fontsAndColoursInPlainJSON() throws {
        let (text, status) = run(["decode", "--plain"], try SharedCorpus.bytes("nib/macosx-DropScript-MainMenu.nib.typedstream"))
        #expect(status == .success)
        let objects = allObjects(try JSONValue.parse(Array(text.utf8)))
        let fonts = objects.filter { $0.first == JSONMember("$class", .string("NSFont")) }
        #expect(fonts.contains([JSONMember("$class", .string("NSFont")), JSONMember("name", .string("LucidaGrande-Bold")), JSONMember("size", .number("13"))]))
        #expect(!objects.contains { $0.contains(JSONMember("$class", .string("NSFont"))) && $0.contains { $0.key == "contents" } })
        #expect(objects.contains([JSONMember("$class", .string("NSColor")), JSONMember("colorSpace", .string("calibratedWhite")),
                                  JSONMember("white", .number("0.6666667")), JSONMember("alpha", .number("1"))]))

        let (next, _) = run(["decode", "--plain"], try SharedCorpus.bytes("nib/nextstep3-DoomEd-data.nib.typedstream"))
        #expect(allObjects(try JSONValue.parse(Array(next.utf8))).contains([
            JSONMember("$class", .string("Font")), JSONMember("name", .string("Helvetica")), JSONMember("size", .number("12")),
            JSONMember("style", .integer(0)), JSONMember("flags", .integer(-30718)),
        ]))
    }

    @Test(.needsCorpus) func colourListNamesAndComponents() throws {
        let bytes = try SharedCorpus.bytes("misc/colorlist-apple-ii.clr.typedstream")
        let (tree, _) = run(["decode"], bytes)
        #expect(tree.contains("""
            colour list: 15 colours
              "#000" NSColor calibratedRGB 0 0 0 1
              "#808080" NSColor calibratedRGB 0.426668 0.4266552 0.42666245 1
              "#fff" NSColor calibratedRGB 1 0.99997437 0.9999913 1

            """))
        #expect(tree.hasSuffix("  \"#eca8bf\" NSColor calibratedRGB 0.8999984 0.58260685 0.6963684 1\n"))
        let (text, _) = run(["decode", "--plain"], bytes)
        guard case .object(let members) = try JSONValue.parse(Array(text.utf8)),
              case .array(let list)? = members.first(where: { $0.key == "colorList" })?.value else {
            Issue.record("no colorList")
            return
        }
        #expect(list.count == 15)
        #expect(list[1] == .object([JSONMember("name", .string("#808080")), JSONMember("color", .object([
            JSONMember("$class", .string("NSColor")), JSONMember("colorSpace", .string("calibratedRGB")),
            JSONMember("red", .number("0.426668")), JSONMember("green", .number("0.4266552")),
            JSONMember("blue", .number("0.42666245")), JSONMember("alpha", .number("1")),
        ]))]))
    }

    @Test(.needsCorpus) func rtfTextBesideTheBytes() throws {
        let bytes = try SharedCorpus.bytes("nib/nextstep3-WorldWideWeb-data.nib.typedstream")
        let (tree, _) = run(["decode"], bytes)
        #expect(tree.contains("RTF text: \"This version of the WWW application  can pick up hypertext infomation from files in a number of formats"))
        let (text, _) = run(["decode", "--plain"], bytes)
        let rtf = allObjects(try JSONValue.parse(Array(text.utf8))).compactMap { $0.first { $0.key == "$rtfText" }?.value }
        #expect(rtf.count == 1)
        guard case .string(let s)? = rtf.first else { return }
        #expect(s.hasPrefix("This version of the WWW application  can pick up hypertext infomation"))
        #expect(s.contains("\n\nThis was the original prototype for the World-Wide Web."))
        // A serialized RTFD held in NSMutableData.
        let (fugu, _) = run(["decode"], try SharedCorpus.bytes("nib/macosx-fugu-Danish-MainMenu.nib.typedstream"))
        #expect(fugu.contains("RTF text: \"Copyright (c) 2003\\n\\nRegents of The University of Michigan."))
    }

    @Test(.needsCorpus) func deepDecodesAStreamTable() throws {
        let bytes = try SharedCorpus.bytes("misc/nextstep-WorldWideWeb-IB.proj.typedstream")
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.contains("""
              "[949c]" <949 bytes: 04 0b 74 79 70 65 64 73 74 72 65 61 6d 81 03 a2 …>
                nested typedstream, 949 bytes:
                  typedstream v4, big-endian, system version 930
                  "@" #0 Project v1 : Object v0
                    "%%i%%@@@@@"
                      "WorldWideWeb"

            """))
        let (plain, _) = run(["decode", "--plain", "--deep"], bytes)
        let nested = allObjects(try JSONValue.parse(Array(plain.utf8))).filter { $0.contains { $0.key == "$archive" } }
        #expect(nested.count == 3)
        // Without --deep the bytes stay bytes.
        let (flat, _) = run(["decode"], bytes)
        #expect(!flat.contains("nested typedstream"))
        #expect(run(["decode", "--json", "--deep"], bytes).1 == .usage)
    }

    /// An archive holding an archive holding an archive … 40 levels deep, each in an NSData.
    static func selfNesting(levels: Int) throws -> [UInt8] {
        var bytes = try { () throws -> [UInt8] in
            let archiver = Archiver()
            try archiver.encodeRootObject(StringObject("innermost"))
            return try archiver.encodedBytes()
        }()
        for _ in 0..<levels {
            let archiver = Archiver()
            try archiver.encodeRootObject(DataObject(bytes))
            bytes = try archiver.encodedBytes()
        }
        return bytes
    }

    @Test func deepStopsAtTheDepthLimit() throws {
        let bytes = try Self.selfNesting(levels: 40)
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.components(separatedBy: "nested typedstream, ").count - 1 == 9)
        #expect(tree.contains("bytes, not decoded: archives nest deeper than 8 levels\n"))
        #expect(!tree.contains("innermost"))
        let (plain, plainStatus) = run(["decode", "--plain", "--deep"], bytes)
        #expect(plainStatus == .success)
        #expect(plain.contains("\"$archiveError\": \"not decoded: archives nest deeper than 8 levels\""))
        // Within the limit, the innermost string is reached.
        let (shallow, _) = run(["decode", "--deep"], try Self.selfNesting(levels: 3))
        #expect(shallow.contains("\"+\" \"innermost\""))
        // A damaged nested archive is shown as its bytes, with its offset; the outer decode succeeds.
        let inner = try Self.selfNesting(levels: 0)
        let archiver = Archiver()
        try archiver.encodeRootObject(DataObject(Array(inner.prefix(inner.count - 3))))
        let (damaged, damagedStatus) = run(["decode", "--deep"], try archiver.encodedBytes())
        #expect(damagedStatus == .success)
        #expect(damaged.contains("bytes, damaged at offset 0x"))
    }

    @Test(.needsCorpus) func keyedExportHasApplesFontAndColourKeys() throws {
        let plist = try KeyedArchiveExporter.export(typedstream: try SharedCorpus.bytes("nib/macosx-DropScript-MainMenu.nib.typedstream"))
        guard case .array(let objects)? = plist["$objects"] else {
            Issue.record("no $objects")
            return
        }
        func string(_ value: PlistValue?) -> String? {
            guard case .uid(let uid)? = value, case .string(let s) = objects[Int(uid)] else { return nil }
            return s
        }
        let fonts = objects.filter { $0["NSName"] != nil }
        #expect(fonts.contains { string($0["NSName"]) == "LucidaGrande-Bold" && $0["NSSize"] == .real(13) && $0["TSGroups"] != nil })
        #expect(objects.contains { $0["NSColorSpace"] == .integer(3) && $0["NSWhite"] == .data(Array("0.6666667".utf8) + [0]) })
        #expect(objects.contains { $0["NSColorSpace"] == .integer(6) && string($0["NSColorName"]) == "controlColor" && string($0["NSCatalogName"]) == "System" })
    }
}
