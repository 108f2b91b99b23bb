import Foundation
import Testing
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import TypedStreamTool
import TestSupport

/// `typedstream salvage` and ``ArchiveReader/salvage(_:limits:)``: every truncated prefix of
/// samples and corpus files salvages to an archive that verifies, decodes and holds exactly the
/// objects whose end-of-object marker comes before the cut.
@Suite("salvage")
struct SalvageTests {
    static let sampleNames = [
        "hello.typedstream", "strings-array.typedstream", "strings-array-big-endian.typedstream", "scalars.typedstream",
        "cycle.typedstream", "model-v1/document.typedstream", "model-v2/document.typedstream", "model-v3-draft/document.typedstream",
    ]

    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PackageRoot.samples.appendingPathComponent(name)))
    }

    // MARK: - Every truncated prefix

    @Test(arguments: sampleNames) func everyTruncatedPrefixOfASample(_ name: String) throws {
        let bytes = try Self.sample(name)
        let original = try Original(bytes)
        for cut in 0...bytes.count {
            try Self.check(original, cut: cut, name: name, throughCommand: cut % 5 == 0)
        }
    }

    /// The corpus's well-formed typedstreams.
    static let corpusFiles: [String] = corpusFolder().map { folder in
        filesUnder(folder).filter { $0.hasSuffix(".typedstream") && !CorpusTests.isMalformed($0) }
    } ?? []

    @Test(.needsCorpus) func theCorpusIsThere() {
        #expect(Self.corpusFiles.count >= 100, "expected the whole corpus, found \(Self.corpusFiles.count) files")
    }

    @Test(.needsCorpus, arguments: corpusFiles) func truncatedPrefixesOfACorpusFile(_ file: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let original = try Original(bytes)
        for (index, cut) in Self.cuts(for: original).enumerated() {
            try Self.check(original, cut: cut, name: file, throughCommand: false, decoding: index % 8 == 0)
        }
    }

    @Test(.needsCorpus) func damagedCorpusFilesSalvage() throws {
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { CorpusTests.isMalformed($0) }
        #expect(files.count == 2)
        for file in files {
            let folder = try TemporaryFolder()
            let result = run(["salvage", file, "-o", folder.path + "/out.typedstream", "--report", "json"])
            #expect(result.exitCode == .failure, "\(file)")
            if file.contains("ExtraData") {
                // The only string's length runs past the end: nothing is whole.
                #expect(result.standardError.contains("nothing could be salvaged"), "\(result.standardError)")
                #expect(result.outputBytes.isEmpty)
                continue
            }
            let report = try JSONValue.parse(result.outputBytes)
            #expect(report["damaged"] == .bool(true))
            let written = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out.typedstream")))
            #expect(try roundTrip(written) == written)
            #expect(run(["verify", folder.path + "/out.typedstream"]).exitCode == .success)
            #expect(run(["decode", "--plain", folder.path + "/out.typedstream"]).exitCode == .success)
        }
    }

    /// Every prefix of a file of up to 512 bytes; for a larger one 16 cuts spread over it,
    /// the cuts just before and at the end of each of its first 8 top-level groups, and at and
    /// just after the end-of-object markers of 8 objects spread over it. (About 11 000 cuts in
    /// all; the debug build takes a minute over them on two cores.)
    static func cuts(for original: Original) -> [Int] {
        let count = original.bytes.count
        guard count > 512 else { return Array(0...count) }
        var cuts = Set(stride(from: 0, through: count, by: count / 16))
        cuts.insert(count)
        for end in original.groupEnds.prefix(8) { cuts.formUnion([end - 1, end]) }
        let ends = original.objectEnds
        for index in stride(from: 0, to: ends.count, by: max(1, ends.count / 8)) { cuts.formUnion([ends[index], ends[index] + 1]) }
        return cuts.sorted()
    }

    /// An undamaged archive and what its graph says about any cut.
    struct Original {
        let bytes: [UInt8]
        let archive: Archive
        /// Every object with the offset of its end-of-object marker.
        let objects: [(name: String, end: Int)]
        /// Where each top-level group ends.
        let groupEnds: [Int]
        /// The header's length.
        let headerLength: Int

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            archive = try ArchiveReader.read(bytes)
            objects = SalvageTests.objects(of: archive).map { ($0.className, $0.endOffset ?? Int.max) }
            let starts = archive.groups.map { $0.offset ?? 0 }
            groupEnds = starts.isEmpty ? [] : Array(starts.dropFirst()) + [bytes.count]
            headerLength = starts.first ?? bytes.count
        }

        /// The offsets of the end-of-object markers, in order.
        var objectEnds: [Int] { objects.map(\.end).sorted() }

        /// Per class, the objects whose end-of-object marker is before `cut`.
        func wholeObjects(before cut: Int) -> [String: Int] {
            var counts: [String: Int] = [:]
            for object in objects where object.end < cut { counts[object.name, default: 0] += 1 }
            return counts
        }
    }

    /// Every object a graph holds, each once, walked without recursion.
    static func objects(of archive: Archive) -> [ArchivedObject] {
        var seen = Set<ObjectIdentifier>()
        var found: [ArchivedObject] = []
        var values: [ArchivedValue] = []
        for group in archive.groups { values.append(contentsOf: group.values) }
        while let value = values.popLast() {
            switch value {
            case .object(let object?, _):
                if seen.insert(ObjectIdentifier(object)).inserted {
                    found.append(object)
                    for group in object.groups { values.append(contentsOf: group.values) }
                }
            case .array(let elements), .structure(let elements):
                values.append(contentsOf: elements)
            default:
                break
            }
        }
        return found
    }

    /// Per class name, the objects a graph holds.
    static func objectsPerClass(_ archive: Archive) -> [String: Int] {
        var counts: [String: Int] = [:]
        for object in objects(of: archive) { counts[object.className, default: 0] += 1 }
        return counts
    }

    /// Salvages the first `cut` bytes of `original` and checks what comes out.
    /// Objects whose end-of-object marker comes before the damage must all be kept. The damage
    /// is where the reader stops, at the cut or before it: an array or a length that claims
    /// more bytes than remain is refused where it starts (`badLength`), and the objects inside
    /// it are lost with it.
    static func check(_ original: Original, cut: Int, name: String, throughCommand: Bool, decoding: Bool = true) throws {
        let prefix = Array(original.bytes[..<cut])
        let salvage: ArchiveSalvage
        do {
            salvage = try ArchiveReader.salvage(prefix)
        } catch {
            // Only a cut inside the header leaves nothing.
            var reader = TokenReader(bytes: prefix)
            #expect(throws: WireError.self, "\(name) cut at \(cut)") { _ = try reader.next() }
            #expect(original.wholeObjects(before: cut).isEmpty, "\(name) cut at \(cut)")
            return
        }
        let horizon = salvage.damage.map { min($0.offset, cut) } ?? cut
        if let damage = salvage.damage, damage.offset < cut, original.wholeObjects(before: damage.offset) != original.wholeObjects(before: cut) {
            #expect(damage.code == .badLength, "\(name) cut at \(cut): \(damage)")
        }
        let expected = original.wholeObjects(before: horizon)
        // A typedstream has no end marker: cut between top-level groups, it is whole.
        #expect(salvage.isUndamaged == (cut == original.headerLength || original.groupEnds.contains(cut)), "\(name) cut at \(cut)")
        #expect(salvage.keptGroupCount == original.groupEnds.filter { $0 <= cut }.count, "\(name) cut at \(cut)")
        let written = try ArchiveWriter.write(salvage.archive)
        #expect(try roundTrip(written) == written, "\(name) cut at \(cut)")
        #expect(written.starts(with: prefix[..<salvage.keptLength]), "\(name) cut at \(cut)")
        let again = try ArchiveReader.read(written)
        #expect(objectsPerClass(again) == expected, "\(name) cut at \(cut)")
        #expect(salvage.keptObjectCount + salvage.recoveredObjectCount == expected.values.reduce(0, +), "\(name) cut at \(cut)")
        // It decodes: plain JSON goes through the class codecs.
        if decoding { _ = try PlainJSON.encode(written, options: ToolRecordForms.plainJSONOptions) }
        if salvage.isUndamaged { #expect(written == prefix, "\(name) cut at \(cut)") }
        guard throughCommand else { return }
        let result = run(["salvage", "-"], stdin: prefix)
        if salvage.isUndamaged {
            #expect(result.exitCode == .success)
            #expect(result.outputBytes == prefix)
        } else if salvage.keptGroupCount + salvage.addedGroupCount == 0 {
            #expect(result.exitCode == .failure)
            #expect(result.outputBytes.isEmpty)
            #expect(result.standardError.contains("nothing could be salvaged"), "\(result.standardError)")
        } else {
            #expect(result.exitCode == .failure)
            #expect(result.outputBytes == written, "\(name) cut at \(cut)")
            #expect(result.standardError.contains("damaged at offset"), "\(result.standardError)")
        }
    }

    // MARK: - Flipped bytes

    @Test(arguments: ["strings-array.typedstream", "model-v2/document.typedstream", "scalars.typedstream"])
    func everyFlippedByteOfASample(_ name: String) throws {
        let bytes = try Self.sample(name)
        let original = try Original(bytes)
        for position in bytes.indices {
            for flip: UInt8 in [0xFF, 0x01, 0x80] {
                var damaged = bytes
                damaged[position] ^= flip
                guard let salvage = try? ArchiveReader.salvage(damaged) else { continue }
                let written = try ArchiveWriter.write(salvage.archive)
                #expect(try roundTrip(written) == written, "\(name) byte \(position) ^ \(flip)")
                _ = try PlainJSON.encode(written, options: ToolRecordForms.plainJSONOptions)
                // What ended before the flipped byte was read as it was, and is all kept.
                let before = original.wholeObjects(before: position)
                let kept = Self.objectsPerClass(try ArchiveReader.read(written))
                for (className, count) in before {
                    #expect(kept[className, default: 0] >= count, "\(name) byte \(position) ^ \(flip): \(className)")
                }
            }
        }
    }

    @Test func aFlippedTagStopsTheReaderThere() throws {
        // The fourth string's reference (0x98, object #6) replaced by 0x8B, a reserved tag:
        // refused at that byte, inside the array.
        var bytes = try Self.sample("strings-array.typedstream")
        let position = bytes.count - 2
        #expect(bytes[position] == 0x98)
        bytes[position] = 0x8B  // a reserved tag
        let salvage = try ArchiveReader.salvage(bytes)
        let damage = try #require(salvage.damage)
        #expect(damage.offset == position)
        #expect(salvage.keptGroupCount == 0)
        #expect(salvage.damagedGroupOffset == 16)
        #expect(salvage.lostObjectCount == 1)  // the array
        #expect(salvage.recoveredObjectCount == 3)
        #expect(salvage.addedGroupCount == 3)
        let written = try ArchiveWriter.write(salvage.archive)
        let tree = run(["decode", "-"], stdin: written)
        #expect(tree.exitCode == .success)
        #expect(tree.standardOutput == """
            typedstream v4, little-endian, system version 1000
            "@" #0 NSString v1 : NSObject v0
              "+" "first"
            "@" #3 NSString v1 : NSObject v0
              "+" "shared"
            "@" #4 NSString v1 : NSObject v0
              "+" "émoji 👍🏽"

            """)
    }

    // MARK: - References cut

    /// A parent whose child refers back to it, then an integer: `"@" Parent{ "@" Child{ "@" →Parent } "i" 7 }`.
    static func parentAndChild() throws -> [UInt8] {
        let root = ArchivedClass(name: Array("NSObject".utf8), version: 0)
        let parent = ArchivedObject(archivedClass: ArchivedClass(name: Array("Parent".utf8), version: 1, superclass: root))
        let child = ArchivedObject(archivedClass: ArchivedClass(name: Array("Child".utf8), version: 1, superclass: root))
        child.groups = [ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [.object(parent, referenceWidth: nil)])]
        parent.groups = [
            ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [.object(child, referenceWidth: nil)]),
            ArchivedGroup(typeString: ArraySlice("i".utf8), types: [.int], values: [.integer(7, width: nil)]),
        ]
        defer { parent.groups = []; child.groups = [] }
        let archive = Archive(groups: [ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [.object(parent, referenceWidth: nil)])])
        return try ArchiveWriter.write(archive)
    }

    @Test func aReferenceToALostParentIsWrittenAsNil() throws {
        let bytes = try Self.parentAndChild()
        let truncated = Array(bytes.dropLast(2))  // the integer 7 and the parent's end are gone
        let folder = try TemporaryFolder()
        let input = try folder.write("cut.typedstream", truncated)
        let result = run(["salvage", input, "-o", folder.path + "/out.typedstream"])
        #expect(result.exitCode == .failure)
        #expect(result.standardError.contains("reference cut: #3 Child → #0 Parent, written as nil"), "\(result.standardError)")
        #expect(result.standardError.contains("1 whole object recovered from it as 1 added \"@\" group; lost 1 object begun before the damage; 1 reference to them written as nil"), "\(result.standardError)")
        let tree = run(["decode", folder.path + "/out.typedstream"])
        #expect(tree.standardOutput == """
            typedstream v4, little-endian, system version 1000
            "@" #0 Child v1 : NSObject v0
              "@" nil

            """)
        let json = run(["salvage", input, "-o", folder.path + "/again.typedstream", "--report", "json"])
        let report = try JSONValue.parse(json.outputBytes)
        #expect(report["cutReferences"] == .array([.object([.init("from", .integer(3)), .init("fromClass", .string("Child")),
                                                           .init("to", .integer(0)), .init("toClass", .string("Parent"))])]))
        #expect(report["objects"] == .object([.init("kept", .integer(0)), .init("recovered", .integer(1)), .init("lost", .integer(1))]))
        #expect(report["groups"] == .object([.init("kept", .integer(0)), .init("lost", .integer(1)), .init("added", .integer(1))]))
        #expect(report["damage"]?["offset"] == .integer(truncated.count))
        #expect(report["damage"]?["code"] == .string("truncated"))
        #expect(report["bytesFromDamage"] == .integer(0))
        #expect(report["prefixIdentical"] == .bool(true))
    }

    // MARK: - The command

    @Test func anUndamagedFileComesBackByteForByte() throws {
        for name in Self.sampleNames {
            let bytes = try Self.sample(name)
            let folder = try TemporaryFolder()
            let input = try folder.write("in.typedstream", bytes)
            let result = run(["salvage", input, "-o", folder.path + "/out.typedstream"])
            #expect(result.exitCode == .success)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out.typedstream"))) == bytes)
            #expect(result.standardError.contains("undamaged"))
            let piped = run(["salvage", "-"], stdin: bytes)
            #expect(piped.exitCode == .success)
            #expect(piped.outputBytes == bytes)
        }
    }

    @Test func keptGroupsStayByteForByte() throws {
        // scalars: one group per type; cut inside the seventh group.
        let bytes = try Self.sample("scalars.typedstream")
        let original = try Original(bytes)
        let cut = original.groupEnds[6] - 1
        let result = run(["salvage", "-", "--report-file", "-", "-o", "/dev/null"], stdin: Array(bytes[..<cut]))
        #expect(result.exitCode == .failure)
        #expect(result.standardOutput.contains("kept the header and 6 whole top-level groups (\(original.groupEnds[5]) bytes, byte for byte) holding 0 objects"), "\(result.standardOutput)")
    }

    @Test func nothingToKeep() throws {
        let folder = try TemporaryFolder()
        let header = run(["salvage", "-", "-o", folder.path + "/out"], stdin: Array("not an archive".utf8))
        #expect(header.exitCode == .failure)
        #expect(header.standardError.hasPrefix("error: <stdin>: nothing could be salvaged: no valid header: offset 0x"), "\(header.standardError)")
        let inside = run(["salvage", "-", "-o", folder.path + "/out"], stdin: Array(try Self.sample("hello.typedstream").dropLast()))
        #expect(inside.exitCode == .failure)
        #expect(inside.standardError.hasPrefix("error: <stdin>: nothing could be salvaged: no top-level group or object is whole before the damage at offset 0x"), "\(inside.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test func plainJSONEndsWithTheSalvageMarker() throws {
        let bytes = try Self.sample("strings-array.typedstream")
        let result = run(["salvage", "--plain", "-"], stdin: Array(bytes.dropLast(3)))
        #expect(result.exitCode == .failure)
        let document = try JSONValue.parse(result.outputBytes)
        guard case .array(let values)? = document["values"] else { Issue.record("no values: \(result.standardOutput)"); return }
        #expect(values.dropLast() == [.string("first"), .string("shared"), .string("émoji 👍🏽")])
        #expect(values.last?["$salvage"]?["offset"] == .integer(bytes.count - 3))
        #expect(values.last?["$salvage"]?["addedGroups"] == .integer(3))
        // Undamaged: no marker, as decode --plain.
        let whole = run(["salvage", "--plain", "-"], stdin: bytes)
        #expect(whole.exitCode == .success)
        #expect(whole.outputBytes == run(["decode", "--plain", "-"], stdin: bytes).outputBytes)
    }

    /// `salvage --plain` over truncated prefixes, through the command: what `decode --plain`
    /// prints for the salvaged archive, then the marker with the reader's damage offset and
    /// reason; exit 1. A prefix that is whole prints exactly `decode --plain`'s document, one
    /// with nothing whole an error and nothing on standard output.
    static func checkPlainPrefixes(_ bytes: [UInt8], cuts: some Sequence<Int>, name: String) throws {
        for cut in cuts {
            let prefix = Array(bytes[..<cut])
            let result = run(["salvage", "--plain", "-"], stdin: prefix)
            guard let salvage = try? ArchiveReader.salvage(prefix), salvage.isUndamaged || salvage.keptGroupCount + salvage.addedGroupCount > 0 else {
                #expect(result.exitCode == .failure, "\(name) cut at \(cut)")
                #expect(result.outputBytes.isEmpty, "\(name) cut at \(cut)")
                continue
            }
            guard let damage = salvage.damage else {
                #expect(result.exitCode == .success, "\(name) cut at \(cut)")
                #expect(result.outputBytes == run(["decode", "--plain", "-"], stdin: prefix).outputBytes, "\(name) cut at \(cut)")
                continue
            }
            #expect(result.exitCode == .failure, "\(name) cut at \(cut)")
            let document = try JSONValue.parse(result.outputBytes)
            guard case .array(var values)? = document["values"], let marker = values.popLast() else {
                Issue.record("\(name) cut at \(cut): no values")
                continue
            }
            #expect(marker["$salvage"]?["offset"] == .integer(damage.offset), "\(name) cut at \(cut)")
            #expect(marker["$salvage"]?["reason"] == .string(damage.reason), "\(name) cut at \(cut)")
            #expect(marker["$salvage"]?["addedGroups"] == .integer(salvage.addedGroupCount), "\(name) cut at \(cut)")
            let written = try ArchiveWriter.write(salvage.archive)
            let decoded = try JSONValue.parse(run(["decode", "--plain", "-"], stdin: written).outputBytes)
            #expect(document["systemVersion"] == decoded["systemVersion"])
            #expect(decoded["values"] == .array(values), "\(name) cut at \(cut)")
        }
    }

    @Test func plainJSONOfTruncatedPrefixesOfAMadeArchive() throws {
        let strings = (0..<40).map { "string \($0) ✓" }
        let root = ArrayObject([ArrayObject(strings: strings), DictionaryObject(stringKeys: [("k", StringObject("v")), ("n", NumberObject(int: 7))]), ArrayObject(strings: strings.reversed())])
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        try Self.checkPlainPrefixes(bytes, cuts: stride(from: 0, through: bytes.count, by: 7), name: "made archive")
    }

    @Test(.needsCorpus) func plainJSONOfTruncatedPrefixesOfACorpusNib() throws {
        let file = try #require(corpusFolder()).appendingPathComponent("nib/macosx-DropScript-MainMenu.nib.typedstream")
        let bytes = Array(try Data(contentsOf: file))
        try Self.checkPlainPrefixes(bytes, cuts: Self.cuts(for: try Original(bytes)), name: file.lastPathComponent)
    }

    @Test func reportAndArchiveCannotShareStandardOutput() {
        let json = run(["salvage", "-", "--report", "json"], stdin: Samples.appleHeader)
        #expect(json.exitCode == .usage)
        #expect(json.standardError.contains("--report json prints on standard output, where the archive goes"), "\(json.standardError)")
        let plain = run(["salvage", "--plain", "-", "-o", "-"], stdin: Samples.appleHeader)
        #expect(plain.exitCode == .usage)
        let format = run(["salvage", "-", "--report", "yaml"], stdin: Samples.appleHeader)
        #expect(format.exitCode == .usage)
        #expect(format.standardError.contains("invalid value 'yaml' for '--report': expected text or json"))
    }

    @Test func helpDescribesSalvage() {
        let help = run(["help", "salvage"])
        #expect(help.exitCode == .success)
        #expect(help.standardOutput.contains("USAGE: typedstream salvage"))
        #expect(help.standardOutput.contains("$salvage"))
        #expect(run(["--help"]).standardOutput.contains("salvage"))
    }
}
