import Testing
import TypedStream

/// A class link token for a new class.
func newClass(_ slot: Int, _ name: SharedString, version: Int64 = 0) -> TokenKind {
    .classLink(.new(index: slot, name: name, version: .archiverChoice(version)))
}

@Suite("Objects, classes and references")
struct ObjectTests {
    @Test("Objects: nil, new with a nil-terminated chain and contents, reference", arguments: [ByteOrder.little, .big])
    func objects(_ order: ByteOrder) {
        var bytes = headerBytes(order) + literalBytes("@")
        bytes += [0x85]                                   // nil
        bytes += [0x92]                                   // group "@" again (shared string 0)
        bytes += [0x84]                                   // new object, slot 0
        bytes += [0x84] + literalBytes("B") + [0x01]      // class B v1, slot 1 (name ss#1)
        bytes += [0x84] + literalBytes("A") + [0x00]      // superclass A v0, slot 2 (ss#2)
        bytes += [0x85]                                   // root: nil superclass
        bytes += literalBytes("i", order) + intBytes(1000, order)  // contents: group "i" (ss#3)
        bytes += [0x86]                                   // end of object
        bytes += [0x92, 0x92]                             // group "@": reference to object 0
        bytes += [0x92, 0x84, 0x93, 0x86]                 // group "@": new object 3 of class B (reference-terminated chain)
        expectTokens(bytes, [
            headerToken(order),
            .typeString(lit(0, "@")), .object(.null),
            .typeString(ref(0, "@")), .object(.new(index: 0)),
            newClass(1, lit(1, "B"), version: 1), newClass(2, lit(2, "A")), .classLink(.null),
            .typeString(lit(3, "i")), int(1000), .endOfObject,
            .typeString(ref(0, "@")), .object(.reference(index: 0, width: .inline)),
            .typeString(ref(0, "@")), .object(.new(index: 3)), .classLink(.reference(index: 1, width: .inline)), .endOfObject,
        ])
    }

    /// The graph reader and the index refuse the same class links, with the same error: a
    /// superclass link back into the chain being read (to any class of it, from a chain of
    /// an object or of a `#` value), and an object whose first link is nil; a superclass read
    /// before the chain is no loop, and the graph links every class to its superclass.
    @Test("Class loops and classless objects are refused by the graph and the index alike")
    func classLinkChecks() throws {
        let start = headerBytes() + literalBytes("@") + [0x84]           // group "@", new object #0
        let classA = [0x84] + literalBytes("A") + [0x00]                   // new class A v0
        let classB = [0x84] + literalBytes("B") + [0x00]                   // new class B v0
        let refused: [(name: String, bytes: [UInt8], code: WireError.Code, offset: Int)] = [
            ("A's superclass is A", start + classA + [0x93], .classChainLoop, start.count + classA.count),
            ("A : B : A", start + classA + classB + [0x93], .classChainLoop, start.count + classA.count + classB.count),
            ("A : B : B", start + classA + classB + [0x94], .classChainLoop, start.count + classA.count + classB.count),
            ("no class", start + [0x85], .unexpectedHeadByte, start.count),
            ("# A : A", headerBytes() + literalBytes("#") + classA + [0x92], .classChainLoop, headerBytes().count + literalBytes("#").count + classA.count),
        ]
        for (name, bytes, code, offset) in refused {
            for (reader, read) in [("graph", { _ = try ArchiveReader.read(bytes) }), ("index", { _ = try ArchiveIndex(bytes: bytes) })] as [(String, () throws -> Void)] {
                do {
                    try read()
                    Issue.record("\(name): the \(reader) accepted it")
                } catch let error as WireError {
                    #expect(error.code == code && error.offset == offset, "\(name), \(reader): \(error)")
                }
            }
        }
        // Object #2 of class B : A, where A (#1) was read with object #0: no loop.
        let fine = start + classA + [0x85, 0x86] + [0x92, 0x84] + classB + [0x93, 0x86]
        let archive = try ArchiveReader.read(fine)
        _ = try ArchiveIndex(bytes: fine)
        guard case .object(let second?, _)? = archive.groups.last?.values.first else {
            Issue.record("no second object")
            return
        }
        #expect(second.archivedClass.chain.map(\.nameText) == ["B", "A"])
        #expect(second.archivedClass.superclassReferenceWidth == .inline)
        #expect(second.archivedClass.sourceIndex == 3 && second.sourceIndex == 2)
        #expect(try ArchiveWriter.write(archive) == fine)
    }

    /// An object's groups come out in order however many there are (the graph reader moves
    /// them to a list of their own every 1 024), and write back to the same bytes.
    @Test("Objects of 0 to 5 000 groups keep their groups in order", arguments: [0, 1, 1023, 1024, 1025, 2048, 5000])
    func manyGroups(_ count: Int) throws {
        var bytes = headerBytes() + literalBytes("@") + [0x84] + [0x84] + literalBytes("A") + [0x00, 0x85]
        for value in 0..<count {
            bytes += value == 0 ? literalBytes("i") : [0x94]                    // "i": shared string #2
            bytes += intBytes(Int64(value), .little)
        }
        bytes += [0x86] + [0x92, 0x92]                                          // end; a second "@" group: reference
        let archive = try ArchiveReader.read(bytes)
        guard case .object(let object?, _)? = archive.groups.first?.values.first else {
            Issue.record("no object")
            return
        }
        #expect(archive.groups.count == 2)
        #expect(object.groups.count == count)
        let values = object.groups.map { group -> Int64 in
            guard case .integer(let value, _)? = group.values.first else { return -1 }
            return value
        }
        #expect(values == (0..<Int64(count)).map { $0 })
        #expect(try ArchiveWriter.write(archive) == bytes)
    }

    @Test("A class chain stops at a repeated class, short or long", arguments: [2, 16, 17, 40, 1000])
    func chainStopsAtARepeat(_ length: Int) {
        let classes = (0..<length).map { ArchivedClass(name: Array("C\($0)".utf8), version: 0) }
        for (entry, superclass) in zip(classes, classes.dropFirst()) { entry.superclass = superclass }
        #expect(classes[0].chain.map(\.nameText) == classes.map(\.nameText))
        // Loop back from the last class to the middle one: the chain still lists each once.
        classes[length - 1].superclass = classes[length / 2]
        #expect(classes[0].chain.map(\.nameText) == classes.map(\.nameText))
        classes[length - 1].superclass = classes[length - 1]
        #expect(classes[0].chain.count == length)
    }

    @Test("Nested objects and their depths")
    func nested() throws {
        var bytes = headerBytes() + literalBytes("@")
        bytes += [0x84, 0x84] + literalBytes("A") + [0x00, 0x85]   // obj 0, class A slot 1
        bytes += [0x92, 0x84, 0x93, 0x86]                          // contents: group "@", obj 2 of class A, ends
        bytes += [0x86]
        let expected: [TokenKind] = [
            headerToken(), .typeString(lit(0, "@")), .object(.new(index: 0)), newClass(1, lit(1, "A")), .classLink(.null),
            .typeString(ref(0, "@")), .object(.new(index: 2)), .classLink(.reference(index: 1, width: .inline)), .endOfObject,
            .endOfObject,
        ]
        expectTokens(bytes, expected)
        let depths = try readTokens(bytes).map(\.depth)
        #expect(depths == [0, 0, 0, 1, 1, 1, 1, 2, 1, 0])
    }

    @Test("Class values (#): new chain, nil, reference; an @ slot may name a class (NeXTSTEP nibs)")
    func classes() {
        var bytes = headerBytes(.big) + literalBytes("##@")
        bytes += [0x84] + literalBytes("A") + [0x81, 0x02, 0x0C] + [0x85]  // A version 524 (int16), slot 0
        bytes += [0x85]                                                   // nil class
        bytes += [0x92]                                                   // @ referring to the class
        bytes += literalBytes("#") + [0x92]                               // group "#": reference
        expectTokens(bytes, [
            headerToken(.big), .typeString(lit(0, "##@")),
            newClass(0, lit(1, "A"), version: 524), .classLink(.null),
            .classLink(.null),
            .object(.reference(index: 0, width: .inline)),
            .typeString(lit(2, "#")), .classLink(.reference(index: 0, width: .inline)),
        ])
    }

    @Test("Chains record the object's slot before its classes, and classes after their names")
    func slotNumbering() throws {
        var bytes = headerBytes() + literalBytes("*@*")
        bytes += [0x84] + literalBytes("t")                            // C string slot 0
        bytes += [0x84, 0x84] + literalBytes("A") + [0x00, 0x85, 0x86] // object slot 1, class slot 2
        bytes += [0x93]                                                // C string: reference to slot 1, an object
        var reader = TokenReader(bytes: bytes)
        do {
            _ = try reader.readAll()
            Issue.record("a C-string reference to an object slot must fail")
        } catch {
            #expect(error.code == .referenceKindMismatch && error.offset == bytes.count - 1, "\(error)")
        }
        #expect(reader.objectSlots == [.cString, .object, .class])
        #expect(reader.slotText == [0: 1, 2: 2])
        #expect(reader.sharedStrings.map { String(decoding: $0, as: UTF8.self) } == ["*@*", "t", "A"])
    }

    /// 240 literal shared strings, then references to slots 237 (inline 0x7F), 238 and 239
    /// (`0x81` int16) — in both byte orders.
    @Test("Multi-byte shared-string references (index 238+ needs 0x81)", arguments: [ByteOrder.little, .big])
    func multiByteSharedStringReferences(_ order: ByteOrder) {
        let type = String(repeating: "%", count: 239)
        var bytes = headerBytes(order) + literalBytes(type, order)
        var expected: [TokenKind] = [headerToken(order), .typeString(lit(0, type, .int16))]
        for i in 1...239 {
            bytes += literalBytes("s\(i)")
            expected.append(.sharedString(lit(i, "s\(i)")))
        }
        bytes += literalBytes("%%%%") + [0x7F] + [0x81] + fixed(128, 2, order) + [0x81] + fixed(129, 2, order) + [0x92]
        expected += [.typeString(lit(240, "%%%%")),
                     .sharedString(ref(237, "s237", .inline)), .sharedString(ref(238, "s238", .int16)),
                     .sharedString(ref(239, "s239", .int16)), .sharedString(ref(0, type))]
        // A type string referenced with a multi-byte label.
        bytes += [0x81] + fixed(130, 2, order)
        expected.append(.typeString(ref(240, "%%%%", .int16)))
        bytes += [0x85, 0x85, 0x85, 0x85]
        expected += Array(repeating: TokenKind.sharedString(nil), count: 4)
        expectTokens(bytes, expected)
    }

    @Test("Multi-byte object references (slot 238+ needs 0x81)", arguments: [ByteOrder.little, .big])
    func multiByteObjectReferences(_ order: ByteOrder) {
        let type = String(repeating: "*", count: 240)
        var bytes = headerBytes(order) + literalBytes(type, order)
        var expected: [TokenKind] = [headerToken(order), .typeString(lit(0, type, .int16))]
        for i in 0..<240 {
            bytes += [0x84] + literalBytes("c\(i)")
            expected.append(.cString(.literal(index: i, text: lit(i + 1, "c\(i)"))))
        }
        bytes += literalBytes("***") + [0x7F] + [0x81] + fixed(128, 2, order) + [0x81] + fixed(129, 2, order)
        expected += [.typeString(lit(241, "***")),
                     .cString(.reference(index: 237, width: .inline)),
                     .cString(.reference(index: 238, width: .int16)),
                     .cString(.reference(index: 239, width: .int16))]
        // An int32 reference label is legal too.
        bytes += [0x81] + fixed(131, 2, order) + [0x82] + fixed(0, 4, order)
        expected += [.typeString(ref(241, "***", .int16)),
                     .cString(.reference(index: 110, width: .int32))]
        bytes += [0x85, 0x85]
        expected += [.cString(.null), .cString(.null)]
        expectTokens(bytes, expected)
    }

    @Test("The worked example from the format notes (NSArrayWithBool)")
    func workedExample() {
        var bytes = headerBytes() + literalBytes("@")
        bytes += [0x84, 0x84] + literalBytes("NSArray") + [0x00] + [0x84] + literalBytes("NSObject") + [0x00, 0x85]
        bytes += literalBytes("i") + [0x02]
        bytes += [0x92, 0x84, 0x84] + literalBytes("NSNumber") + [0x00, 0x84] + literalBytes("NSValue") + [0x00, 0x94]
        bytes += literalBytes("*") + [0x84] + literalBytes("c") + [0x99, 0x01, 0x86]
        bytes += [0x92, 0x84, 0x96, 0x98, 0x98, 0x99, 0x00, 0x86, 0x86]
        #expect(bytes.count == 93)
        expectTokens(bytes, [
            headerToken(), .typeString(lit(0, "@")), .object(.new(index: 0)),
            newClass(1, lit(1, "NSArray")), newClass(2, lit(2, "NSObject")), .classLink(.null),
            .typeString(lit(3, "i")), int(2),
            .typeString(ref(0, "@")), .object(.new(index: 3)),
            newClass(4, lit(4, "NSNumber")), newClass(5, lit(5, "NSValue")), .classLink(.reference(index: 2, width: .inline)),
            .typeString(lit(6, "*")), .cString(.literal(index: 6, text: lit(7, "c"))),
            .typeString(ref(7, "c")), .byte(1), .endOfObject,
            .typeString(ref(0, "@")), .object(.new(index: 7)), .classLink(.reference(index: 4, width: .inline)),
            .typeString(ref(6, "*")), .cString(.reference(index: 6, width: .inline)),
            .typeString(ref(7, "c")), .byte(0), .endOfObject,
            .endOfObject,
        ])
    }
}

@Suite("Headers and streamer version 3")
struct HeaderTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let version: UInt8
        let order: ByteOrder
        let system: Int
        let systemBytes: [UInt8]
        let location: SourceLocation
        init(_ version: UInt8, _ order: ByteOrder, _ system: Int, _ systemBytes: [UInt8], _ location: SourceLocation = #_sourceLocation) {
            self.version = version
            self.order = order
            self.system = system
            self.systemBytes = systemBytes
            self.location = location
        }
        var testDescription: String { "v\(version) \(order) \(system)" }
    }

    static let rows: [Row] = [
        Row(4, .little, 1000, [0x81, 0xE8, 0x03]),
        Row(4, .big, 1000, [0x81, 0x03, 0xE8]),
        Row(4, .big, 930, [0x81, 0x03, 0xA2]),
        Row(4, .little, 930, [0x81, 0xA2, 0x03]),
        Row(3, .big, 901, [0x81, 0x03, 0x85]),
        Row(3, .little, 82, [0x52]),
        Row(4, .big, 0, [0x00]),
        Row(4, .little, 100_000, [0x82, 0xA0, 0x86, 0x01, 0x00]),
    ]

    @Test("Header variants read and write back", arguments: rows)
    func header(_ row: Row) throws {
        let bytes: [UInt8] = [row.version, 0x0B] + row.order.signature + row.systemBytes
        #expect(bytes == headerBytes(version: row.version, row.order, system: row.system), sourceLocation: row.location)
        expectTokens(bytes, [headerToken(version: row.version, row.order, system: row.system)], sourceLocation: row.location)
        var reader = TokenReader(bytes: bytes)
        _ = try reader.next()
        #expect(reader.header?.byteOrder == row.order, sourceLocation: row.location)
        #expect(reader.isAtEnd, sourceLocation: row.location)
        #expect(try reader.next() == nil, sourceLocation: row.location)
    }

    @Test("The Apple header constant is what macOS writes")
    func appleHeader() throws {
        var writer = TokenWriter()
        try writer.write(.header(.apple))
        #expect(writer.bytes == [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03])
        #expect(ByteOrder(signature: Array("typedstream".utf8)) == .big)
        #expect(ByteOrder(signature: Array("streamtypes".utf8)) == nil)
    }

    @Test("Streamer 3: untyped top-level objects and the instance size after the chain", arguments: [ByteOrder.little, .big])
    func streamer3(_ order: ByteOrder) {
        var bytes = headerBytes(version: 3, order, system: 901)
        bytes += literalBytes("i") + [0x03]                                  // typed group "i" (ss#0)
        bytes += [0x84, 0x84] + literalBytes("A") + [0x00, 0x85]           // untyped object 0, class A (slot 1, ss#1)
        bytes += intBytes(300, order)                                       // instance size (int16)
        bytes += [0x92, 0x05]                                               // contents: group "i" = 5
        bytes += [0x86]
        bytes += [0x85]                                                     // untyped nil object
        bytes += [0x93]                                                     // untyped reference: ss#1 "A" is no type, object slot 1 exists
        bytes += literalBytes("@") + [0x84, 0x93, 0x00, 0x86]               // typed "@" (ss#2): object 2, class ref, size 0
        bytes += [0x84, 0x84] + literalBytes("Bee") + [0x01, 0x93, 0x00, 0x86]  // untyped, class name "Bee" is no type string
        expectTokens(bytes, [
            headerToken(version: 3, order, system: 901),
            .typeString(lit(0, "i")), int(3),
            .untypedGroup, .object(.new(index: 0)), newClass(1, lit(1, "A")), .classLink(.null), .instanceSize(.archiverChoice(300)),
            .typeString(ref(0, "i")), int(5), .endOfObject,
            .untypedGroup, .object(.null),
            .untypedGroup, .object(.reference(index: 1, width: .inline)),
            .typeString(lit(2, "@")), .object(.new(index: 2)), .classLink(.reference(index: 1, width: .inline)), .instanceSize(.archiverChoice(0)), .endOfObject,
            .untypedGroup, .object(.new(index: 3)), newClass(4, lit(3, "Bee"), version: 1), .classLink(.reference(index: 1, width: .inline)), .instanceSize(.archiverChoice(0)), .endOfObject,
        ])
    }

    @Test("Streamer 3: the untyped-group marker is zero-width at the group's depth, before the object")
    func untypedGroupMarker() throws {
        var bytes = headerBytes(version: 3, .big, system: 901)
        bytes += [0x84, 0x84] + literalBytes("A") + [0x00, 0x85, 0x00]   // untyped object 0 (class slot 1)
        bytes += [0x93, 0x86]                                            // contents: untyped reference to the class; end
        let tokens = try readTokens(bytes)
        let summary = tokens.map { "\($0.kind == .untypedGroup ? "G" : "")\($0.start)-\($0.end)@\($0.depth)" }
        #expect(summary == ["0-16@0", "G16-16@0", "16-17@0", "17-22@1", "22-23@1", "23-24@1", "G24-24@1", "24-25@1", "25-26@0"])
    }

    /// Untyped objects whose class is a reference that looks like a type-string length: an
    /// inline label `0x00…0x7F` (slots 110…237) or a `0x81` label (slot 238+).
    @Test("Streamer 3: untyped objects with class references past slot 109", arguments: [ByteOrder.little, .big])
    func streamer3FarClassReferences(_ order: ByteOrder) {
        var bytes = headerBytes(version: 3, order, system: 901)
        var expected: [TokenKind] = [headerToken(version: 3, order, system: 901)]
        var strings = 0
        var slots = 0
        func cStrings(_ count: Int) {
            let type = String(repeating: "*", count: count)
            bytes += literalBytes(type, order)
            expected.append(.typeString(lit(strings, type, count > 127 ? .int16 : .inline)))
            strings += 1
            for _ in 0..<count {
                bytes += [0x84] + literalBytes("t\(strings)")
                expected.append(.cString(.literal(index: slots, text: lit(strings, "t\(strings)"))))
                strings += 1
                slots += 1
            }
        }
        func newObject(_ name: String) -> Int {
            bytes += [0x84, 0x84] + literalBytes(name) + [0x00, 0x85, 0x00, 0x86]
            expected += [.untypedGroup, .object(.new(index: slots)), newClass(slots + 1, lit(strings, name)), .classLink(.null),
                         .instanceSize(.archiverChoice(0)), .endOfObject]
            strings += 1
            slots += 2
            return slots - 1
        }
        func objectOf(_ classSlot: Int) {
            let label = Int64(classSlot) - 110
            bytes += [0x84] + intBytes(label, order) + [0x00, 0x86]
            expected += [.untypedGroup, .object(.new(index: slots)), .classLink(.reference(index: classSlot, width: .archiverChoice(for: label))),
                         .instanceSize(.archiverChoice(0)), .endOfObject]
            slots += 1
        }
        cStrings(120)
        let a = newObject("A")          // class slot 121: label 11, the byte 0x0B
        objectOf(a)
        cStrings(120)
        let b = newObject("B")          // class slot 244: label 134, 0x81 + int16
        objectOf(b)
        objectOf(a)
        #expect(a == 121 && b == 244)
        expectTokens(bytes, expected)
    }
}
