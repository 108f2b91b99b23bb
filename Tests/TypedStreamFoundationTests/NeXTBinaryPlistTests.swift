import Foundation
import Testing
@testable import TypedStreamFoundation
import TestSupport

// MARK: - Helpers

/// Bytes from hex text; spaces and `|` are ignored.
private func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}

/// Hex text from bytes.
private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A table row that remembers where it was written.
private struct Row<Payload: Sendable>: Sendable {
    var payload: Payload
    var location: SourceLocation
    init(_ payload: Payload, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        self.payload = payload
        self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The same value nested in `depth` one-element arrays.
private func nested(_ depth: Int, around value: NeXTPlistValue = .null) -> NeXTPlistValue {
    var result = value
    for _ in 0 ..< depth { result = .array([result]) }
    return result
}

/// A random value tree of bounded size.
private func randomValue(_ rng: inout SplitMix64, depth: Int = 0) -> NeXTPlistValue {
    let leafOnly = depth >= 4
    switch Int.random(in: 0 ..< (leafOnly ? 5 : 7), using: &rng) {
    case 0: return .null
    case 1: return .data((0 ..< Int.random(in: 0 ..< 9, using: &rng)).map { _ in UInt8.random(in: 0 ... 255, using: &rng) })
    case 2: return .string(NeXTPlistString(encoding: .nextstep, bytes: (0 ..< Int.random(in: 0 ..< 7, using: &rng)).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }))
    case 3: return NeXTPlistValue("Ünïcødé \(Int.random(in: 0 ..< 1000, using: &rng))", byteOrder: Bool.random(using: &rng) ? .bigEndian : .littleEndian)
    case 4: return .data([1, 2, 3], padding: [UInt8.random(in: 1 ... 255, using: &rng)])
    case 5: return .array((0 ..< Int.random(in: 0 ..< 4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
    default:
        return .dictionary((0 ..< Int.random(in: 0 ..< 4, using: &rng)).map { index in
            NeXTPlistEntry(key: NeXTPlistValue("key\(index)"), value: randomValue(&rng, depth: depth + 1))
        })
    }
}

// MARK: - Real samples

@Test(.needsCorpus) func corpusFontPlistsRoundTripByteForByte() throws {
    let samples = try #require(CorpusFontPlists.all())
    #expect(samples.count >= 80, "expected the NSFont payloads of the corpus nibs, found \(samples.count)")
    var names: Set<String> = []
    var encodings: Set<String> = []
    for sample in samples {
        let value = try NeXTBinaryPlist.decode(sample.bytes)
        #expect(NeXTBinaryPlist.encode(value) == sample.bytes, "\(sample.file) @\(sample.offset)")
        let string = try #require(value.plistString, "\(sample.file) @\(sample.offset): not a string")
        names.insert(string.string)
        switch string.encoding {
        case .nextstep:
            encodings.insert("nextstep")
            #expect(NeXTSTEPCharacterSet.encode(string.string) == string.bytes)
        case .utf16:
            #expect(string.hasByteOrderMark, "\(sample.file) @\(sample.offset)")
            // UTF-16 follows the machine that wrote the archive: the BOM matches the archive's
            // byte order, while the type code and length stay little-endian.
            let archiveIsBigEndian = sample.archiveIsBigEndian
            #expect((string.byteOrder == .bigEndian) == archiveIsBigEndian, "\(sample.file) @\(sample.offset)")
            encodings.insert(string.byteOrder == .bigEndian ? "utf16be" : "utf16le")
            #expect(NeXTPlistString(string.string, byteOrder: string.byteOrder ?? .littleEndian) == string)
        }
    }
    #expect(encodings == ["nextstep", "utf16be", "utf16le"])
    #expect(names.isSuperset(of: ["Helvetica", "LucidaGrande", "Times-Roman", "Helvetica-Bold", "Charcoal"]))
}

@Test(.needsCorpus) func corpusSamplesFailCleanlyOnEveryTruncatedPrefix() throws {
    let samples = try #require(CorpusFontPlists.all())
    var distinct: [[UInt8]] = []
    for sample in samples where !distinct.contains(sample.bytes) { distinct.append(sample.bytes) }
    for bytes in distinct {
        for length in 0 ..< bytes.count {
            #expect(throws: NeXTPlistError.self) { try NeXTBinaryPlist.decode(bytes[..<length]) }
        }
    }
}

// MARK: - Exact bytes, both directions

private let exactRows: [Row<(NeXTPlistValue, String)>] = [
    Row((.null, "08000000")),
    Row((.data([]), "04000000 00000000")),
    Row((.data([1, 2, 3]), "04000000 03000000 010203 00")),
    Row((.data([1, 2, 3, 4]), "04000000 04000000 01020304")),
    Row((.data([1, 2, 3, 4, 5]), "04000000 05000000 0102030405 000000")),
    Row((.data([9], padding: [0xAA, 0, 0]), "04000000 01000000 09 aa0000")),
    Row((.string(NeXTPlistString(nextstep: "Helvetica")!), "05000000 09000000 48656c766574696361 000000")),
    Row((.string(NeXTPlistString(nextstep: "Ø–ß")!), "05000000 03000000 e9b1fb 00")),
    Row((NeXTPlistValue("Helvetica"), "06000000 14000000 fffe 480065006c00760065007400690063006100")),
    Row((NeXTPlistValue("Helvetica", byteOrder: .bigEndian), "06000000 14000000 feff 00480065006c0076006500740069006300 61")),
    Row((NeXTPlistValue("é"), "06000000 04000000 fffe e900")),
    Row((NeXTPlistValue("A", byteOrder: .bigEndian), "06000000 04000000 feff 0041")),
    Row((.string(NeXTPlistString(encoding: .utf16, bytes: [])), "06000000 00000000")),
    Row((.array([]), "02000000 00000000")),
    Row((.array([.null, .data([0xFF])]), "02000000 02000000 | 04000000 0c000000 | 08000000 | 04000000 01000000 ff000000")),
    Row((.dictionary([]), "07000000 00000000")),
    Row((.dictionary([NeXTPlistEntry(key: .string(NeXTPlistString(nextstep: "k")!), value: .null)]),
         "07000000 01000000 | 05000000 01000000 6b000000 | 04000000 | 08000000")),
    Row((.array([.dictionary([NeXTPlistEntry(key: .string(NeXTPlistString(nextstep: "a")!), value: .array([.null])),
                              NeXTPlistEntry(key: .string(NeXTPlistString(nextstep: "a")!), value: .null)])]),
         "02000000 01000000 | 3c000000 | 07000000 02000000 | 05000000 01000000 61000000 | 05000000 01000000 61000000 | 10000000 04000000 | 02000000 01000000 04000000 08000000 | 08000000")),
]

@Test(arguments: exactRows.indices)
func exactBytes(_ index: Int) throws {
    let row = exactRows[index]
    let (value, text) = row.payload
    let bytes = hex(text)
    #expect(hex(NeXTBinaryPlist.encode(value)) == hex(bytes), sourceLocation: row.location)
    #expect(try NeXTBinaryPlist.decode(bytes) == value, sourceLocation: row.location)
    let prefixed = try NeXTBinaryPlist.decodePrefix(bytes + [0xDE, 0xAD])
    #expect(prefixed.value == value && prefixed.length == bytes.count, sourceLocation: row.location)
    var appended: [UInt8] = [7]
    NeXTBinaryPlist.encode(value, into: &appended)
    #expect(appended == [7] + bytes, sourceLocation: row.location)
}

// MARK: - Errors

private let errorRows: [Row<(String, NeXTPlistError.Code, Int)>] = [
    Row(("", .truncated, 0)),
    Row(("080000", .truncated, 0)),
    Row(("00000000", .unknownTypeCode, 0)),
    Row(("01000000", .unknownTypeCode, 0)),
    Row(("03000000", .unknownTypeCode, 0)),
    Row(("09000000", .unknownTypeCode, 0)),
    Row(("00000008", .unknownTypeCode, 0)), // big-endian 8: the integers are little-endian only
    Row(("04000000", .truncated, 4)),
    Row(("04000000 05000000 0102", .badLength, 4)),
    Row(("05000000 ffffffff", .badLength, 4)),
    Row(("04000000 01000000 01", .truncated, 9)),
    Row(("04000000 01000000 01 0000", .truncated, 9)),
    Row(("06000000 00000080", .unsupported, 4)),
    Row(("02000000", .truncated, 4)),
    Row(("02000000 ffffffff", .badLength, 4)),
    Row(("07000000 02000000 08000000 08000000 08000000 08000000", .badLength, 4)),
    Row(("02000000 01000000 08000000", .badLength, 4)),
    Row(("02000000 02000000 08000000 04000000 08000000 08000000", .lengthMismatch, 8)),
    Row(("02000000 01000000 05000000 08000000 00000000", .lengthMismatch, 8)),
    Row(("02000000 01000000 10000000 08000000", .badLength, 8)),
    Row(("02000000 01000000 04000000 01000000", .unknownTypeCode, 12)),
    Row(("07000000 01000000 08000000 04000000 0a000000", .unknownTypeCode, 16)),
    Row(("08000000 08000000", .trailingBytes, 4)),
    Row(("04000000 00000000 00", .trailingBytes, 8)),
]

@Test(arguments: errorRows.indices)
func errors(_ index: Int) {
    let row = errorRows[index]
    let (text, code, offset) = row.payload
    do {
        let value = try NeXTBinaryPlist.decode(hex(text))
        Issue.record("decoded \(value), expected \(code)", sourceLocation: row.location)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: row.location)
        #expect(error.offset == offset, "\(error)", sourceLocation: row.location)
        #expect(error == NeXTPlistError(code, at: 0, "any reason"), sourceLocation: row.location)
        #expect(!error.reason.isEmpty, sourceLocation: row.location)
    }
}

@Test func nestingIsBounded() throws {
    let deepest = NeXTBinaryPlist.encode(nested(NeXTBinaryPlist.defaultMaximumDepth))
    #expect(try NeXTBinaryPlist.decode(deepest) == nested(NeXTBinaryPlist.defaultMaximumDepth))
    let tooDeep = NeXTBinaryPlist.encode(nested(NeXTBinaryPlist.defaultMaximumDepth + 1))
    #expect(throws: NeXTPlistError(.nestingTooDeep, at: 0, "")) { try NeXTBinaryPlist.decode(tooDeep) }
    #expect(throws: NeXTPlistError(.nestingTooDeep, at: 0, "")) {
        try NeXTBinaryPlist.decode(NeXTBinaryPlist.encode(nested(3)), maximumDepth: 2)
    }
    #expect(try NeXTBinaryPlist.decode(NeXTBinaryPlist.encode(nested(0)), maximumDepth: 0) == .null)
    // A hostile count is refused before anything is allocated for it.
    #expect(throws: NeXTPlistError(.badLength, at: 0, "")) { try NeXTBinaryPlist.decode(hex("02000000 ffffff7f")) }
}

@Test func everyTruncatedPrefixOfAComplexListFails() throws {
    let value: NeXTPlistValue = [
        "NSFontName": "Helvetica",
        "sizes": [.data([1, 2, 3, 4, 5]), .null, .string(NeXTPlistString(nextstep: "Times-Roman")!)],
        "nested": ["x": [[], [:]]],
    ]
    let bytes = NeXTBinaryPlist.encode(value)
    #expect(try NeXTBinaryPlist.decode(bytes) == value)
    for length in 0 ..< bytes.count {
        do {
            _ = try NeXTBinaryPlist.decode(bytes[..<length])
            Issue.record("prefix of \(length) bytes decoded")
        } catch {
            #expect(error.offset <= length, "\(error)")
        }
    }
}

@Test func randomMutationsNeverTrapAndDecodedValuesReencodeExactly() {
    let seed = ProcessInfo.processInfo.environment["NEXTPLIST_SEED"].flatMap(UInt64.init) ?? 0x5EED_2024_0001
    print("NeXTBinaryPlist mutation test seed: \(seed) (set NEXTPLIST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    var decodedCount = 0
    for round in 0 ..< 400 {
        let value = randomValue(&rng)
        let bytes = NeXTBinaryPlist.encode(value)
        #expect((try? NeXTBinaryPlist.decode(bytes)) == value, "seed \(seed) round \(round): clean round trip")
        for _ in 0 ..< 10 {
            var mutated = bytes
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &rng) {
                switch Int.random(in: 0 ..< 4, using: &rng) {
                case 0 where !mutated.isEmpty:
                    mutated[Int.random(in: 0 ..< mutated.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                case 1 where !mutated.isEmpty:
                    mutated.remove(at: Int.random(in: 0 ..< mutated.count, using: &rng))
                case 2:
                    mutated.insert(UInt8.random(in: 0 ... 255, using: &rng), at: Int.random(in: 0 ... mutated.count, using: &rng))
                default:
                    mutated.removeLast(Int.random(in: 0 ... min(4, mutated.count), using: &rng))
                }
            }
            do {
                let decoded = try NeXTBinaryPlist.decode(mutated)
                decodedCount += 1
                // Whatever decodes must encode to the very same bytes.
                #expect(NeXTBinaryPlist.encode(decoded) == mutated, "seed \(seed) round \(round): \(hex(mutated))")
            } catch {
                #expect(error.offset >= 0 && error.offset <= mutated.count, "seed \(seed) round \(round): \(error)")
            }
        }
    }
    print("NeXTBinaryPlist mutation test: \(decodedCount) of 4000 mutants decoded (seed \(seed))")
    #expect(decodedCount > 0, "seed \(seed): no mutant decoded; the property above went untested")
}

// MARK: - Strings and the NeXTSTEP character set

@Test func nextstepCharacterSetIsASCIIBelow0x80AndOneToOneAbove() {
    for byte in UInt8(0) ..< 0x80 {
        #expect(NeXTSTEPCharacterSet.scalar(for: byte) == Unicode.Scalar(byte))
    }
    var seen: Set<Unicode.Scalar> = []
    for byte in UInt8(0x80) ... 0xFD {
        guard let scalar = NeXTSTEPCharacterSet.scalar(for: byte) else {
            Issue.record("byte 0x\(String(byte, radix: 16)) unmapped")
            continue
        }
        #expect(seen.insert(scalar).inserted, "0x\(String(byte, radix: 16)) maps to a character already used")
        #expect(NeXTSTEPCharacterSet.byte(for: scalar) == byte)
    }
    #expect(NeXTSTEPCharacterSet.scalar(for: 0xFE) == nil)
    #expect(NeXTSTEPCharacterSet.scalar(for: 0xFF) == nil)
    let spots: [(UInt8, String)] = [(0x80, "\u{A0}"), (0x81, "À"), (0xA4, "⁄"), (0xA9, "’"), (0xAE, "ﬁ"),
                                    (0xB1, "–"), (0xC1, "ˋ"), (0xD0, "—"), (0xE1, "Æ"), (0xE8, "Ł"),
                                    (0xF5, "ı"), (0xFB, "ß"), (0xFD, "ÿ"), (0x27, "'"), (0x60, "`")]
    for (byte, text) in spots {
        #expect(NeXTSTEPCharacterSet.decode([byte]) == text, "0x\(String(byte, radix: 16))")
    }
    #expect(NeXTSTEPCharacterSet.encode("Ω") == nil)
    #expect(NeXTSTEPCharacterSet.decode([0x41, 0xFE, 0xFF]) == "A\u{FFFD}\u{FFFD}")
}

@Test func stringsKeepTheirBytesWhenTheTextDoesNot() throws {
    // Unassigned NeXTSTEP bytes, an odd UTF-16 byte count, a lone surrogate, no BOM.
    let rows: [(NeXTPlistString, String, NeXTPlistString.ByteOrder?, Bool)] = [
        (NeXTPlistString(encoding: .nextstep, bytes: [0x48, 0xFF]), "H\u{FFFD}", nil, false),
        (NeXTPlistString(encoding: .utf16, bytes: [0xFF, 0xFE, 0x41, 0x00, 0x42]), "A\u{FFFD}", .littleEndian, true),
        (NeXTPlistString(encoding: .utf16, bytes: [0xFE, 0xFF, 0xD8, 0x00]), "\u{FFFD}", .bigEndian, true),
        (NeXTPlistString(encoding: .utf16, bytes: [0x00, 0x41]), "A", .bigEndian, false),
        (NeXTPlistString(encoding: .utf16, bytes: []), "", .bigEndian, false),
    ]
    for (string, text, order, bom) in rows {
        #expect(string.string == text)
        #expect(string.description == text)
        #expect(string.byteOrder == order)
        #expect(string.hasByteOrderMark == bom)
        let bytes = NeXTBinaryPlist.encode(.string(string))
        #expect(try NeXTBinaryPlist.decode(bytes) == .string(string))
    }
    #expect(NeXTPlistString("😀").bytes == [0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE])
    #expect(NeXTPlistString("😀").string == "😀")
    #expect(NeXTPlistString(nextstep: "😀") == nil)
}

@Test func nonZeroPaddingIsKeptAndZeroPaddingIsNot() throws {
    let odd = hex("05000000 01000000 41 010203")
    let value = try NeXTBinaryPlist.decode(odd)
    #expect(value == .string(NeXTPlistString(encoding: .nextstep, bytes: [0x41]), padding: [1, 2, 3]))
    #expect(value.stringValue == "A")
    #expect(NeXTBinaryPlist.encode(value) == odd)
    #expect(try NeXTBinaryPlist.decode(hex("05000000 01000000 41 000000")) == .string(NeXTPlistString(nextstep: "A")!))
    // Padding of the wrong size is ignored by the writer, which then writes zeros.
    #expect(NeXTBinaryPlist.encode(.data([1], padding: [9])) == hex("04000000 01000000 01 000000"))
}

// MARK: - Accessors

@Test func accessorsAndLiterals() {
    let value: NeXTPlistValue = ["NSFontName": "Helvetica", "NSFontName": "Courier", "list": ["a", .null], "raw": .data([1])]
    #expect(value["NSFontName"]?.stringValue == "Helvetica")
    #expect(value.dictionaryEntries?.count == 4)
    #expect(value["missing"] == nil)
    #expect(value["list"]?.arrayValue == ["a", .null])
    #expect(value["list"]?.arrayValue?[1].isNull == true)
    #expect(value["raw"]?.dataValue == [1])
    #expect(value["raw"]?.stringValue == nil)
    #expect(NeXTPlistValue.null["x"] == nil)
    #expect(value.typeCode == .dictionary)
    #expect(NeXTPlistValue("x").typeCode == .unicodeString)
    #expect(NeXTPlistValue.string(NeXTPlistString(nextstep: "x")!).typeCode == .nextstepString)
    #expect(NeXTPlistValue("x").plistString?.byteOrder == .littleEndian)
    #expect(NeXTPlistTypeCode.allCases.map(\.rawValue) == [2, 4, 5, 6, 7, 8])
}
