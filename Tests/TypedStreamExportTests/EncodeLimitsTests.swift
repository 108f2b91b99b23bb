import Testing
import TypedStream
import TypedStreamExport

/// One set of limits for writing and reading: for each ``DecodingLimits`` field, lowered, the
/// smallest lossless JSON past it is refused by the importer with the JSON path of the value
/// that passes it, and by ``ArchiveWriter`` (given a graph imported without the limit) with the
/// object it was writing (its number in the archive, as `decode` shows it); the same JSON at
/// the limit is written, and what is written reads back with the same limits (the checked
/// reader of `decode`, and `verify`'s round trips, identical).
@Suite("encode refuses what readers refuse")
struct EncodeLimitsTests {
    static func document(_ groups: String) -> [UInt8] {
        Array(("{\"format\": \"typedstream-json\", \"formatVersion\": 1, \"header\": {\"streamerVersion\": 4, \"byteOrder\": \"little\", \"systemVersion\": 1000}, \"groups\": [" + groups + "]}").utf8)
    }

    static func limits(_ change: (inout DecodingLimits) -> Void) -> DecodingLimits {
        var limits = DecodingLimits()
        change(&limits)
        return limits
    }

    /// `count` objects of class A, each the only content of the one before.
    static func nestedObjects(_ count: Int) -> String {
        var text = ""
        for level in 0..<count {
            let chain = level == 0 ? #"[{"id": 1, "name": "A", "version": 0}]"# : #"[{"ref": 1}]"#
            text += #"{"type": "@", "values": [{"object": \#(100 + level), "class": \#(chain), "groups": ["#
        }
        return text + String(repeating: "]}]}", count: count)
    }

    /// `names` as one object's class chain, then `more` objects of new classes whose
    /// superclass is the first class of `names` (chains one longer).
    static func classChain(_ names: [String], more: [String] = []) -> String {
        let links = names.enumerated().map { #"{"id": \#(10 + $0.offset), "name": "\#($0.element)", "version": 0}"# }
        var groups = [#"{"type": "@", "values": [{"object": 1, "class": [\#(links.joined(separator: ", "))], "groups": []}]}"#]
        for (n, name) in more.enumerated() {
            groups.append(#"{"type": "@", "values": [{"object": \#(2 + n), "class": [{"id": \#(100 + n), "name": "\#(name)", "version": 0}, {"ref": 10}], "groups": []}]}"#)
        }
        return groups.joined(separator: ", ")
    }

    /// The importer refuses `json` under `limits` with `code` at `path`.
    static func expectImportRefused(_ json: [UInt8], _ limits: DecodingLimits, _ code: ArchiveJSONError.Code = .limitExceeded,
                                    at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try ArchiveJSON.decode(json, options: .init(limits: limits))
            Issue.record("imported without error; expected \(code) at \(path)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code && error.path == path, "got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The writer, given `json` imported with the default limits, refuses it under `limits`
    /// with `limitExceeded` and a reason that starts with `place`.
    static func expectWriteRefused(_ json: [UInt8], _ limits: DecodingLimits, place: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let archive = try ArchiveJSON.decode(json)
        do {
            _ = try ArchiveWriter.write(archive, limits: limits)
            Issue.record("written without error; expected limitExceeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .limitExceeded && error.reason.hasPrefix(place), "got \(error.code): \(error.reason)", sourceLocation: sourceLocation)
        }
    }

    /// `json` at the limit: imported and written under `limits`, read back by the checked
    /// reader (what `decode` reads with) and by the graph reader under the same limits, and
    /// both give the same bytes back (what `verify` checks).
    static func expectRoundTrip(_ json: [UInt8], _ limits: DecodingLimits, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try ArchiveWriter.write(ArchiveJSON.decode(json, options: .init(limits: limits)), limits: limits)
        #expect(try ArchiveIndex(bytes: bytes, limits: limits).write() == bytes, sourceLocation: sourceLocation)
        #expect(try ArchiveWriter.write(ArchiveReader.read(bytes, limits: limits), limits: limits) == bytes, sourceLocation: sourceLocation)
    }

    @Test func maximumNesting() throws {
        let limits = Self.limits { $0.maximumNesting = 3 }
        try Self.expectRoundTrip(Self.document(Self.nestedObjects(3)), limits)
        let deeper = Self.document(Self.nestedObjects(4))
        Self.expectImportRefused(deeper, limits, at: "groups[0].values[0].groups[0].values[0].groups[0].values[0].groups[0].values[0]")
        try Self.expectWriteRefused(deeper, limits, place: "in object #3: nesting deeper than 3")
        // Arrays and structs count too.
        let mixed = Self.document(#"{"type": "[1{?=[1i]}]", "values": [[[[7]]]]}"#)
        try Self.expectRoundTrip(mixed, limits)
        Self.expectImportRefused(mixed, Self.limits { $0.maximumNesting = 2 }, at: "groups[0].values[0][0][0]")
        try Self.expectWriteRefused(mixed, Self.limits { $0.maximumNesting = 2 }, place: "at the top level: nesting deeper than 2")
    }

    @Test func maximumTypeNesting() throws {
        let limits = Self.limits { $0.maximumTypeNesting = 3 }
        try Self.expectRoundTrip(Self.document(#"{"type": "[1[1i]]", "values": [[[5]]]}"#), limits)
        let deeper = Self.document(#"{"type": "i", "values": [1]}, {"type": "[1[1[1i]]]", "values": [[[[5]]]]}"#)
        Self.expectImportRefused(deeper, limits, .badTypeString, at: "groups[1].type")
        try Self.expectWriteRefused(deeper, limits, place: "at the top level: type string \"[1[1[1i]]]\" does not parse within 3 levels")
    }

    @Test func maximumObjects() throws {
        let limits = Self.limits { $0.maximumObjects = 2 }
        try Self.expectRoundTrip(Self.document(#"{"type": "**", "values": [{"cstring": 1, "text": "a"}, {"cstring": 2, "text": "b"}]}"#), limits)
        let three = Self.document(#"{"type": "***", "values": [{"cstring": 1, "text": "a"}, {"cstring": 2, "text": "b"}, {"cstring": 3, "text": "c"}]}"#)
        Self.expectImportRefused(three, limits, at: "groups[0].values[2]")
        try Self.expectWriteRefused(three, limits, place: "at the top level: more than 2 objects, classes and C strings")
        // An object and its class take two entries: the third is the next object's.
        let objects = Self.document(Self.nestedObjects(2))
        Self.expectImportRefused(objects, limits, at: "groups[0].values[0].groups[0].values[0]")
        try Self.expectWriteRefused(objects, limits, place: "in object #0: more than 2 objects")
    }

    @Test func maximumSharedStrings() throws {
        let limits = Self.limits { $0.maximumSharedStrings = 2 }
        try Self.expectRoundTrip(Self.document(#"{"type": "i", "values": [1]}, {"type": "c", "values": [65]}, {"type": "i", "values": [2]}"#), limits)
        let three = Self.document(#"{"type": "i", "values": [1]}, {"type": "c", "values": [65]}, {"type": "%", "values": ["i"]}, {"type": "%", "values": ["new"]}"#)
        Self.expectImportRefused(three, limits, at: "groups[2]")
        try Self.expectWriteRefused(three, limits, place: "at the top level: more than 2 shared strings")
    }

    @Test func maximumEmptyElementArray() throws {
        let limits = Self.limits { $0.maximumEmptyElementArray = 3 }
        try Self.expectRoundTrip(Self.document(#"{"type": "[3!]", "values": [[null, null, null]]}"#), limits)
        // One array of more elements that take no bytes (the shape of [70000!]).
        let four = Self.document(#"{"type": "[4!]", "values": [[null, null, null, null]]}"#)
        Self.expectImportRefused(four, limits, at: "groups[0].values[0]")
        try Self.expectWriteRefused(four, limits, place: "at the top level: an array of 4 elements that take no bytes, more than 3")
        // Counted over the whole archive (the shape of more than 65 536 empty values).
        let twice = Self.document(#"{"type": "[2!]", "values": [[null, null]]}, {"type": "[2!]", "values": [[null, null]]}"#)
        Self.expectImportRefused(twice, limits, at: "groups[1].values[0][1]")
        try Self.expectWriteRefused(twice, limits, place: "at the top level: more than 3 values that take no bytes")
        // Empty structs, arrays of no elements and empty byte arrays take no bytes either,
        // inside objects too.
        try Self.expectRoundTrip(Self.document(#"{"type": "{?=}[0i][0c]", "values": [[], [], ""]}"#), limits)
        let inObject = Self.document(#"{"type": "@", "values": [{"object": 1, "class": [{"id": 2, "name": "A", "version": 0}], "groups": [{"type": "{?=}[0i][0c]!", "values": [[], [], "", null]}]}]}"#)
        Self.expectImportRefused(inObject, limits, at: "groups[0].values[0].groups[0].values[3]")
        try Self.expectWriteRefused(inObject, limits, place: "in object #0: more than 3 values")
    }

    @Test func maximumClassNameLength() throws {
        let limits = Self.limits { $0.maximumClassNameLength = 5 }
        try Self.expectRoundTrip(Self.document(Self.classChain(["ABCDE"])), limits)
        let longer = Self.document(Self.classChain(["ABCDEF"]))
        Self.expectImportRefused(longer, limits, at: "groups[0].values[0].class[0].name")
        try Self.expectWriteRefused(longer, limits, place: "in object #0: a class name of 6 bytes, longer than 5")
    }

    @Test func maximumClassChainLength() throws {
        let limits = Self.limits { $0.maximumClassChainLength = 2 }
        try Self.expectRoundTrip(Self.document(Self.classChain(["A", "B"])), limits)
        let three = Self.document(Self.classChain(["A", "B", "C"]))
        Self.expectImportRefused(three, limits, at: "groups[0].values[0].class[2]")
        try Self.expectWriteRefused(three, limits, place: "in object #0: a class chain longer than 2")
        // New classes and the chain of the class they continue count together.
        let continued = Self.document(Self.classChain(["A"], more: ["B", "C"]))
        try Self.expectRoundTrip(continued, limits)
        let onLonger = Self.document(Self.classChain(["A", "B"], more: ["C"]))
        Self.expectImportRefused(onLonger, limits, at: "groups[1].values[0].class[1]")
        try Self.expectWriteRefused(onLonger, limits, place: "in object #3: a class chain longer than 2")
    }

    @Test func maximumInputSize() throws {
        // The size is the writer's to check (the importer cannot know it): 16 bytes of header,
        // 3 of type string and 1 + 10 of counted bytes.
        let json = Self.document(#"{"type": "+", "values": ["0123456789"]}"#)
        try Self.expectRoundTrip(json, Self.limits { $0.maximumInputSize = 30 })
        #expect(throws: WireError(.limitExceeded, at: 30, "")) { try ArchiveWriter.write(ArchiveJSON.decode(json), limits: Self.limits { $0.maximumInputSize = 29 }) }
    }

    /// Every field is covered above: a new field must be added there.
    @Test func everyFieldIsCovered() {
        #expect(Mirror(reflecting: DecodingLimits()).children.compactMap(\.label) == [
            "maximumNesting", "maximumTypeNesting", "maximumObjects", "maximumSharedStrings", "maximumEmptyElementArray",
            "maximumClassNameLength", "maximumClassChainLength", "maximumInputSize",
        ])
    }

    /// The two shapes `encode` wrote before the writer counted as readers do, at the default
    /// limits: `[70000!]`, and 70 000 empty values in groups of ten.
    @Test func theDefaultLimitsRefuseTheAdversarialShapes() {
        let nulls = Array(repeating: "null", count: 70_000).joined(separator: ", ")
        Self.expectImportRefused(Self.document(#"{"type": "[70000!]", "values": [[\#(nulls)]]}"#), .default, at: "groups[0].values[0]")
        let ten = #"{"type": "{?=!!!!!!!!!!}", "values": [[null, null, null, null, null, null, null, null, null, null]]}"#
        Self.expectImportRefused(Self.document(Array(repeating: ten, count: 7_000).joined(separator: ", ")), .default, at: "groups[6553].values[0][6]")
    }

    /// Errors quote at most an excerpt of what they show of the input.
    @Test func errorsQuoteAnExcerpt() {
        let digits = String(repeating: "9", count: 100_000)
        do {
            _ = try ArchiveJSON.decode(Self.document(#"{"type": "i", "values": [\#(digits)]}"#))
            Issue.record("imported")
        } catch {
            #expect(error.description == #"groups[0].values[0]: expected an integer for type "i", found "9999999999999999999999999999999999999999"…"#)
        }
        let name = String(repeating: "k", count: 100_000)
        do {
            _ = try ArchiveJSON.decode(Self.document(#"{"type": "i", "values": [1], "\#(name)": 1}"#))
            Issue.record("imported")
        } catch {
            #expect(error.description.count < 300, "\(error.description.count) characters")
            #expect(error.description.hasPrefix(#"groups[0]["kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"…]: unknown member "kkkk"#), "\(error.description.prefix(200))")
        }
        let typeString = "{?=" + String(repeating: "i", count: 100_000) + "}"
        do {
            _ = try ArchiveJSON.decode(Self.document(#"{"type": "\#(typeString)", "values": [1]}"#))
            Issue.record("imported")
        } catch {
            #expect(error.description == #"groups[0].values[0]: expected an array of the 100000 members of "{?=iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii"…, found a number"#, "\(error.description.prefix(300))")
        }
        #expect(TextExcerpt.quoted("a\"b\n\u{1}") == #""a\"b\n\u{1}""#)
        #expect(TextExcerpt.quoted(String(repeating: "é", count: 50)) == "\"" + String(repeating: "é", count: 40) + "\"…")
        #expect(TextExcerpt.quoted([0x41, 0xFF, 0x42] as [UInt8]) == #""A\xffB""#)
        #expect(TextExcerpt.number("12345") == "12345")
    }
}
