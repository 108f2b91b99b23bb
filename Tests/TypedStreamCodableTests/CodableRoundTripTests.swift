import Testing
import TypedStream
import TypedStreamCodable

struct Rect: Codable, Equatable, ObjCValueConvertible {
    var x: Float, y: Float, width: Float, height: Float
    static let objCType = "{?=ffff}"
    init(x: Float, y: Float, width: Float, height: Float) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
    init(archivedValue: ArchivedValue) throws(CoderError) {
        let m = try archivedValue.members(4)
        (x, y, width, height) = (try Float(archivedValue: m[0]), try Float(archivedValue: m[1]), try Float(archivedValue: m[2]), try Float(archivedValue: m[3]))
    }
    var archivedValue: ArchivedValue { .structure([x, y, width, height].map(\.archivedValue)) }
}

struct Record: Codable, Equatable, TypedStreamRecord {
    static let archiveClassName = "Model"
    var name: String?
    var type: String?
    var rect: Rect
    var flag: UInt32
    var kind: Int32
    var para: Int32
}

struct Everything: Codable, Equatable {
    struct Inner: Codable, Equatable { var label: String; var values: [Int32] }
    var int: Int
    var uint: UInt
    var small: Int8
    var byte: UInt8
    var flag: Bool
    var short: Int16
    var ushort: UInt16
    var float: Float
    var double: Double
    var text: String
    var missing: String?
    var present: Int32?
    var list: [String]
    var nested: Inner
    var nestedList: [Inner]
    var dictionary: [String: Int32]
}

struct CodableRoundTripTests {
    @Test func everythingRoundTrips() throws {
        let value = Everything(int: -9_000_000_000, uint: 42, small: -3, byte: 250, flag: true, short: -300, ushort: 65535,
                               float: 1.25, double: 0.1, text: "héllo 👋", missing: nil, present: 7,
                               list: ["a", "b"], nested: .init(label: "in", values: [1, 2, 300]),
                               nestedList: [.init(label: "x", values: []), .init(label: "y", values: [-1])],
                               dictionary: ["one": 1])
        let bytes = try TypedStreamEncoder().encode(value)
        let back = try TypedStreamDecoder().decode(Everything.self, from: bytes)
        #expect(back == value)
        // The archive is well-formed and re-encodes identically at the graph level.
        #expect(try ArchiveWriter.write(ArchiveReader.read(bytes)) == bytes)
    }

    /// A record array encodes to exactly the bytes an Objective-C `NSArray` of `Model` objects
    /// would: the groups `@ @ {?=ffff} I i i` per record, in field order.
    @Test func recordArrayHasExactBytes() throws {
        let records = [Record(name: "a", type: nil, rect: Rect(x: 0, y: 0, width: 1.5, height: 2), flag: 1, kind: -1, para: 1000)]
        let bytes = try TypedStreamEncoder().encode(records)
        var expected: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        expected += [0x84, 0x01, 0x40]                                        // "@" (ss#0)
        expected += [0x84, 0x84, 0x84, 0x07] + Array("NSArray".utf8) + [0x00] // obj#0, class NSArray (obj#1, ss#1)
        expected += [0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00, 0x85] // NSObject (obj#2, ss#2), nil
        expected += [0x84, 0x01, 0x69, 0x01]                                  // "i" (ss#3) count 1
        expected += [0x92, 0x84, 0x84, 0x84, 0x05] + Array("Model".utf8) + [0x00, 0x94] // "@", obj#3, class Model (obj#4, ss#4) : NSObject
        expected += [0x92, 0x84, 0x84, 0x84, 0x08] + Array("NSString".utf8) + [0x01, 0x94] // name: obj#5, class NSString v1 (obj#6, ss#5)
        expected += [0x84, 0x01, 0x2B, 0x01, 0x61, 0x86]                       // "+" (ss#6) "a", end
        expected += [0x92, 0x85]                                              // type: nil
        expected += [0x84, 0x08] + Array("{?=ffff}".utf8) + [0x00, 0x00, 0x83, 0x00, 0x00, 0xC0, 0x3F, 0x02] // rect (ss#7)
        expected += [0x84, 0x01, 0x49, 0x01]                                  // "I" (ss#8) 1
        expected += [0x95, 0xFF]                                              // "i" (ss#3) -1
        expected += [0x95, 0x81, 0xE8, 0x03]                                  // "i" 1000
        expected += [0x86, 0x86]                                              // end Model, end NSArray
        #expect(bytes == expected)
        #expect(try TypedStreamDecoder().decode([Record].self, from: bytes) == records)
    }

    /// Decoding fields in a different order than they were written fails with the offset, the
    /// expected type and the type found.
    @Test func orderMismatchNamesOffsetAndTypes() throws {
        struct Written: Codable { var count: Int32; var name: String }
        struct ReadWrongOrder: Codable { var name: String; var count: Int32 }
        let bytes = try TypedStreamEncoder().encode(Written(count: 3, name: "x"))
        #expect {
            _ = try TypedStreamDecoder().decode(ReadWrongOrder.self, from: bytes)
        } throws: { error in
            guard let error = error as? CoderError, error.code == .typeMismatch else { return false }
            return error.offset != nil && error.reason.contains("expected type '@") && error.reason.contains("found 'i'")
        }
    }

    @Test func scalarAtTopLevel() throws {
        let bytes = try TypedStreamEncoder().encode(Int32(-2))
        #expect(try TypedStreamDecoder().decode(Int32.self, from: bytes) == -2)
        #expect(throws: CoderError.self) { try TypedStreamDecoder().decode(UInt16.self, from: bytes) }
    }
}
