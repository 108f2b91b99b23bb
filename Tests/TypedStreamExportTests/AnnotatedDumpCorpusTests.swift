import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// What the token reader itself makes of `bytes`: the error it stops at, if any, and the end
/// of the last token it read before that.
private func readerResult(_ bytes: [UInt8]) -> (error: WireError?, decodedEnd: Int) {
    var reader = TokenReader(bytes: bytes)
    var end = 0
    do {
        while let token = try reader.next() { end = max(end, token.end) }
        return (nil, end)
    } catch {
        return (error, end)
    }
}

private func errorLine(_ error: WireError) -> String {
    "error at offset 0x\(AnnotatedDumpText.hex(error.offset)): \(error.reason)"
}

/// Checks the decoded lines of a dump: they show `bytes[0..<end]` in order, each byte once,
/// where `end` is the end of the covered range. Returns that end.
@discardableResult
private func checkDecodedLines(_ dump: AnnotatedDump.Rendering, _ bytes: [UInt8], _ name: String,
                               bytesPerLine: Int = 16) -> Int {
    var next = 0
    for line in dump.lines {
        guard let (offset, shown) = DumpLineParser.parse(line, bytesPerLine: bytesPerLine), !shown.isEmpty else { continue }
        // The undecoded bytes at damage come last; they are not part of the decoded cover.
        if DumpLineParser.annotation(line, bytesPerLine: bytesPerLine).trimmingPrefixSpaces.hasPrefix("not decoded (") { break }
        #expect(offset == next, "\(name): line at 0x\(AnnotatedDumpText.hex(offset)) should start at 0x\(AnnotatedDumpText.hex(next)) (gap or overlap)")
        #expect(offset + shown.count <= bytes.count && Array(bytes[offset..<offset + shown.count]) == shown,
                "\(name): line at 0x\(AnnotatedDumpText.hex(offset)) shows bytes that are not in the file")
        next = offset + shown.count
    }
    return next
}

@Test(.needsCorpus) func everyCorpusArchiveIsCoveredByteForByte() {
    let files = DumpFixtures.corpusFiles()
    var checked = 0
    var failing: [String] = []
    for (path, bytes) in files {
        let dump = AnnotatedDump.render(bytes)
        let expected = readerResult(bytes)
        #expect(dump.error?.code == expected.error?.code && dump.error?.offset == expected.error?.offset, "\(path)")
        if let error = dump.error {
            failing.append(path)
            #expect(dump.lines.last == errorLine(error), "\(path)")
            #expect(checkDecodedLines(dump, bytes, path) == expected.decodedEnd, "\(path)")
            #expect(dump.coveredRanges == (expected.decodedEnd == 0 ? [] : [0..<expected.decodedEnd]), "\(path)")
            continue
        }
        checked += 1
        #expect(dump.coveredRanges == [0..<bytes.count], "\(path): covered \(dump.coveredRanges)")
        #expect(checkDecodedLines(dump, bytes, path) == bytes.count, "\(path)")
        #expect(!dump.text.contains("not decoded") && !dump.text.contains("error at offset"), "\(path)")
        // Every value was named by its type: the cursor never lost its place.
        #expect(!dump.text.contains("  integer ") && !dump.text.contains("  byte 0x"), "\(path): a value without its type")
    }
    do {
        print("annotated dump covered \(checked) corpus archives byte for byte; \(failing.count) rejected: \(failing)")
        #expect(checked >= 100)
        #expect(failing.allSatisfy { $0.hasPrefix("gnustep-format/") || $0.contains("malformed") }, "\(failing)")
        #expect(failing.count == 7)
    }
}

@Test(.needsCorpus) func malformedCorpusFilesEndAtTheirDamage() throws {
    let cases: [(String, WireError.Code, Int, String)] = [
        ("attributed-string/imsg-ExtraData-malformed.typedstream", .badLength, 0x79,
         "00000079  81 9d 00 54 68 69 73 20 69 73 20 70 61 72 73 69  |...This is parsi|      not decoded (16 of 123 bytes left)"),
        ("nib/macosx-finkcommander-Preferences-CVS-conflict-malformed.nib.typedstream", .badReference, 0x19b,
         "0000019b  2e 6e 69 62 0a 66 69 6e 6b 2e 63 6f 6e 66 20 66  |.nib.fink.conf f|                not decoded (16 of 41257 bytes left)"),
        ("gnustep-format/iTunesFS-MainMenu-objects.gorm.gsarchive", .foreignGNUstep, 0,
         "00000000  47 4e 55 73 74 65 70 20 61 72 63 68 69 76 65 30  |GNUstep archive0|  not decoded (16 of 1254 bytes left)"),
    ]
    for (path, code, offset, undecodedLine) in cases {
        let bytes = try #require(DumpFixtures.corpusFile(path), "\(path)")
        let dump = AnnotatedDump.render(bytes)
        let error = try #require(dump.error, "\(path)")
        #expect(error.code == code && error.offset == offset, "\(path): \(error)")
        #expect(dump.lines.suffix(2) == [undecodedLine, errorLine(error)], "\(path)")
    }
}

@Test func everyTruncatedPrefixEndsWithTheReadersError() {
    var archives: [(String, [UInt8])] = [("worked example", DumpFixtures.arrayOfTwoBools)]
    archives += DumpFixtures.corpusFiles().filter { $0.bytes.count <= 300 && !$0.path.hasPrefix("gnustep-format/") }
    for (name, bytes) in archives {
        for length in 0..<bytes.count {
            let prefix = Array(bytes.prefix(length))
            let dump = AnnotatedDump.render(prefix)
            let expected = readerResult(prefix)
            let label = "\(name) cut at \(length)"
            #expect(dump.error?.code == expected.error?.code && dump.error?.offset == expected.error?.offset, "\(label)")
            guard let error = dump.error else {
                #expect(dump.coveredRanges == [0..<length], "\(label)")
                continue
            }
            #expect(dump.lines.last == errorLine(error), "\(label)")
            #expect(checkDecodedLines(dump, prefix, label) == expected.decodedEnd, "\(label)")
            // The bytes between the last token and the damage (and a little after) are shown.
            let undecoded = dump.lines.compactMap { DumpLineParser.parse($0) }.reduce(0) { $0 + $1.bytes.count } - expected.decodedEnd
            #expect(undecoded == min(length, max(error.offset, expected.decodedEnd) + 16) - expected.decodedEnd, "\(label)")
        }
    }
}

@Test(.needsCorpus) func followingEachObjectShowsAContiguousPartOfTheWholeDump() throws {
    let bytes = try #require(DumpFixtures.corpusFile("foundation/foundation-NestedContainers.typedstream"))
    let whole = AnnotatedDump.render(bytes).lines
    var followed = 0
    for index in 0..<64 {
        let dump = AnnotatedDump.render(bytes, options: .init(objectIndex: index))
        guard dump.summary.objectFound else {
            #expect(dump.lines.count == 1, "object #\(index)")
            continue
        }
        followed += 1
        #expect(dump.lines.first.map { DumpLineParser.annotation($0).trimmingPrefixSpaces.hasPrefix("new object #\(index)") } == true, "object #\(index)")
        #expect(dump.lines.last.map { DumpLineParser.annotation($0).trimmingPrefixSpaces.hasPrefix("end of object #\(index)") } == true, "object #\(index)")
        guard let start = whole.firstIndex(of: dump.lines[0]) else {
            Issue.record("object #\(index): first line not in the whole dump")
            continue
        }
        #expect(Array(whole[start..<min(start + dump.lines.count, whole.count)]) == dump.lines, "object #\(index)")
    }
    #expect(followed >= 5)
}

@Test(.needsCorpus) func colourOnACorpusFileOnlyAddsEscapes() throws {
    let bytes = try #require(DumpFixtures.corpusFile("attributed-string/imsg-Attachment.typedstream"))
    let plain = AnnotatedDump.render(bytes)
    let coloured = AnnotatedDump.render(bytes, options: .init(useColor: true))
    #expect(coloured.text.contains("\u{1B}[33m84\u{1B}[0m"))
    #expect(coloured.lines.map(DumpLineParser.strippingColor) == plain.lines)
}

private extension String {
    var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
