import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation
import TestSupport

/// Archives as Apple's `NSArchiver` (and NeXT's `NXTypedStream`) write them, assembled by hand
/// from the format notes (`typedstream-format.md` beside the shared corpus: § numbers below), so
/// that a fresh clone without the corpus still checks the writer and the reader against Apple's
/// bytes. Each archive is checked three ways: `Archiver` writes exactly these bytes, `Unarchiver`
/// reads them to the expected objects, and they round-trip as `typedstream verify` does (the
/// index written back, and the editable graph written back). `appleBytesMatchTheCorpus`
/// confirms the bytes against the archives Apple wrote, when the corpus is present.
@Suite("Apple's bytes, assembled by hand")
struct AppleBytesTests {
    // MARK: - The archives

    /// `@"Hello, world"` (the corpus's `foundation/foundation-NSString`).
    static let string = hex(
        "04 0b 'streamtyped' 81 e8 03",  // §1: streamer 4, signature length 11, little-endian signature, system 1000 as int16 (0x81)
        "84 01 '@'",                     // §4.2, §5: group type string, NEW shared string #0 "@"
        "84",                            // §7: NEW object, object #0
        "84 84 08 'NSString' 01",        // §7: class NEW (object #1), name NEW shared #1, version 1 (§8)
        "84 84 08 'NSObject' 00",        // §7: superclass NEW (object #2), name shared #2, version 0
        "85",                            // §7: NSObject's superclass is nil: end of chain
        "84 01 '+'",                     // §8 NSString: group "+" (NEW shared #3)
        "0c 'Hello, world'",             // §4.1: unshared string, length 12 inline
        "86"                             // §2: end of object
    )

    /// `@[@"a", @1, @"b"]` (`foundation/foundation-NSArray`): the second string shares its class
    /// and its `"+"` type string with the first, by reference.
    static let array = hex(
        "04 0b 'streamtyped' 81 e8 03",  // §1
        "84 01 '@' 84",                  // group "@" (shared #0); NEW object #0
        "84 84 07 'NSArray' 00",         // class object #1, name shared #1, version 0
        "84 84 08 'NSObject' 00 85",     // superclass object #2, shared #2; end of chain
        "84 01 'i' 03",                  // §8 NSArray: group "i" (shared #3), count 3
        "92 84",                         // §4: group "@" = shared-string reference 0x92 (−110 → #0); NEW object #3
        "84 84 08 'NSString' 01",        // class object #4, name shared #4, version 1
        "94",                            // superclass = object reference 0x94 (−108 → #2, NSObject)
        "84 01 '+' 01 'a' 86",           // group "+" (shared #5), "a"; end of object
        "92 84",                         // group "@" (#0); NEW object #5
        "84 84 08 'NSNumber' 00",        // class object #6, name shared #6, version 0
        "84 84 07 'NSValue' 00 94",      // superclass object #7, shared #7; then object #2 (NSObject)
        "84 01 '*'",                     // §8 NSValue: group "*" (shared #8)
        "84 84 01 'q'",                  // §4.3: C string NEW (object #8), its text NEW shared #9 "q"
        "9b 01 86",                      // group of type "q" = shared reference 0x9b (#9): the value 1 inline; end
        "92 84 96",                      // group "@"; NEW object #9 of class object #4 (0x96, NSString)
        "97 01 'b' 86",                  // group "+" = shared reference 0x97 (#5), "b"; end of object
        "86"                             // end of the array
    )

    /// `@{@"k2": @"v", @"k1": @1}` (`foundation/foundation-NSDictionary`).
    static let dictionary = hex(
        "04 0b 'streamtyped' 81 e8 03",  // §1
        "84 01 '@' 84",                  // group "@" (shared #0); NEW object #0
        "84 84 0c 'NSDictionary' 00",    // class object #1, name shared #1, version 0
        "84 84 08 'NSObject' 00 85",     // superclass object #2; end of chain
        "84 01 'i' 02",                  // §8 NSDictionary: group "i" (shared #3), 2 entries
        "92 84 84 84 08 'NSString' 01",  // key: group "@", NEW object #3, class object #4 (shared #4), version 1
        "94 84 01 '+' 02 'k2' 86",       // superclass #2; group "+" (shared #5) "k2"; end
        "92 84 96 97 01 'v' 86",         // its value: group "@", object #5 of class #4, group "+" (#5) "v"
        "92 84 96 97 02 'k1' 86",        // key: object #6, "k1"
        "92 84 84 84 08 'NSNumber' 00",  // its value: object #7, class object #8 (shared #6)
        "84 84 07 'NSValue' 00 94",      // superclass object #9 (shared #7), then #2
        "84 01 '*' 84 84 01 'q'",        // group "*" (shared #8), C string object #10 "q" (shared #9)
        "9b 01 86",                      // group "q" (shared reference #9): 1; end of the number
        "86"                             // end of the dictionary
    )

    /// The start every one-number archive shares: header, `"@"`, a new NSNumber whose class
    /// chain is new (NSNumber → NSValue → NSObject), the `"*"` group and a new C string of one
    /// letter, its text the shared string #5.
    static func number(_ letter: String, _ value: String) -> [UInt8] {
        hex(
            "04 0b 'streamtyped' 81 e8 03",  // §1
            "84 01 '@' 84",                  // group "@" (shared #0); NEW object #0
            "84 84 08 'NSNumber' 00",        // class object #1 (shared #1), version 0
            "84 84 07 'NSValue' 00",         // object #2 (shared #2)
            "84 84 08 'NSObject' 00 85",     // object #3 (shared #3); end of chain
            "84 01 '*'",                     // §8 NSValue: group "*" (shared #4)
            "84 84 01 '\(letter)'",          // §4.3: C string object #4, text NEW shared #5
            "97",                            // group whose type is shared string #5 (0x97 = −105)
            value,                           // the value (§2, §3, §6)
            "86"                             // end of object
        )
    }

    /// One NSNumber per common type: (objCType, value, wire form of the value, corpus file).
    static let numbers: [(type: String, value: NumberValue, wire: String, corpus: String?)] = [
        ("c", .bool(true), "01", "NumberBool"),                              // §6: `c` is one raw byte; BOOL is archived as `c`
        ("i", .int(42), "2a", "NumberInt"),                                  // §2: −110…127 inline in the head byte
        ("i", .int(300), "81 2c 01", nil),                                   // §2: 0x81 + int16, stream byte order (little)
        ("i", .int(-40_000), "82 c0 63 ff ff", nil),                         // §2: 0x82 + int32
        ("q", .int(-9_000_000_000), "87 00 e6 8e e7 fd ff ff ff", "NumberInt64"), // §2: 0x87 + int64, modern Foundation
        ("f", .float(3.5), "83 00 00 60 40", "NumberFloat"),                 // §3: not integral: 0x83 + IEEE float
        ("d", .double(100.5), "83 00 00 00 00 00 20 59 40", "NumberDouble"), // §3: 0x83 + IEEE double
        ("d", .double(2), "02", nil),                                        // §3: an integral double is written as an integer
    ]

    /// `@[@"a", [NSNumber numberWithInt:300], @100.5]`, written on a big-endian Mac
    /// (`04 0b "typedstream" 81 03 e8`, as the Mac OS X nibs of the corpus start).
    static let bigEndianArray = hex(
        "04 0b 'typedstream' 81 03 e8",  // §1: the big-endian signature; system 1000 as a big-endian int16
        "84 01 '@' 84",                  // group "@" (shared #0); NEW object #0
        "84 84 07 'NSArray' 00",         // class object #1 (shared #1)
        "84 84 08 'NSObject' 00 85",     // object #2 (shared #2); end of chain
        "84 01 'i' 03",                  // group "i" (shared #3): 3 elements
        "92 84 84 84 08 'NSString' 01",  // group "@"; object #3, class object #4 (shared #4)
        "94 84 01 '+' 01 'a' 86",        // superclass #2; group "+" (shared #5) "a"; end
        "92 84 84 84 08 'NSNumber' 00",  // group "@"; object #5, class object #6 (shared #6)
        "84 84 07 'NSValue' 00 94",      // object #7 (shared #7), then #2
        "84 01 '*'",                     // group "*" (shared #8)
        "84 95",                         // §4.3: C string NEW (object #8); its text "i" is already shared #3
                                         // (the count's type string), so a reference (0x95): shared strings go by content
        "95 81 01 2c",                   // group "i" (#3): 300 as 0x81 + int16, big-endian (§9: only payload order changes)
        "86",                            // end of the number
        "92 84 98",                      // group "@"; object #9 of class object #6 (0x98, NSNumber)
        "9a 84 84 01 'd'",               // group "*" (shared reference 0x9a, #8); C string object #10, text NEW shared #9 "d"
        "9b 83 40 59 20 00 00 00 00 00", // group "d" (#9): 0x83 + the double 100.5, big-endian
        "86 86"                          // end of the number, end of the array
    )

    /// The same array written on a little-endian Mac.
    static let littleEndianArray = hex(
        "04 0b 'streamtyped' 81 e8 03",
        "84 01 '@' 84 84 84 07 'NSArray' 00 84 84 08 'NSObject' 00 85 84 01 'i' 03",
        "92 84 84 84 08 'NSString' 01 94 84 01 '+' 01 'a' 86",
        "92 84 84 84 08 'NSNumber' 00 84 84 07 'NSValue' 00 94 84 01 '*' 84 95",
        "95 81 2c 01 86",
        "92 84 98 9a 84 84 01 'd' 9b 83 00 00 00 00 00 20 59 40 86 86"
    )

    /// A NeXTSTEP 2 archive on a big-endian NeXT (m68k): system version 930, `NXSYSTEMVERSION`
    /// (`04 0b "typedstream" 81 03 a2`, as the NeXTSTEP 2 nibs of the corpus start), holding one
    /// top-level `"i"` group.
    static let nextHeader = hex(
        "04 0b 'typedstream' 81 03 a2",  // §1: 930 = 0x03a2 as a big-endian int16
        "84 01 'i' 07"                   // §5: group "i" (NEW shared #0), the value 7 inline
    )

    // MARK: - The writer writes them

    @Test func theWriterWritesApplesBytes() throws {
        #expect(hexText(try archived(StringObject("Hello, world"))) == hexText(Self.string))
        #expect(hexText(try archived(ArrayObject([StringObject("a"), NumberObject(int: 1), StringObject("b")]))) == hexText(Self.array))
        let dictionary = DictionaryObject(stringKeys: [("k2", StringObject("v")), ("k1", NumberObject(int: 1))])
        #expect(hexText(try archived(dictionary)) == hexText(Self.dictionary))
    }

    @Test(arguments: numbers.indices)
    func theWriterWritesEachNumber(_ row: Int) throws {
        let (type, value, wire, _) = Self.numbers[row]
        let number = try NumberObject(value, objCType: type)
        #expect(hexText(try archived(number)) == hexText(Self.number(type, wire)), "\(type) \(value)")
    }

    @Test func theWriterWritesBothByteOrders() throws {
        func array() throws -> ArrayObject {
            ArrayObject([StringObject("a"), try NumberObject(.int(300), objCType: "i"), NumberObject(double: 100.5)])
        }
        let big = try Archiver.archivedBytes(withRootObject: try array(), header: StreamHeader(byteOrder: .big))
        #expect(hexText(big) == hexText(Self.bigEndianArray))
        #expect(hexText(try archived(try array())) == hexText(Self.littleEndianArray))
        // The NeXT header: streamer 4, big-endian, system version 930.
        let next = Archiver(header: StreamHeader(byteOrder: .big, systemVersion: .archiverChoice(930)))
        try next.encode(Int32(7))
        #expect(hexText(try next.encodedBytes()) == hexText(Self.nextHeader))
    }

    // MARK: - The reader reads them

    @Test func theReaderReadsApplesBytes() throws {
        let string = try #require(try decodedRoot(Self.string) as? StringObject)
        #expect(string.string == "Hello, world")
        #expect(!string.isMutable)

        let array = try #require(try decodedRoot(Self.array) as? ArrayObject)
        #expect(array.elements.count == 3)
        let first = try #require(array.elements[0] as? StringObject)
        let third = try #require(array.elements[2] as? StringObject)
        #expect(first.string == "a" && third.string == "b")
        let one = try #require(array.elements[1] as? NumberObject)
        #expect(one.objCType == "q" && one.value == .int(1))

        let dictionary = try #require(try decodedRoot(Self.dictionary) as? DictionaryObject)
        let keys = dictionary.entries.map { ($0.key as? StringObject)?.string }
        #expect(keys == ["k2", "k1"])
        #expect((dictionary.entries[0].value as? StringObject)?.string == "v")
        #expect((dictionary.entries[1].value as? NumberObject)?.value == .int(1))
    }

    @Test(arguments: numbers.indices)
    func theReaderReadsEachNumber(_ row: Int) throws {
        let (type, value, wire, _) = Self.numbers[row]
        let number = try #require(try decodedRoot(Self.number(type, wire)) as? NumberObject)
        #expect(number.objCType == type)
        #expect(number.value == value, "\(type) \(wire)")
    }

    @Test func theReaderReadsBothByteOrders() throws {
        for bytes in [Self.bigEndianArray, Self.littleEndianArray] {
            let array = try #require(try decodedRoot(bytes) as? ArrayObject)
            #expect((array.elements[0] as? StringObject)?.string == "a")
            #expect((array.elements[1] as? NumberObject)?.value == .int(300))
            #expect((array.elements[2] as? NumberObject)?.value == .double(100.5))
        }
        let index = try ArchiveIndex(bytes: Self.nextHeader)
        #expect(index.header.byteOrder == .big)
        #expect(index.header.systemVersion.value == 930)
        let decoder = try Unarchiver(bytes: Self.nextHeader, registry: .foundation)
        #expect(decoder.systemVersion == 930)
        let seven: Int32 = try decoder.decode()
        #expect(seven == 7)
    }

    // MARK: - They round-trip as `verify` checks

    static var allArchives: [(String, [UInt8])] {
        [("NSString", string), ("NSArray", array), ("NSDictionary", dictionary),
         ("big-endian NSArray", bigEndianArray), ("little-endian NSArray", littleEndianArray), ("NeXT header", nextHeader)]
            + numbers.map { ("NSNumber \($0.type) \($0.wire)", number($0.type, $0.wire)) }
    }

    @Test func everyArchiveRoundTripsAsVerifyDoes() throws {
        for (name, bytes) in Self.allArchives {
            // `typedstream verify`: the checked index, every token written again.
            #expect(try ArchiveIndex(bytes: bytes).write() == bytes, "\(name): index")
            // `typedstream verify --graph`: the editable graph written again.
            #expect(try ArchiveWriter.write(ArchiveReader.read(bytes)) == bytes, "\(name): graph")
            // The typed objects written again by the coder.
            #expect(try reencoded(bytes) == bytes, "\(name): typed")
        }
    }

    @Test func eachByteOrderConvertsToTheOther() throws {
        #expect(try ArchiveIndex(bytes: Self.littleEndianArray).write(byteOrder: .big) == Self.bigEndianArray)
        #expect(try ArchiveIndex(bytes: Self.bigEndianArray).write(byteOrder: .little) == Self.littleEndianArray)
    }

    // MARK: - Against the archives Apple wrote

    /// The hand-assembled bytes are the corpus files' bytes, and the headers are the corpus's.
    @Test(.needsCorpus) func appleBytesMatchTheCorpus() throws {
        #expect(try SharedCorpus.bytes("foundation/foundation-NSString.typedstream") == Self.string)
        #expect(try SharedCorpus.bytes("foundation/foundation-NSArray.typedstream") == Self.array)
        #expect(try SharedCorpus.bytes("foundation/foundation-NSDictionary.typedstream") == Self.dictionary)
        for row in Self.numbers {
            guard let name = row.corpus else { continue }
            #expect(try SharedCorpus.bytes("foundation/foundation-\(name).typedstream") == Self.number(row.type, row.wire), "\(name)")
        }
        let macHeader = Array(Self.bigEndianArray.prefix(16))
        #expect(Array(try SharedCorpus.bytes("nib/macosx-DropScript-MainMenu.nib.typedstream").prefix(16)) == macHeader)
        let nextHeader = Array(Self.nextHeader.prefix(16))
        #expect(Array(try SharedCorpus.bytes("nib/nextstep2-appkit105-AlertPanel.nib.typedstream").prefix(16)) == nextHeader)
    }
}

/// Bytes from groups of hex pairs and `'quoted ASCII'`, separated by spaces.
private func hex(_ groups: String...) -> [UInt8] {
    var bytes: [UInt8] = []
    for group in groups {
        var rest = Substring(group)
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
            } else if first == "'" {
                let text = rest.dropFirst().prefix { $0 != "'" }
                bytes += Array(text.utf8)
                rest = rest.dropFirst(text.count + 2)
            } else {
                let pair = rest.prefix(2)
                guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { preconditionFailure("bad hex '\(pair)' in \(group)") }
                bytes.append(byte)
                rest = rest.dropFirst(2)
            }
        }
    }
    return bytes
}
