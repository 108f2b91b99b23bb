import Testing
import TypedStream
import TypedStreamFoundation
import TestSupport

/// The project's own samples (Samples/*.typedstream) are golden files made by our writer.
/// This test rebuilds each one and compares bytes; to regenerate them after a deliberate
/// change run: `TYPEDSTREAM_REGENERATE_GOLDEN=1 swift test --filter SamplesTests` and review `git diff`.
struct SamplesTests {
    static let root: String = {
        PackageRoot.path
    }()

    /// Each sample: file name and how to build it.
    static let samples: [(name: String, build: @Sendable () throws -> [UInt8])] = [
        ("hello.typedstream", {
            try Archiver.archivedBytes(withRootObject: StringObject("Hello, typedstream!"))
        }),
        ("strings-array.typedstream", { try stringsArray(header: .apple) }),
        ("strings-array-big-endian.typedstream", {
            try stringsArray(header: StreamHeader(streamerVersion: 4, byteOrder: .big, systemVersion: .archiverChoice(1000)))
        }),
        ("scalars.typedstream", scalars),
        ("cycle.typedstream", {
            let array = ArrayObject([], mutable: true)
            array.elements = [StringObject("I contain myself:"), array]
            return try Archiver.archivedBytes(withRootObject: array)
        }),
    ]

    static func stringsArray(header: StreamHeader) throws -> [UInt8] {
        let shared = StringObject("shared")
        let array = ArrayObject([StringObject("first"), shared, StringObject("émoji 👍🏽"), shared], mutable: true)
        return try Archiver.archivedBytes(withRootObject: array, header: header)
    }

    static func scalars() throws -> [UInt8] {
        let e = Archiver()
        try e.encode(Int8(-5))
        try e.encode(UInt8(200))
        try e.encode(Int16(-32767))
        try e.encode(UInt16(65535))
        try e.encode(Int32(-110))
        try e.encode(Int32(127))
        try e.encode(Int32(128))
        try e.encode(UInt32(70000))
        try e.encode(Int64(-9_000_000_000))
        try e.encode(UInt64.max - 2)
        try e.encode(Float(1.5))
        try e.encode(Float(3))
        try e.encode(Double(-941_389_200))
        try e.encode(Double(0.1))
        try e.encodeValues([.integer(7, width: nil), .integer(-1, width: nil)], ofObjCTypes: "iI")
        try e.encodeValue(.structure([Float(1), Float(2), Float(3.5), Float(4)].map(\.archivedValue)), ofObjCType: "<?=ffff>")
        try e.encodeArray([Int8(1), 2, 3, 4])
        try e.encodeBytes(Array("counted bytes".utf8))
        try e.encodeValue(.cString(e.cString("c".utf8), referenceWidth: nil), ofObjCType: "*")
        try e.encodeValue(.cString(e.cString("c".utf8), referenceWidth: nil), ofObjCType: "*")
        try e.encodeValue(.sharedString(ArraySlice("description".utf8), decision: nil), ofObjCType: ":")
        try e.encodeObject(nil)
        return try e.encodedBytes()
    }

    @Test(arguments: samples.map(\.name))
    func sampleMatchesWriter(name: String) throws {
        let build = try #require(Self.samples.first { $0.name == name }).build
        let expected = try build()
        let path = Self.root + "/Samples/" + name
        if Golden.isRegenerating {
            try FileShim.write(expected, to: path)
        }
        let onDisk = try FileShim.read(path)
        #expect(onDisk == expected, "Samples/\(name) differs from what the writer makes now; regenerate with \(Golden.howToRegenerate(filter: "SamplesTests"))")
        // Every sample reads back and writes back identically at the graph level.
        let archive = try ArchiveReader.read(onDisk)
        #expect(try ArchiveWriter.write(archive) == onDisk)
        #expect(try ArchiveWriter.write(archive, policy: .archiver) == onDisk)
    }

    @Test func scalarsDecodeInOrder() throws {
        let d = try Unarchiver(bytes: try Self.scalars())
        #expect(try d.decode(Int8.self) == -5)
        #expect(try d.decode(UInt8.self) == 200)
        #expect(try d.decode(Int16.self) == -32767)
        #expect(try d.decode(UInt16.self) == 65535)
        #expect(try d.decode(Int32.self) == -110)
        #expect(try d.decode(Int32.self) == 127)
        #expect(try d.decode(Int32.self) == 128)
        #expect(try d.decode(UInt32.self) == 70000)
        #expect(try d.decode(Int64.self) == -9_000_000_000)
        #expect(try d.decode(UInt64.self) == UInt64.max - 2)
        #expect(try d.decode(Float.self) == 1.5)
        #expect(try d.decode(Float.self) == 3)
        #expect(try d.decode(Double.self) == -941_389_200)
        #expect(try d.decode(Double.self) == 0.1)
        let pair = try d.decodeValues(ofObjCTypes: "iI")
        #expect(try UInt32(archivedValue: pair[1]) == UInt32.max)
        let rect = try d.decodeValue(ofObjCType: "{?=ffff}").members(4)
        #expect(try Float(archivedValue: rect[2]) == 3.5)
        #expect(try d.decodeArray(of: Int8.self, count: 4) == [1, 2, 3, 4])
        #expect(try d.decodeBytes() == Array("counted bytes".utf8))
        _ = try d.decodeValue(ofObjCType: "*")
        _ = try d.decodeValue(ofObjCType: "*")
        _ = try d.decodeValue(ofObjCType: ":")
        #expect(try d.decodeObject() == nil)
        #expect(!d.hasMoreGroups)
    }

    @Test func cycleDecodesToTheSameInstance() throws {
        let bytes = try FileShim.read(Self.root + "/Samples/cycle.typedstream")
        let d = try Unarchiver(bytes: bytes, registry: .foundation)
        let array = try #require(try d.decodeRootObject() as? ArrayObject)
        #expect(array.elements.count == 2)
        #expect(array.elements[1] === array)
    }
}
