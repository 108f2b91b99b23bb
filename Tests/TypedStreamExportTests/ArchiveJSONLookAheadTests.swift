import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// The token encoder lays out a container by tokens that come long after it opens (the first new
/// object inside, or its end): what it writes from the reader's walk is what the graph encoder
/// writes, for containers far longer than the tokens it keeps at first.
@Suite struct ArchiveJSONLookAheadTests {
    /// A document whose one group holds an array of `count` values of `@`: nils, then (when
    /// `objectLast`) a new object as the last element, then a second group of one `i`.
    static func document(count: Int, objectLast: Bool, type: String = "[%d@]") -> String {
        var values = Array(repeating: "null", count: count)
        if objectLast {
            values[count - 1] = #"{"object": 0, "class": [{"id": 1, "name": "NSObject", "version": 0}], "groups": []}"#
        }
        let typeString = type.replacing("%d", with: String(count))
        return #"""
        {"format": "typedstream-json", "formatVersion": 1, "header": {"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}, "groups": [
          {"type": "\#(typeString)", "values": [[\#(values.joined(separator: ", "))]]},
          {"type": "i", "values": [5]}
        ]}
        """#
    }

    static func tokenText(_ bytes: [UInt8], pretty: Bool) throws -> [UInt8] {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture, capacity: 300)
        try ArchiveJSON.write(ArchiveIndex(bytes: bytes), options: .init(pretty: pretty), to: &out)
        out.flush()
        return capture.bytes
    }

    @Test(arguments: [1, 63, 64, 65, 5000, 20000])
    func longArraysAreLaidOutAsTheGraphEncoderLaysThemOut(count: Int) throws {
        for objectLast in [false, true] {
            let bytes = try ArchiveWriter.write(ArchiveJSON.decode(Array(Self.document(count: count, objectLast: objectLast).utf8)))
            let graph = try ArchiveReader.read(bytes)
            for pretty in [true, false] {
                let expected = try ArchiveJSON.encode(graph, options: .init(pretty: pretty))
                #expect(try Self.tokenText(bytes, pretty: pretty) == expected, "count \(count), object last \(objectLast), pretty \(pretty)")
            }
            // The array's layout follows whether an object is in it: one line per element.
            let pretty = String(decoding: try Self.tokenText(bytes, pretty: true), as: UTF8.self)
            #expect(pretty.contains("null,\n") == (objectLast && count > 1), "count \(count), object last \(objectLast)")
        }
    }

    /// The same inside a struct holding the array, so that the look-ahead passes nested openings.
    @Test func aStructAroundALongArrayIsLaidOutTheSameWay() throws {
        for objectLast in [false, true] {
            let json = Self.document(count: 3000, objectLast: objectLast, type: "{s=[%d@]}").replacing("\"values\": [[", with: "\"values\": [[[").replacing("]]},\n  {\"type\": \"i\"", with: "]]]},\n  {\"type\": \"i\"")
            let bytes = try ArchiveWriter.write(ArchiveJSON.decode(Array(json.utf8)))
            let graph = try ArchiveReader.read(bytes)
            #expect(try Self.tokenText(bytes, pretty: true) == ArchiveJSON.encode(graph, options: .init(pretty: true)), "object last \(objectLast)")
        }
    }
}
