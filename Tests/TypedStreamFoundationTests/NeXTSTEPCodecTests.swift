import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

private let objectClass = Hex.ascii("Object")

/// A bare NeXTSTEP `Object` (PlainObject with the `Object` chain).
private func nextObject() -> PlainObject {
    let object = PlainObject()
    object.archiveClassChain = [.object]
    return object
}

/// `List` v1 of three elements, the third a reference to the first (`95` = object #3).
private let listBytes = """
\(Hex.nextHeader) 84 01 40
84 84 84 04 \(Hex.ascii("List")) 01 84 84 06 \(objectClass) 00 85
   84 01 69 03
   84 04 5b 33 40 5d   84 94 86   84 94 86   95
86
"""

@Test func listExactBytes() throws {
    let a = nextObject(), b = nextObject()
    let decoded = try #require(try expectExactRoundTrip(ListObject([a, b, a]), header: Hex.nextStreamHeader, expected: listBytes) as? ListObject)
    #expect(decoded.elements.count == 3)
    #expect(decoded.elements[0] === decoded.elements[2])
    #expect(decoded.elements[0] !== decoded.elements[1])
    #expect(decoded.listVersion == 1)
}

/// An empty `List`: version 1 writes only the count; version 0 writes `"ii"` and an empty array.
@Test(arguments: [
    (Int64(1), "84 01 69 00"),
    (0, "84 02 69 69 00 00 84 04 5b 30 40 5d"),
])
func emptyListExactBytes(version: Int64, contents: String) throws {
    let list = ListObject()
    list.archiveClassChain = [ArchiveClassLink("List", version: version), .object]
    let expected = "\(Hex.nextHeader) 84 01 40 84 84 84 04 \(Hex.ascii("List")) \(String(format: "%02x", version)) 84 84 06 \(objectClass) 00 85 \(contents) 86"
    let decoded = try #require(try expectExactRoundTrip(list, header: Hex.nextStreamHeader, expected: expected) as? ListObject)
    #expect(decoded.elements.isEmpty)
    #expect(decoded.version0Capacity == (version == 0 ? 0 : nil))
}

/// Version 0 keeps its first int (a capacity NeXT's reader ignores).
@Test func listVersion0KeepsItsCapacity() throws {
    let bytes = Hex.bytes("""
    \(Hex.nextHeader) 84 01 40
    84 84 84 04 \(Hex.ascii("List")) 00 84 84 06 \(objectClass) 00 85
       84 02 69 69 05 01   84 04 5b 31 40 5d 84 94 86
    86
    """)
    let list = try #require(try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject() as? ListObject)
    #expect(list.version0Capacity == 5)
    #expect(list.elements.count == 1)
    #expect(try Archiver.archivedBytes(withRootObject: list, header: Hex.nextStreamHeader) == bytes)
}

@Test func listNegativeCountIsBadContents() throws {
    var bytes = Hex.bytes(listBytes)
    let groupAt = try #require((0 ..< bytes.count - 3).first { bytes[$0 ..< $0 + 4] == [0x84, 0x01, 0x69, 0x03] })
    bytes[groupAt + 3] = 0xff  // count −1
    #expect(throws: CoderError(.badContents, "")) { try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject() }
}

/// `HashTable` v1 from atoms to objects: `"i%%"` (the value type `"@"` reuses shared string 0),
/// then one group per key and per value.
private let hashTableBytes = """
\(Hex.nextHeader) 84 01 40
84 84 84 09 \(Hex.ascii("HashTable")) 01 84 84 06 \(objectClass) 00 85
   84 03 69 25 25 02 84 01 25 92
   96 84 04 \(Hex.ascii("File"))   92 84 94 86
   96 84 04 \(Hex.ascii("Edit"))   92 85
86
"""

@Test func hashTableExactBytes() throws {
    let table = HashTableObject(keyType: "%", valueType: "@", entries: [(.atom("File"), .object(nextObject())), (.atom("Edit"), .object(nil))])
    let decoded = try #require(try expectExactRoundTrip(table, header: Hex.nextStreamHeader, expected: hashTableBytes) as? HashTableObject)
    #expect(decoded.keyTypeString == "%")
    #expect(decoded.valueTypeString == "@")
    #expect(decoded.entries.map(\.key.stringValue) == ["File", "Edit"])
    #expect(decoded["File"]?.object is PlainObject)
    #expect(decoded["Edit"]?.object == nil)
}

/// `HashTable` v0: the types are C strings (`"i**"`); the key group's type reuses the text.
@Test func hashTableVersion0ExactBytes() throws {
    let table = HashTableObject(keyType: "*", valueType: "i", entries: [(.cString("k"), .integer(7))])
    table.archiveClassChain = [ArchiveClassLink("HashTable", version: 0), .object]
    let expected = """
    \(Hex.nextHeader) 84 01 40
    84 84 84 09 \(Hex.ascii("HashTable")) 00 84 84 06 \(objectClass) 00 85
       84 03 69 2a 2a 01 84 84 01 2a 84 84 01 69
       96 84 84 01 6b   97 07
    86
    """
    let decoded = try #require(try expectExactRoundTrip(table, header: Hex.nextStreamHeader, expected: expected) as? HashTableObject)
    #expect(decoded.entries.first?.key.stringValue == "k")
    #expect(decoded.entries.first?.value.integerValue == 7)
}

/// `Storage` v1 of unnamed structs: the array type is written as NeXT spells it, `"[2ii]"`.
@Test func storageOfStructsExactBytes() throws {
    let pair = { (a: Int64, b: Int64) in NeXTValue.value(.structure([.integer(a, width: nil), .integer(b, width: nil)])) }
    let storage = StorageObject(elementType: "ii", elementSize: 8, elements: [pair(1, 2), pair(3, 4)])
    let expected = """
    \(Hex.nextHeader) 84 01 40
    84 84 84 07 \(Hex.ascii("Storage")) 01 84 84 06 \(objectClass) 00 85
       84 03 25 69 69 84 02 69 69 08 02
       84 05 5b 32 69 69 5d 01 02 03 04
    86
    """
    let decoded = try #require(try expectExactRoundTrip(storage, header: Hex.nextStreamHeader, expected: expected) as? StorageObject)
    #expect(decoded.elementTypeString == "ii")
    #expect(decoded.elementSize == 8)
    #expect(decoded.elements.compactMap { $0.members?.compactMap(\.integerValue) } == [[1, 2], [3, 4]])
}

/// `Storage` v0 of C strings: `"*iii"` (description, size, capacity, count), then the array.
@Test func storageVersion0ExactBytes() throws {
    let storage = StorageObject(elementType: "*", elementSize: 4, elements: [.cString("a"), .cString("b")])
    storage.archiveClassChain = [ArchiveClassLink("Storage", version: 0), .object]
    let expected = """
    \(Hex.nextHeader) 84 01 40
    84 84 84 07 \(Hex.ascii("Storage")) 00 84 84 06 \(objectClass) 00 85
       84 04 2a 69 69 69 84 84 01 2a 04 02 02
       84 04 5b 32 2a 5d 84 84 01 61 84 84 01 62
    86
    """
    let decoded = try #require(try expectExactRoundTrip(storage, header: Hex.nextStreamHeader, expected: expected) as? StorageObject)
    #expect(decoded.elements.map(\.stringValue) == ["a", "b"])
    #expect(decoded.version0Capacity == 2)
}

/// `Storage` of bytes (`"c"`) travels as one raw-byte array; of objects inside structs
/// (`{*@@}`, how NeXTSTEP nibs keep connections) member by member.
@Test func storageOfBytesAndOfStructsWithObjects() throws {
    let bytes = StorageObject(elementType: "c", elementSize: 1, elements: [.value(.byte(7)), .value(.byte(0xff))])
    let expectedBytes = """
    \(Hex.nextHeader) 84 01 40
    84 84 84 07 \(Hex.ascii("Storage")) 01 84 84 06 \(objectClass) 00 85
       84 03 25 69 69 84 01 63 01 02   84 04 5b 32 63 5d 07 ff
    86
    """
    try expectExactRoundTrip(bytes, header: Hex.nextStreamHeader, expected: expectedBytes)

    let target = nextObject()
    let connection = NeXTValue.structure([.cString("delegate"), .object(target), .object(target)])
    let storage = StorageObject(elementType: "{*@@}", elementSize: 12, elements: [connection])
    let encoded = try Archiver.archivedBytes(withRootObject: storage, header: Hex.nextStreamHeader)
    let decoded = try #require(try Unarchiver(bytes: encoded, registry: .foundation).decodeRootObject() as? StorageObject)
    let members = try #require(decoded.elements.first?.members)
    #expect(members[0].stringValue == "delegate")
    #expect(members[1].object != nil && members[1].object === members[2].object)
    #expect(try Archiver.archivedBytes(withRootObject: decoded, header: Hex.nextStreamHeader) == encoded)
}

/// `StreamTable`: the `HashTable` part with `"!"` values, then each key again and its data.
private let streamTableBytes = """
\(Hex.nextHeader) 84 01 40
84 84 84 0b \(Hex.ascii("StreamTable")) 01 84 84 09 \(Hex.ascii("HashTable")) 01 84 84 06 \(objectClass) 00 85
   84 03 69 25 25 01 84 01 69 84 01 21
   97 01   98
   97 01   97 02   84 04 5b 32 63 5d aa bb
86
"""

@Test func streamTableExactBytes() throws {
    let table = StreamTableObject(keyType: "i", entries: [.init(key: .integer(1), data: [0xaa, 0xbb])])
    let decoded = try #require(try expectExactRoundTrip(table, header: Hex.nextStreamHeader, expected: streamTableBytes) as? StreamTableObject)
    #expect(decoded.keyTypeString == "i")
    #expect(decoded.entries.map(\.key.integerValue) == [1])
    #expect(decoded.entries.map(\.data) == [[0xaa, 0xbb]])
}

@Test func streamTableWithADifferentSecondKeyIsBadContents() {
    var bytes = Hex.bytes(streamTableBytes)
    let secondKey = bytes.indices.filter { bytes[$0] == 0x97 && bytes[$0 + 1] == 0x01 }[1]
    bytes[secondKey + 1] = 0x02
    #expect(throws: CoderError(.badContents, "")) { try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject() }
}

/// A version the codec does not know is reported, the object stays generic and is written back
/// unchanged — for every NeXTSTEP codec.
@Test(arguments: [
    ("List", listBytes), ("HashTable", hashTableBytes), ("StreamTable", streamTableBytes),
])
func nextUnsupportedVersionIsKeptGeneric(className: String, source: String) throws {
    let bytes = patchingClassVersion(Hex.bytes(source), className: className, to: 7)
    let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
    let root = try decoder.decodeRootObject()
    #expect(root is GenericObject)
    #expect(decoder.warnings.count == 1)
    #expect(decoder.warnings.first?.contains("\(className) version 7") == true, "\(decoder.warnings)")
    #expect(try Archiver.archivedBytes(withRootObject: root, header: Hex.nextStreamHeader) == bytes)
}

@Test func storageUnsupportedVersionIsKeptGeneric() throws {
    let storage = StorageObject(elementType: "i", elementSize: 4, elements: [.integer(1)])
    storage.archiveClassChain = [ArchiveClassLink("Storage", version: 2), .object]
    let bytes = try Archiver.archivedBytes(withRootObject: storage, header: Hex.nextStreamHeader)
    let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
    #expect(try decoder.decodeRootObject() is GenericObject)
    #expect(decoder.warnings.first?.contains("Storage version 2") == true, "\(decoder.warnings)")
}
