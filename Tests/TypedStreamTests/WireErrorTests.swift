import Testing
import TypedStream

/// Malformed input with the error code and byte offset it must give.
struct WireErrorRow: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let code: WireError.Code
    let offset: Int
    let note: String
    let location: SourceLocation

    init(_ bytes: [UInt8], _ code: WireError.Code, at offset: Int, _ note: String, _ location: SourceLocation = #_sourceLocation) {
        self.bytes = bytes
        self.code = code
        self.offset = offset
        self.note = note
        self.location = location
    }

    var testDescription: String { note }
}

/// The little-endian v4 header is 16 bytes; a one-letter group type string takes 3 more.
private let h = headerBytes()
private let afterHeader = h.count
/// Header, a literal group type string `type`, then `value`.
private func group(_ type: String, _ value: [UInt8]) -> [UInt8] { h + literalBytes(type) + value }
/// The offset of the first value byte after `group(type, …)`.
private func valueOffset(_ type: String) -> Int { afterHeader + 2 + type.utf8.count }

@Suite("Wire errors: code and offset")
struct WireErrorTests {
    static let headerRows: [WireErrorRow] = [
        WireErrorRow([], .empty, at: 0, "empty input"),
        WireErrorRow([0x00, 0x01, 0x02], .badHeader, at: 0, "not a typedstream"),
        WireErrorRow([0x04, 0x0C] + Array("streamtyped".utf8) + [0x00], .badHeader, at: 1, "signature length 12"),
        WireErrorRow([0x04, 0x85], .badHeader, at: 1, "signature length nil"),
        WireErrorRow([0x04, 0x0B] + Array("streamtypes".utf8) + [0x00], .badHeader, at: 2, "wrong signature"),
        WireErrorRow([0x04], .truncated, at: 1, "only the version"),
        WireErrorRow([0x04, 0x0B] + Array("stream".utf8), .truncated, at: 2, "half a signature"),
        WireErrorRow([0x04, 0x0B] + Array("streamtyped".utf8), .truncated, at: 13, "no system version"),
        WireErrorRow([0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8], .truncated, at: 14, "half a system version"),
        WireErrorRow([0x04, 0x0B] + Array("streamtyped".utf8) + [0x84], .unexpectedHeadByte, at: 13, "system version 0x84"),
        WireErrorRow([0x04, 0x0B] + Array("streamtyped".utf8) + [0x87] + Array(repeating: 0, count: 8), .unexpectedHeadByte, at: 13, "system version int64"),
        WireErrorRow([0x05, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03], .unsupportedVersion, at: 0, "streamer version 5"),
        WireErrorRow([0x02, 0x0B] + Array("typedstream".utf8) + [0x00], .unsupportedVersion, at: 0, "streamer version 2"),
        WireErrorRow(Array("GNUstep archive00002c25:0000001c:00000080:00000000:".utf8), .foreignGNUstep, at: 0, "GNUstep archive"),
        WireErrorRow(Array("bplist00".utf8) + [0xD0, 0x08], .foreignKeyedArchive, at: 0, "bplist00"),
        WireErrorRow(Array("<?xml version=\"1.0\"?>".utf8), .foreignKeyedArchive, at: 0, "XML plist"),
        WireErrorRow([0xEF, 0xBB, 0xBF, 0x0A] + Array("<plist version=\"1.0\">".utf8), .foreignKeyedArchive, at: 0, "XML plist after a byte-order mark"),
        WireErrorRow(Array("bplist15".utf8) + [0x00], .foreignKeyedArchive, at: 0, "bplist of another version"),
    ]

    static let integerRows: [WireErrorRow] = {
        var rows: [WireErrorRow] = []
        for tag in [0x80] + Array(0x88...0x91) {
            rows.append(WireErrorRow(group("i", [UInt8(tag)]), .unexpectedHeadByte, at: valueOffset("i"), "reserved tag 0x\(String(tag, radix: 16)) as i"))
        }
        for tag: UInt8 in [0x83, 0x84, 0x85, 0x86] {
            rows.append(WireErrorRow(group("I", [tag]), .unexpectedHeadByte, at: valueOffset("I"), "tag 0x\(String(tag, radix: 16)) as I"))
        }
        rows.append(WireErrorRow(group("f", [0x84]), .unexpectedHeadByte, at: valueOffset("f"), "0x84 as f"))
        rows.append(WireErrorRow(group("d", [0x80]), .unexpectedHeadByte, at: valueOffset("d"), "0x80 as d"))
        rows.append(WireErrorRow(group("s", [0x82, 0, 0, 0, 0]), .unexpectedHeadByte, at: valueOffset("s"), "int32 as s"))
        rows.append(WireErrorRow(group("S", [0x87] + Array(repeating: 0, count: 8)), .unexpectedHeadByte, at: valueOffset("S"), "int64 as S"))
        rows.append(WireErrorRow(group("s", [0x83, 0, 0, 0, 0]), .unexpectedHeadByte, at: valueOffset("s"), "real tag as s"))
        rows.append(WireErrorRow(group("@", [0x84, 0x84] + literalBytes("A") + [0x88]), .unexpectedHeadByte, at: valueOffset("@") + 5, "class version 0x88"))
        rows.append(WireErrorRow(group("@", [0x84, 0x84] + literalBytes("A") + [0x87, 0, 0, 0, 0, 0, 0, 0, 0]), .unexpectedHeadByte, at: valueOffset("@") + 5, "class version int64"))
        rows.append(WireErrorRow(group("+", [0x80]), .unexpectedHeadByte, at: valueOffset("+"), "reserved tag as a length"))
        rows.append(WireErrorRow(h + [0x80], .unexpectedHeadByte, at: afterHeader, "reserved tag as a type string"))
        rows.append(WireErrorRow(h + [0x85], .unexpectedHeadByte, at: afterHeader, "nil type string"))
        rows.append(WireErrorRow(h + [0x86], .unexpectedHeadByte, at: afterHeader, "end of object at top level"))
        rows.append(WireErrorRow(h + [0x83, 0, 0, 0, 0], .unexpectedHeadByte, at: afterHeader, "real tag as a type string"))
        rows.append(WireErrorRow(group("@", [0x84, 0x84, 0x85]), .unexpectedHeadByte, at: valueOffset("@") + 2, "nil class name"))
        rows.append(WireErrorRow(group("*", [0x84, 0x85]), .unexpectedHeadByte, at: valueOffset("*") + 1, "nil C-string text"))
        rows.append(WireErrorRow(group("@", [0x86]), .unexpectedHeadByte, at: valueOffset("@"), "end of object as an object"))
        return rows
    }()

    static let referenceRows: [WireErrorRow] = [
        WireErrorRow(h + [0x92], .badReference, at: afterHeader, "type string refers to an undefined shared string"),
        WireErrorRow(h + [0x81, 0x00, 0x01], .badReference, at: afterHeader, "multi-byte reference to an undefined shared string"),
        WireErrorRow(group("%", [0x93]), .badReference, at: valueOffset("%"), "atom refers to shared string #1 of 1"),
        WireErrorRow(group("%", [0x91]), .unexpectedHeadByte, at: valueOffset("%"), "label -111 is a reserved tag"),
        WireErrorRow(group("@", [0x92]), .badReference, at: valueOffset("@"), "object reference before any object"),
        WireErrorRow(group("*", [0x92]), .badReference, at: valueOffset("*"), "C-string reference before any slot"),
        WireErrorRow(group("#", [0x92]), .badReference, at: valueOffset("#"), "class reference before any slot"),
        WireErrorRow(group("@", [0x84, 0x92]), .referenceKindMismatch, at: valueOffset("@") + 1, "class chain refers to an object"),
        WireErrorRow(group("#*", [0x84] + literalBytes("A") + [0x00, 0x85, 0x92]), .referenceKindMismatch, at: valueOffset("#*") + 6,
                     "C-string reference to a class slot"),
        WireErrorRow(group("*#", [0x84] + literalBytes("t") + [0x92]), .referenceKindMismatch, at: valueOffset("*#") + 4,
                     "class reference to a C-string slot"),
        WireErrorRow(group("*@", [0x84] + literalBytes("t") + [0x92]), .referenceKindMismatch, at: valueOffset("*@") + 4,
                     "object reference to a C-string slot"),
    ]

    static let lengthRows: [WireErrorRow] = [
        WireErrorRow(group("+", [0xFF]), .badLength, at: valueOffset("+"), "negative length of +"),
        WireErrorRow(group("+", [0x81, 0x00, 0x80]), .badLength, at: valueOffset("+"), "negative int16 length"),
        WireErrorRow(group("+", [0x0A, 0x61, 0x62, 0x63]), .badLength, at: valueOffset("+"), "length 10, 3 bytes remain"),
        WireErrorRow(group("+", [0x82, 0xFF, 0xFF, 0xFF, 0x7F]), .badLength, at: valueOffset("+"), "length 2^31-1"),
        WireErrorRow(h + [0x84, 0xFE], .badLength, at: afterHeader + 1, "negative shared-string length"),
        WireErrorRow(h + [0x84, 0x81, 0x00, 0x10, 0x69], .badLength, at: afterHeader + 1, "shared string of 4096 bytes, 1 remains"),
        WireErrorRow(group("%", [0x84, 0x05, 0x61]), .badLength, at: valueOffset("%") + 1, "atom longer than the data"),
        WireErrorRow(group("[100c]", [1, 2, 3]), .badLength, at: valueOffset("[100c]"), "byte array longer than the data"),
        WireErrorRow(group("[100i]", [1, 2, 3]), .badLength, at: valueOffset("[100i]"), "int array needs 100 bytes"),
        WireErrorRow(group("[2147483647{?=ii}]", [1, 2, 3]), .badLength, at: valueOffset("[2147483647{?=ii}]"), "struct array needs 2^32 bytes"),
        WireErrorRow(group("[1000000!]", []), .limitExceeded, at: valueOffset("[1000000!]"), "a million elements that take no bytes"),
    ]

    static let typeStringRows: [WireErrorRow] = [
        WireErrorRow(group("{", []), .badTypeString, at: afterHeader, "unclosed struct"),
        WireErrorRow(group("[12", []), .badTypeString, at: afterHeader, "unclosed array"),
        WireErrorRow(group("x", []), .badTypeString, at: afterHeader, "unknown letter"),
        WireErrorRow(group(String(repeating: "{", count: 100), []), .badTypeString, at: afterHeader, "too deep"),
        WireErrorRow(group("^i", [0x00]), .badTypeString, at: afterHeader, "pointer"),
        WireErrorRow(group("b3", [0x00]), .badTypeString, at: afterHeader, "bitfield"),
        WireErrorRow(group("v", []), .badTypeString, at: afterHeader, "void"),
        WireErrorRow(group("?", [0x00]), .badTypeString, at: afterHeader, "unknown type"),
        WireErrorRow(group("i^v", [0x00, 0x00]), .badTypeString, at: afterHeader, "pointer after a good type"),
        WireErrorRow(group("{?=i^v}", [0x00, 0x00]), .badTypeString, at: afterHeader, "pointer inside a struct"),
        WireErrorRow(group("[2b1]", [0x00]), .badTypeString, at: afterHeader, "bitfield array"),
        WireErrorRow(group("i", [0x01]) + literalBytes("{") , .badTypeString, at: afterHeader + 4, "second group unparsable"),
        WireErrorRow(group("*", [0x84] + literalBytes("^v")) + [0x93, 0x00], .badTypeString, at: valueOffset("*") + 5,
                     "C-string text '^v' reused as a group type"),
    ]

    static let truncationRows: [WireErrorRow] = [
        WireErrorRow(group("i", []), .truncated, at: valueOffset("i"), "no value"),
        WireErrorRow(group("i", [0x81, 0x00]), .truncated, at: valueOffset("i") + 1, "half an int16"),
        WireErrorRow(group("i", [0x82, 0x00, 0x00]), .truncated, at: valueOffset("i") + 1, "half an int32"),
        WireErrorRow(group("q", [0x87, 0x00]), .truncated, at: valueOffset("q") + 1, "half an int64"),
        WireErrorRow(group("f", [0x83, 0x00, 0x00]), .truncated, at: valueOffset("f") + 1, "half a float"),
        WireErrorRow(group("d", [0x83, 0x00, 0x00, 0x00, 0x00]), .truncated, at: valueOffset("d") + 1, "half a double"),
        WireErrorRow(group("(u=ic)", [0x01, 0x02]), .truncated, at: valueOffset("(u=ic)"), "half a union"),
        WireErrorRow(group("@", [0x84]), .truncated, at: valueOffset("@") + 1, "object without a class"),
        WireErrorRow(group("@", [0x84, 0x84] + literalBytes("A")), .truncated, at: valueOffset("@") + 5, "class without a version"),
        WireErrorRow(group("@", [0x84, 0x84] + literalBytes("A") + [0x00]), .truncated, at: valueOffset("@") + 6, "chain without its end"),
        WireErrorRow(group("@", [0x84, 0x84] + literalBytes("A") + [0x00, 0x85]), .truncated, at: valueOffset("@") + 7, "object without end"),
        WireErrorRow(group("ii", [0x01]), .truncated, at: valueOffset("ii") + 1, "second value missing"),
        WireErrorRow(group("{?=ii}", [0x01]), .truncated, at: valueOffset("{?=ii}") + 1, "struct cut short"),
        WireErrorRow(h + [0x84], .truncated, at: afterHeader + 1, "type string without length"),
        WireErrorRow(group("*", [0x84]), .truncated, at: valueOffset("*") + 1, "C string without text"),
    ]

    @Test("Headers and foreign formats", arguments: headerRows)
    func header(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("Tags where an integer is expected", arguments: integerRows)
    func tags(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("References to undefined or wrong-kind entries", arguments: referenceRows)
    func references(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("Negative and oversized lengths and counts", arguments: lengthRows)
    func lengths(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("Type strings that do not parse or cannot be archived", arguments: typeStringRows)
    func typeStrings(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("Truncated items", arguments: truncationRows)
    func truncation(_ row: WireErrorRow) { expectWireError(row.bytes, row.code, at: row.offset, sourceLocation: row.location) }

    @Test("Limits: nesting, object table, shared strings, input size")
    func limits() {
        var nesting = DecodingLimits()
        nesting.maximumNesting = 2
        // Three nested objects: the third push exceeds the limit at its 0x84.
        let chain = [0x84, 0x84] + literalBytes("A") + [0x00, 0x85]
        let three = group("@", chain + [0x92, 0x84, 0x93, 0x92, 0x84, 0x93, 0x86, 0x86, 0x86])
        expectWireError(three, .limitExceeded, at: valueOffset("@") + chain.count + 4, limits: nesting)
        expectWireError(group("{?={?={?=i}}}", [0x00]), .limitExceeded, at: valueOffset("{?={?={?=i}}}"), limits: nesting)

        var objects = DecodingLimits()
        objects.maximumObjects = 1
        expectWireError(three, .limitExceeded, at: valueOffset("@") + 1, limits: objects)

        var strings = DecodingLimits()
        strings.maximumSharedStrings = 1
        expectWireError(group("%", literalBytes("x")), .limitExceeded, at: valueOffset("%"), limits: strings)

        var typeDepth = DecodingLimits()
        typeDepth.maximumTypeNesting = 2
        expectWireError(group("{?={?={?=i}}}", [0x00]), .badTypeString, at: afterHeader, limits: typeDepth)

        var size = DecodingLimits()
        size.maximumInputSize = 10
        expectWireError(h, .limitExceeded, at: 0, limits: size)
    }

    @Test("Errors compare by code and describe their offset")
    func equality() {
        let a = WireError(.truncated, at: 3, "a")
        #expect(a == WireError(.truncated, at: 9, "b"))
        #expect(a != WireError(.badLength, at: 3, "a"))
        #expect(a.description == "offset 0x3 (3): a")
        #expect(Set(WireError.Code.allCases.map { WireError($0, at: 0, "") }).count == WireError.Code.allCases.count)
    }
}
