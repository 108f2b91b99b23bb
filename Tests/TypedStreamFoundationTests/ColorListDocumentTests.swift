import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation
import TestSupport

/// Two names for one colour: the colour is written once, then referred to (`92`); the second
/// name reuses the NSString class (`96`) and the `"+"` type string (`9a`).
private let twoNamesBytes = """
\(Hex.appleHeader)
84 01 69 01
84 02 40 69 85 02
84 02 40 40
   84 84 84 07 \(Hex.ascii("NSColor")) 00 84 84 08 \(Hex.ascii("NSObject")) 00 85
      84 01 63 01 84 04 66 66 66 66 01 00 00 01
   86
   84 84 84 08 \(Hex.ascii("NSString")) 01 94 84 01 2b 03 \(Hex.ascii("Red")) 86
94 92 84 96 9a 08 \(Hex.ascii("Also red")) 86
"""

@Test func colorListExactBytesAndRoundTrip() throws {
    let red = ColorObject(.calibratedRGB(red: 1, green: 0, blue: 0, alpha: 1))
    let list = ColorListDocument(entries: [.init(name: "Red", color: red), .init(name: "Also red", color: red)])
    #expect(Hex.text(try list.encodedBytes()) == Hex.text(Hex.bytes(twoNamesBytes)))

    let read = try ColorListDocument(bytes: Hex.bytes(twoNamesBytes))
    #expect(read.names == ["Red", "Also red"])
    #expect(read.formatVersion == 1)
    #expect(read.leadingObject == nil)
    #expect(read.entries[0].color === read.entries[1].color)
    #expect(read["Also red"]?.components == [1, 0, 0, 1])
    #expect(try read.encodedBytes() == Hex.bytes(twoNamesBytes))
}

@Test func colorListRenamingAnEntry() throws {
    var list = try ColorListDocument(bytes: Hex.bytes(twoNamesBytes))
    list.entries[1].name = "Crimson"
    let again = try ColorListDocument(bytes: try list.encodedBytes())
    #expect(again.names == ["Red", "Crimson"])
}

/// Damaged colour lists fail with the matching code.
@Test(arguments: [
    ("format version 2", "84 01 69 02 84 02 40 69 85 00", CoderError.Code.unsupportedVersion),
    ("negative count", "84 01 69 01 84 02 40 69 85 ff", .badContents),
    ("missing entry", "84 01 69 01 84 02 40 69 85 01", .noMoreValues),
    ("trailing group", "84 01 69 01 84 02 40 69 85 00 92 05", .trailingValues),
    ("not a colour", "84 01 69 01 84 02 40 69 85 01 84 02 40 40 85 85", .unexpectedClass),
    ("no count group", "84 01 69 01 84 01 40 85", .typeMismatch),
])
func colorListErrors(name: String, groups: String, code: CoderError.Code) {
    #expect(throws: CoderError(code, ""), "\(name)") {
        try ColorListDocument(bytes: Hex.bytes(Hex.appleHeader + groups))
    }
}

/// The two `.clr` files of the corpus: names and colours in order, and the same bytes back.
@Test(.needsCorpus) func corpusColorListFiles() throws {
    let corpus = try #require(CorpusFontPlists.corpusDirectory)
    let expectations: [(file: String, count: Int, first: String, firstComponents: [Float])] = [
        ("colorlist-Emacs.clr.typedstream", 752, "LightGreen", [0.5647059, 0.93333334, 0.5647059, 1]),
        ("colorlist-apple-ii.clr.typedstream", 15, "#000", [0, 0, 0, 1]),
    ]
    for row in expectations {
        let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent("misc/" + row.file)))
        let list = try ColorListDocument(bytes: bytes)
        #expect(list.entries.count == row.count, "\(row.file)")
        #expect(list.entries.first?.name == row.first)
        #expect(list.entries.first?.color.components == row.firstComponents)
        #expect(Set(list.entries.map { $0.color.kind }) == [.calibratedRGB])
        let shared = list.entries.count - Set(list.entries.map { ObjectIdentifier($0.color) }).count
        print("colour list \(row.file): \(list.entries.count) entries, \(shared) sharing a colour with an earlier entry")
        #expect(try list.encodedBytes() == bytes, "\(row.file): read → write changed the bytes")
    }
}
