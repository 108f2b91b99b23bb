import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool
import TestSupport

/// `--deep` for property lists held as bytes (binary, XML, NeXT), the readable keys of the
/// keyed export (`TSRTFText`, `TSColorList`, `TSArchives` with `convert --deep`), references
/// to fonts and colours in the tree, and hostile nested input.
struct DeepPlistAndKeyedReadableTests {
    private func runBytes(_ arguments: [String], _ bytes: [UInt8]) -> ([UInt8], ExitCode) {
        let result = TypedStreamCommand.run(arguments + ["-"], standardInput: bytes)
        return (result.outputBytes, result.exitCode)
    }

    /// An archive whose root is an `NSData` (or `NSMutableData`) holding `bytes`.
    static func archive(holding bytes: [UInt8], mutable: Bool = false) throws -> [UInt8] {
        let archiver = Archiver()
        try archiver.encodeRootObject(DataObject(bytes, mutable: mutable))
        return try archiver.encodedBytes()
    }

    /// A small property list of every kind of value.
    static let sample = PlistValue.dictionary([
        PlistEntry("name", .string("Helvetica")),
        PlistEntry("size", .integer(12)),
        PlistEntry("list", .array([.bool(true), .real(0.5)])),
        PlistEntry("bytes", .data([1, 2, 3])),
    ])

    @Test func deepShowsABinaryPlistInTheTree() throws {
        let bytes = try Self.archive(holding: BinaryPlistWriter.write(Self.sample))
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.hasSuffix("""
                nested binary property list, 110 bytes:
                  name: "Helvetica"
                  size: 12
                  list: [2 elements]
                    0: true
                    1: 0.5
                  bytes: <3 bytes: 01 02 03>

            """))
        // Without --deep: the bytes only.
        #expect(!run(["decode"], bytes).0.contains("nested"))
    }

    @Test func deepShowsXMLAndNeXTPlistsInPlainJSON() throws {
        let xml = Array(try XMLPlistWriter.write(Self.sample).utf8)
        let (text, status) = run(["decode", "--plain", "--deep"], try Self.archive(holding: xml))
        #expect(status == .success)
        let document = try JSONValue.parse(Array(text.utf8))
        guard case .array(let values)? = document["values"], case .object(let data)? = values.first else {
            Issue.record("no data value: \(text)")
            return
        }
        #expect(data.dropFirst().map(\.key) == ["$plistFormat", "$plist"])
        #expect(data.first { $0.key == "$plistFormat" }?.value == .string("xml"))
        #expect(data.first { $0.key == "$plist" }?.value == .object([
            JSONMember("name", .string("Helvetica")), JSONMember("size", .number("12")),
            JSONMember("list", .array([.bool(true), .number("0.5")])),
            JSONMember("bytes", .object([JSONMember("$data", .string("AQID"))])),
        ]))

        // The old NeXT list: no signature, recognised only when it decodes to its last byte.
        let next = NeXTBinaryPlist.encode(.dictionary([NeXTPlistEntry(key: .string(NeXTPlistString("font")), value: .string(NeXTPlistString("Ohlfs")))]))
        let (nextText, _) = run(["decode", "--plain", "--deep"], try Self.archive(holding: next))
        #expect(nextText.contains(#""$plistFormat": "nextstep", "$plist": {"font": "Ohlfs"}"#))
        let (nextTree, _) = run(["decode", "--deep"], try Self.archive(holding: next))
        #expect(nextTree.contains("nested NeXT binary property list, \(next.count) bytes:\n"))
        #expect(nextTree.hasSuffix("      font: \"Ohlfs\"\n"))
        // One byte less is not a list, and is not called a damaged one either.
        let (cut, _) = run(["decode", "--deep"], try Self.archive(holding: Array(next.dropLast())))
        #expect(!cut.contains("nested"))
    }

    @Test func truncatedNestedPlistIsShownWithItsOffset() throws {
        let plist = BinaryPlistWriter.write(Self.sample)
        let bytes = try Self.archive(holding: Array(plist.prefix(plist.count - 10)))
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.contains("nested binary property list, 100 bytes, damaged at offset 0x4a (74) of the nested binary property list: offset size 50 or reference size 53 is not 1…8\n"))
        let (text, plainStatus) = run(["decode", "--plain", "--deep"], bytes)
        #expect(plainStatus == .success)
        #expect(text.contains(#""$archiveError": "damaged at offset 0x"#))
    }

    @Test func aPlistNestedDeeperThanItsLimitIsRefused() throws {
        var value = PlistValue.string("bottom")
        for _ in 0..<100 { value = .array([value]) }
        let bytes = try Self.archive(holding: BinaryPlistWriter.write(value))
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.contains("nested binary property list, "))
        #expect(tree.contains("bytes, damaged at offset 0x"))
        #expect(!tree.contains("bottom"))
        // Within the limit it is shown, one level per line.
        var shallow = PlistValue.string("bottom")
        for _ in 0..<60 { shallow = .array([shallow]) }
        let (shown, _) = run(["decode", "--deep"], try Self.archive(holding: BinaryPlistWriter.write(shallow)))
        #expect(shown.contains("0: \"bottom\"\n"))
    }

    /// Typedstream in a binary plist in a typedstream …, `levels` archives around the innermost string.
    static func alternatingNesting(levels: Int) throws -> [UInt8] {
        let archiver = Archiver()
        try archiver.encodeRootObject(StringObject("innermost"))
        var bytes = try archiver.encodedBytes()
        for level in 0..<levels {
            bytes = level % 2 == 0 ? BinaryPlistWriter.write(.dictionary([PlistEntry("inner", .data(bytes))]))
                                   : try archive(holding: bytes)
        }
        return try archive(holding: bytes)
    }

    @Test func twentyLevelsOfNestingStopAtTheLimit() throws {
        let bytes = try Self.alternatingNesting(levels: 20)
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.components(separatedBy: "\n").filter { $0.contains("nested ") }.count == 9)
        #expect(tree.contains("bytes, not decoded: archives nest deeper than 8 levels\n"))
        #expect(!tree.contains("innermost"))
        let (plain, plainStatus) = run(["decode", "--plain", "--deep"], bytes)
        #expect(plainStatus == .success)
        #expect(plain.contains(#""$archiveError": "not decoded: archives nest deeper than 8 levels""#))
        // Within the limit the innermost string is reached through both kinds.
        let (shallow, _) = run(["decode", "--deep"], try Self.alternatingNesting(levels: 5))
        #expect(shallow.contains("\"+\" \"innermost\""))
        #expect(shallow.contains("nested binary property list, "))
    }

    @Test func aMegabyteOfOpenBracesAsRTF() throws {
        let rtf = Array("{\\rtf1 ".utf8) + [UInt8](repeating: UInt8(ascii: "{"), count: 1 << 20)
        let bytes = try Self.archive(holding: rtf, mutable: true)
        let clock = ContinuousClock()
        let start = clock.now
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.contains("RTF text: "))
        #expect(run(["decode", "--plain", "--deep"], bytes).1 == .success)
        let keyed = try KeyedArchiveExporter.export(typedstream: bytes)
        guard case .array(let objects)? = keyed["$objects"] else { return }
        #expect(objects.contains { $0["TSRTFText"] != nil })
        #expect(clock.now - start < .seconds(60))
    }

    @Test func referencesToFontsAndColoursSayWhatTheyAre() throws {
        let color = ColorObject(.calibratedRGB(red: 1, green: 0, blue: 0, alpha: 1))
        let archiver = Archiver()
        try archiver.encodeRootObject(ArrayObject([color, color]))
        let (tree, status) = run(["decode"], try archiver.encodedBytes())
        #expect(status == .success)
        #expect(tree.contains(" = NSColor calibratedRGB 1 0 0 1\n"))
        #expect(tree.contains("\"@\" → #3 NSColor calibratedRGB 1 0 0 1\n"))
    }

    @Test(.needsCorpus) func deepShowsTheKeyedArchiveOfAMessage() throws {
        let bytes = try SharedCorpus.bytes("attributed-string/imsg-URL.typedstream")
        let (tree, status) = run(["decode", "--deep"], bytes)
        #expect(status == .success)
        #expect(tree.contains([
            "      \"[582c]\" <582 bytes: 62 70 6c 69 73 74 30 30 d4 01 02 03 04 05 06 07 …>",
            "        nested binary property list (keyed archive), 582 bytes:",
            "          $version: 100000",
            "          $archiver: \"NSKeyedArchiver\"",
            "          $top: {2 entries}",
            "            version: UID 11",
            "            dd-result: UID 1",
            "          $objects: [12 elements]",
            "            0: \"$null\"",
            "            1: {7 entries}",
            "              MS: UID 6",
        ].joined(separator: "\n") + "\n"))
        #expect(tree.contains("\n            6: \"https://github.com/ReagentX/Logria\"\n"))
        #expect(tree.contains("\n              $classname: \"DDScannerResult\"\n"))
        let (plain, _) = run(["decode", "--plain", "--deep"], bytes)
        #expect(plain.contains(#""$plistFormat": "binary""#))
        #expect(plain.contains(#""$archiver": "NSKeyedArchiver""#))
        // Fonts of a Mac OS X nib keep their names in a NeXT list.
        let (fugu, _) = run(["decode", "--deep"], try SharedCorpus.bytes("nib/macosx-fugu-Danish-MainMenu.nib.typedstream"))
        #expect(fugu.contains("nested NeXT binary property list, 44 bytes:\n                                        \"LucidaGrande-Bold\"\n"))
    }

    /// `plist` without our readable keys, anywhere.
    static func withoutReadableKeys(_ plist: PlistValue) -> PlistValue {
        switch plist {
        case .dictionary(let entries):
            return .dictionary(entries.filter { !["TSRTFText", "TSColorList", "TSArchives"].contains($0.key) }
                .map { PlistEntry($0.key, withoutReadableKeys($0.value)) })
        case .array(let elements): return .array(elements.map(withoutReadableKeys))
        default: return plist
        }
    }

    @Test(.needsCorpus) func keyedExportAddsRTFTextAndTheImportIgnoresIt() throws {
        let bytes = try SharedCorpus.bytes("nib/macosx-fugu-Danish-MainMenu.nib.typedstream")
        let plist = try KeyedArchiveExporter.export(typedstream: bytes)
        guard case .array(let objects)? = plist["$objects"] else { return }
        let holders = objects.filter { $0["TSRTFText"] != nil }
        #expect(holders.count == 1)
        guard case .string(let text)? = holders.first?["TSRTFText"] else { return }
        #expect(text.hasPrefix("Copyright (c) 2003\n\nRegents of The University of Michigan."))
        #expect(holders.first?["NS.data"] != nil)
        let back = try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(plist))
        let bare = try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(Self.withoutReadableKeys(plist)))
        #expect(back == bare)
    }

    @Test(.needsCorpus) func keyedExportListsTheColoursOfAColourList() throws {
        let bytes = try SharedCorpus.bytes("misc/colorlist-apple-ii.clr.typedstream")
        let plist = try KeyedArchiveExporter.export(typedstream: bytes)
        guard case .array(let list)? = plist["$top"]?["TSColorList"], case .array(let objects)? = plist["$objects"] else {
            Issue.record("no TSColorList")
            return
        }
        let document = try ColorListDocument(bytes: bytes)
        #expect(list.count == document.entries.count)
        #expect(list.first?["name"] == .string("#000"))
        for (entry, expected) in zip(list, document.entries) {
            #expect(entry["name"] == .string(expected.name))
            guard case .uid(let uid)? = entry["color"] else { continue }
            #expect(objects[Int(uid)]["NSColorSpace"] != nil)
        }
        // The import ignores it: the colour list comes back byte for byte.
        let (back, status) = runBytes(["convert", "--to", "typedstream"], BinaryPlistWriter.write(plist))
        #expect(status == .success)
        #expect(back == bytes)
    }

    @Test func convertDeepWritesANestedArchiveAsKeyedObjects() throws {
        let inner = try Self.archive(holding: Array("hello".utf8), mutable: true)
        let bytes = try Self.archive(holding: inner, mutable: true)
        var options = KeyedArchiveExporter.Options()
        options.deep = true
        let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: options)
        guard case .array(let objects)? = plist["$objects"], case .uid(let root)? = plist["$top"]?["root"] else { return }
        let holder = objects[Int(root)]
        #expect(holder["NS.data"] == .data(inner))
        guard case .array(let archives)? = holder["TSArchives"], archives.count == 1,
              case .uid(let nestedRoot)? = archives[0]["root"] else {
            Issue.record("no TSArchives: \(holder)")
            return
        }
        #expect(archives[0]["TSFormat"] == .string("typedstream"))
        #expect(archives[0]["TSLength"] == .integer(Int64(inner.count)))
        #expect(objects[Int(nestedRoot)]["NS.data"] == .data(Array("hello".utf8)))
        // Without --deep no TSArchives; either way the import gives the same archive.
        let flat = try KeyedArchiveExporter.export(typedstream: bytes)
        #expect(!"\(flat)".contains("TSArchives"))
        #expect(try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(plist))
                == KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(flat)))
        // The command: --deep only with the keyed formats.
        let (converted, status) = runBytes(["convert", "--to", "keyed", "--deep"], bytes)
        #expect(status == .success)
        #expect(converted.starts(with: Array("bplist00".utf8)))
        #expect(run(["convert", "--to", "json", "--deep"], bytes).1 == .usage)
    }

    @Test func convertDeepStopsAtTheDepthLimit() throws {
        var bytes = try Self.archive(holding: Array("innermost".utf8), mutable: true)
        for _ in 0..<20 { bytes = try Self.archive(holding: bytes, mutable: true) }
        var options = KeyedArchiveExporter.Options()
        options.deep = true
        let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: options)
        let text = "\(plist)"
        #expect(text.components(separatedBy: "\"TSFormat\"").count - 1 == 9)
        #expect(text.contains("not decoded: archives nest deeper than 8 levels"))
        // A truncated nested archive: its bytes are kept, with the reason.
        let inner = try Self.archive(holding: Array("x".utf8))
        let cut = try Self.archive(holding: Array(inner.dropLast(3)), mutable: true)
        let cutPlist = try KeyedArchiveExporter.export(typedstream: cut, options: options)
        #expect("\(cutPlist)".contains("damaged at offset 0x"))
    }

    @Test(.needsCorpus) func convertDeepOnCorpusFilesKeepsTheImport() throws {
        var options = KeyedArchiveExporter.Options()
        options.deep = true
        for (path, count) in [("misc/grapher-Empty2D-macOS-13.gcx.typedstream", 6), ("misc/nextstep-WorldWideWeb-IB.proj.typedstream", 3),
                              ("nib/nextstep2-appkit105-AlertPanel.nib.typedstream", 3)] {
            let bytes = try SharedCorpus.bytes(path)
            let deep = try KeyedArchiveExporter.export(typedstream: bytes, options: options)
            let flat = try KeyedArchiveExporter.export(typedstream: bytes)
            guard case .array(let objects)? = deep["$objects"] else { continue }
            let archives = objects.compactMap { object -> [PlistValue]? in
                guard case .array(let list)? = object["TSArchives"] else { return nil }
                return list
            }.flatMap { $0 }
            #expect(archives.filter { $0["TSFormat"] == .string("typedstream") && $0["root"] != nil }.count == count, "\(path)")
            #expect(try KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(deep))
                    == KeyedArchiveImporter.typedstream(fromKeyed: BinaryPlistWriter.write(flat)), "\(path)")
        }
        // The grapher's transforms: the nested root is the CP3DAffineTransform object.
        let plist = try KeyedArchiveExporter.export(typedstream: try SharedCorpus.bytes("misc/grapher-Empty2D-macOS-13.gcx.typedstream"), options: options)
        guard case .array(let objects)? = plist["$objects"],
              let holder = objects.first(where: { $0["TSArchives"] != nil }),
              case .array(let list)? = holder["TSArchives"], case .uid(let root)? = list.first?["root"],
              case .uid(let classUID)? = objects[Int(root)]["$class"] else { return }
        #expect(objects[Int(classUID)]["$classname"] == .string("CP3DAffineTransform"))
    }
}
