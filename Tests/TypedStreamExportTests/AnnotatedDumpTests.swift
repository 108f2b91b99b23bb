import Testing
import TypedStream
@testable import TypedStreamExport

/// The dump of the format notes' worked example (§7), line by line.
private let workedExampleLines = [
    "00000000  04 0b 73 74 72 65 61 6d 74 79 70 65 64 81 e8 03  |..streamtyped...|  header: streamer v4, little-endian (streamtyped), system version 1000",
    "00000010  84 01 40                                         |..@|               type string \"@\" (new shared string #0)",
    "00000013  84                                               |.|                 new object #0 of class NSArray v0",
    "00000014  84 84 07 4e 53 41 72 72 61 79 00                 |...NSArray.|         class NSArray v0 (new, object #1; name: new shared string #1)",
    "0000001f  84 84 08 4e 53 4f 62 6a 65 63 74 00              |...NSObject.|        superclass NSObject v0 (new, object #2; name: new shared string #2)",
    "0000002b  85                                               |.|                   superclass: none",
    "0000002c  84 01 69                                         |..i|                 type string \"i\" (new shared string #3)",
    "0000002f  02                                               |.|                   int 2 (inline)",
    "00000030  92                                               |.|                   type string \"@\" (shared string #0 by reference)",
    "00000031  84                                               |.|                   new object #3 of class NSNumber v0",
    "00000032  84 84 08 4e 53 4e 75 6d 62 65 72 00              |...NSNumber.|          class NSNumber v0 (new, object #4; name: new shared string #4)",
    "0000003e  84 84 07 4e 53 56 61 6c 75 65 00                 |...NSValue.|           superclass NSValue v0 (new, object #5; name: new shared string #5)",
    "00000049  94                                               |.|                     superclass → #2 NSObject (reference)",
    "0000004a  84 01 2a                                         |..*|                   type string \"*\" (new shared string #6)",
    "0000004d  84 84 01 63                                      |...c|                  C string \"c\" (new, object #6; text: new shared string #7)",
    "00000051  99                                               |.|                     type string \"c\" (shared string #7 by reference)",
    "00000052  01                                               |.|                     char 1",
    "00000053  86                                               |.|                   end of object #3 NSNumber",
    "00000054  92                                               |.|                   type string \"@\" (shared string #0 by reference)",
    "00000055  84                                               |.|                   new object #7 of class NSNumber v0",
    "00000056  96                                               |.|                     class → #4 NSNumber (reference)",
    "00000057  98                                               |.|                     type string \"*\" (shared string #6 by reference)",
    "00000058  98                                               |.|                     reference to C string #6 (\"c\")",
    "00000059  99                                               |.|                     type string \"c\" (shared string #7 by reference)",
    "0000005a  00                                               |.|                     char 0",
    "0000005b  86                                               |.|                   end of object #7 NSNumber",
    "0000005c  86                                               |.|                 end of object #0 NSArray",
]

@Test func workedExampleRendersExactly() {
    let dump = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools)
    #expect(dump.lines == workedExampleLines)
    #expect(dump.text == workedExampleLines.map { $0 + "\n" }.joined())
    #expect(dump.error == nil)
    #expect(dump.coveredRanges == [0..<93])
    #expect(dump.summary.lineCount == workedExampleLines.count)
    #expect(dump.summary.objectFound)
}

@Test func streamingGivesTheSameLinesAsRender() {
    var streamed: [String] = []
    let summary = AnnotatedDump.renderLines(DumpFixtures.arrayOfTwoBools) { streamed.append($0) }
    #expect(streamed == workedExampleLines)
    #expect(summary == AnnotatedDump.render(DumpFixtures.arrayOfTwoBools).summary)
}

@Test func truncatedArchiveShowsUndecodedBytesThenTheError() {
    // Cut inside the name of the superclass NSObject: its length (8) overruns the data.
    let dump = AnnotatedDump.render(Array(DumpFixtures.arrayOfTwoBools.prefix(40)))
    #expect(dump.lines == Array(workedExampleLines.prefix(4)) + [
        "0000001f  84 84 08 4e 53 4f 62 6a 65                       |...NSObje|           not decoded (9 bytes left)",
        "error at offset 0x00000021: the length of a class name 8 runs past the end of the data (6 bytes remain)",
    ])
    #expect(dump.error?.code == .badLength)
    #expect(dump.error?.offset == 0x21)
    #expect(dump.coveredRanges == [0..<0x1f])
}

@Test func truncatedAtATokenBoundaryEndsWithTheErrorLine() {
    // Cut right after the second NSNumber's `new`: its class chain is missing.
    let dump = AnnotatedDump.render(Array(DumpFixtures.arrayOfTwoBools.prefix(0x56)))
    #expect(dump.lines == Array(workedExampleLines.prefix(19)) + [
        "00000055  84                                               |.|                   new object #7",
        "error at offset 0x00000056: expected a class, found end of data",
    ])
    #expect(dump.error?.code == .truncated)
}

@Test func damageContextIsLimited() {
    var bytes = DumpFixtures.arrayOfTwoBools
    bytes[0x2f] = 0x88   // a reserved tag where the count of the array should be
    let dump = AnnotatedDump.render(bytes, options: .init(damageContext: 3))
    #expect(dump.lines.suffix(2) == [
        "0000002f  88 92 84                                         |...|                 not decoded (3 of 46 bytes left)",
        "error at offset 0x0000002f: expected an integer (i) (an integer), found 0x88 (reserved tag)",
    ])
    #expect(dump.error?.code == .unexpectedHeadByte)
}

@Test func foreignInputShowsItsFirstBytes() {
    let bytes = Array("bplist00".utf8) + [0xD1, 0x01, 0x02]
    let dump = AnnotatedDump.render(bytes)
    #expect(dump.lines == [
        "00000000  62 70 6c 69 73 74 30 30 d1 01 02                 |bplist00...|       not decoded (11 bytes left)",
        "error at offset 0x00000000: this is a binary property list (bplist00), such as an NSKeyedArchiver archive, not a typedstream",
    ])
    #expect(dump.error?.code == .foreignKeyedArchive)
    #expect(AnnotatedDump.render([]).lines == ["error at offset 0x00000000: the input is empty"])
}

// MARK: - Following one object

@Test func followingAnObjectShowsItFromNewToEnd() {
    let third = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(objectIndex: 3))
    #expect(third.lines == Array(workedExampleLines[9...17]))
    #expect(third.summary.objectFound)
    #expect(third.coveredRanges == [0x31..<0x54])

    let root = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(objectIndex: 0))
    #expect(root.lines == Array(workedExampleLines[2...]))

    let seventh = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(objectIndex: 7))
    #expect(seventh.lines == Array(workedExampleLines[19...25]))
}

@Test func followingSomethingThatIsNotAnObjectSaysWhy() {
    let cases: [(Int, String)] = [
        (1, "object #1 is a class (NSArray), not a new object with contents"),
        (6, "object #6 is a C string (\"c\"), not a new object with contents"),
        (8, "no object #8 in this archive (its object table has 8 entries)"),
    ]
    for (index, note) in cases {
        let dump = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(objectIndex: index))
        #expect(dump.lines == [note], "object #\(index)")
        #expect(!dump.summary.objectFound)
        #expect(dump.coveredRanges.isEmpty)
    }
}

@Test func followingAnObjectCutByDamageEndsWithTheError() {
    let dump = AnnotatedDump.render(Array(DumpFixtures.arrayOfTwoBools.prefix(0x59)), options: .init(objectIndex: 7))
    #expect(dump.lines == Array(workedExampleLines[19...22]) + [
        "error at offset 0x00000059: expected a type string or end of object (0x86), found end of data",
    ])
    // Damage before the followed object was reached: only the error.
    let early = AnnotatedDump.render(Array(DumpFixtures.arrayOfTwoBools.prefix(0x40)), options: .init(objectIndex: 7))
    #expect(early.lines == ["error at offset 0x00000040: expected the length of a class name, found end of data"])
    #expect(early.summary.objectFound, "unknown, not missing: the damage came first")
}

// MARK: - Start and length

@Test func windowShowsTheTokensItTouches() {
    let both = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(startOffset: 0x2c, length: 4))
    #expect(both.lines == Array(workedExampleLines[6...7]))
    #expect(both.coveredRanges == [0x2c..<0x30])

    // A window inside one token shows that token whole.
    let inside = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(startOffset: 0x16, length: 1))
    #expect(inside.lines == [workedExampleLines[3]])

    let tail = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(startOffset: 0x5a))
    #expect(tail.lines == Array(workedExampleLines[24...]))

    #expect(AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(startOffset: 0x20, length: 0)).lines.isEmpty)
    #expect(AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(startOffset: 500)).lines.isEmpty)
}

@Test func windowStopsReadingBeforeLaterDamage() {
    let damaged = Array(DumpFixtures.arrayOfTwoBools.prefix(60))
    let early = AnnotatedDump.render(damaged, options: .init(length: 0x13))
    #expect(early.lines == Array(workedExampleLines[0...1]))
    #expect(early.error == nil)
    let late = AnnotatedDump.render(damaged, options: .init(startOffset: 0x50))
    #expect(late.error?.offset == 0x34)
    #expect(late.lines == [
        "error at offset 0x00000034: the length of a class name 8 runs past the end of the data (7 bytes remain)",
    ])
}

@Test func windowCutsWrappedTokensByLine() {
    let options = AnnotatedDump.Options(startOffset: 0x18, length: 2, bytesPerLine: 4)
    let dump = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: options)
    #expect(dump.lines == [
        "00000018  53 41 72 72  |SArr|    (continued from 0x00000014) class NSArray v0 (new, object #1; name: new shared string #1)",
    ])
    #expect(dump.coveredRanges == [0x18..<0x1c])
}

// MARK: - Layout

@Test func narrowHexColumnWrapsLongTokens() {
    let dump = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(bytesPerLine: 8))
    #expect(Array(dump.lines.prefix(6)) == [
        "00000000  04 0b 73 74 72 65 61 6d  |..stream|  header: streamer v4, little-endian (streamtyped), system version 1000",
        "00000008  74 79 70 65 64 81 e8 03  |typed...|",
        "00000010  84 01 40                 |..@|       type string \"@\" (new shared string #0)",
        "00000013  84                       |.|         new object #0 of class NSArray v0",
        "00000014  84 84 07 4e 53 41 72 72  |...NSArr|    class NSArray v0 (new, object #1; name: new shared string #1)",
        "0000001c  61 79 00                 |ay.|",
    ])
    #expect(dump.coveredRanges == [0..<93])
}

@Test func everyWidthCoversEveryByteOnce() {
    for width in [1, 2, 3, 5, 7, 16, 31, 64] {
        let options = AnnotatedDump.Options(bytesPerLine: width)
        let dump = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: options)
        #expect(dump.coveredRanges == [0..<93], "width \(width)")
        #expect(shownBytes(dump.lines, bytesPerLine: width) == DumpFixtures.arrayOfTwoBools, "width \(width)")
    }
    // Out-of-range widths are clamped rather than trapping.
    #expect(AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(bytesPerLine: 0)).lines.count == 93)
    #expect(AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(bytesPerLine: 100_000)).coveredRanges == [0..<93])
}

/// The bytes the lines show, in order (fails the test on gaps or overlaps).
func shownBytes(_ lines: [String], bytesPerLine: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for line in lines {
        guard let (offset, shown) = DumpLineParser.parse(line, bytesPerLine: bytesPerLine) else { continue }
        guard !shown.isEmpty else { continue }
        #expect(offset == bytes.count, "line at \(offset) does not continue at \(bytes.count): \(line)")
        bytes += shown
    }
    return bytes
}

// MARK: - Colour

@Test func colourOnlyWhenAsked() {
    let plain = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(useColor: false))
    #expect(!plain.text.contains("\u{1B}"))

    let coloured = AnnotatedDump.render(Array(DumpFixtures.arrayOfTwoBools.prefix(40)), options: .init(useColor: true))
    let esc = "\u{1B}["
    #expect(coloured.lines[1] == "\(esc)36m00000010\(esc)0m  \(esc)33m84\(esc)0m 01 40                                         |..@|               type string \(esc)32m\"@\"\(esc)0m (new shared string #0)")
    #expect(coloured.lines[2] == "\(esc)36m00000013\(esc)0m  \(esc)33m84\(esc)0m                                               |.|                 new object #0 of class \(esc)1mNSArray\(esc)0m v0")
    #expect(coloured.lines[4] == "\(esc)36m0000001f\(esc)0m  \(esc)31m84 84 08 4e 53 4f 62 6a 65\(esc)0m                       |...NSObje|           \(esc)31mnot decoded (9 bytes left)\(esc)0m")
    #expect(coloured.lines[5] == "\(esc)31merror at offset 0x00000021: the length of a class name 8 runs past the end of the data (6 bytes remain)\(esc)0m")
    // Payload bytes that happen to look like tags are not coloured as tags.
    #expect(coloured.lines[0].contains(" 64 \(esc)33m81\(esc)0m e8 03"))

    // Colour changes nothing but the escapes.
    let whole = AnnotatedDump.render(DumpFixtures.arrayOfTwoBools, options: .init(useColor: true))
    #expect(whole.lines.map(DumpLineParser.strippingColor) == workedExampleLines)
}

@Test func colourChoiceResolves() {
    typealias Choice = AnnotatedDump.ColorChoice
    let rows: [(Choice, Bool, [String: String], Bool)] = [
        (.always, false, [:], true),
        (.always, true, ["NO_COLOR": "1"], true),
        (.never, true, [:], false),
        (.auto, true, [:], true),
        (.auto, false, [:], false),
        (.auto, true, ["NO_COLOR": "1"], false),
        (.auto, true, ["NO_COLOR": ""], true),
        (.auto, true, ["TERM": "dumb"], false),
        (.auto, true, ["TERM": "xterm-256color"], true),
    ]
    for (choice, terminal, environment, expected) in rows {
        #expect(choice.resolve(outputIsTerminal: terminal, environment: environment) == expected,
                "\(choice) terminal=\(terminal) \(environment)")
    }
    #expect(Choice(rawValue: "always") == .always)
    #expect(Choice.allCases.map(\.rawValue) == ["auto", "always", "never"])
}
