import ObjCTypeEncoding
import TypedStream

/// A small hand-made archive that touches every kind of value and every wire decision the
/// lossless JSON can carry.
enum SampleArchive {
    static func group(_ type: String, _ values: [ArchivedValue], decision: SharedStringDecision? = nil) -> ArchivedGroup {
        // The type strings below are constants of this file; a parse failure is a test bug.
        let types = (try? ObjCType.parseGroup(type)) ?? []
        return ArchivedGroup(typeString: ArraySlice(type.utf8), types: types, values: values, typeStringDecision: decision)
    }

    static func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

    static func make() -> Archive {
        let nsObject = ArchivedClass(name: "NSObject".utf8, version: 0)
        let nsArray = ArchivedClass(name: "NSArray".utf8, version: 0, superclass: nsObject)
        let nsString = ArchivedClass(name: "NSString".utf8, version: 1, superclass: nsObject)
        let nsValue = ArchivedClass(name: "NSValue".utf8, version: 0, superclass: nsObject)
        let nsNumber = ArchivedClass(name: "NSNumber".utf8, version: 0, superclass: nsValue)
        let myThing = ArchivedClass(name: "MyThing".utf8, version: 300, superclass: nsObject)
        myThing.versionWidth = .int32  // not NSArchiver's int16
        let objCType = ArchivedCString(text: "c".utf8)

        let string = ArchivedObject(archivedClass: nsString, groups: [group("+", [.unsharedString(bytes("héllo \"world\"\n"), lengthWidth: nil)])])
        let yes = ArchivedObject(archivedClass: nsNumber, groups: [group("*", [.cString(objCType, referenceWidth: nil)]), group("c", [.byte(1)])])
        let no = ArchivedObject(archivedClass: nsNumber, groups: [group("*", [.cString(objCType, referenceWidth: nil)]), group("c", [.byte(0)])])
        let array = ArchivedObject(archivedClass: nsArray)
        array.groups = [
            group("i", [.integer(4, width: nil)]),
            group("@", [.object(string, referenceWidth: nil)]),
            group("@", [.object(yes, referenceWidth: nil)]),
            group("@", [.object(no, referenceWidth: nil)]),
            group("@", [.object(array, referenceWidth: nil)]),  // a cycle: the array holds itself
        ]

        return Archive(header: .apple, groups: [
            group("@", [.object(array, referenceWidth: nil)]),
            group("@", [.object(string, referenceWidth: .int16)]),
            group("sSiIqQ", [
                .integer(-2, width: nil),
                .integer(-1, width: nil),                       // S 65535
                .integer(5, width: .int32),                     // a wider width than needed
                .integer(-1, width: nil),                       // I 4294967295
                .integer(-9_000_000_000, width: nil),           // 0x87 int64
                .integer(-2, width: nil),                       // Q 18446744073709551614
            ]),
            group("I", [.integer(3_000_000_000, width: .int64)]),  // not the sign-extension of 32 bits: raw
            group("ffff", [
                .float(Float(bitPattern: 0x7FC0_0001), form: nil),  // NaN with a payload
                .float(-0.0, form: .ieee),
                .float(3.0, form: .ieee),                           // integral, but written as IEEE
                .float(0.1, form: nil),
            ]),
            group("ddd", [.double(-.infinity, form: nil), .double(21_692_800.0, form: nil), .double(0.1, form: nil)]),
            group("+", [.unsharedString([0xFF, 0xFE, 0x41], lengthWidth: .int16)]),  // not UTF-8
            group("+", [.unsharedString(nil, lengthWidth: nil)]),
            group(":%", [.sharedString(bytes("copy:"), decision: nil), .sharedString(bytes("NSArray"), decision: .literal(length: .inline))]),
            group("[4c]{?=is}[2S](?=ic)!B", [
                .bytes([0, 1, 2, 255]),
                .structure([.integer(1, width: nil), .integer(-1, width: nil)]),
                .array([.integer(1, width: nil), .integer(-1, width: nil)]),
                .bytes([9, 8, 7, 6]),
                .ignored,
                .byte(1),
            ]),
            group("#", [.classObject(nsNumber, referenceWidth: nil)]),
            group("#", [.classObject(myThing, referenceWidth: nil)]),
            group("@", [.objectSlotClass(nsArray, referenceWidth: nil)]),
            group("*@#", [.cString(nil, referenceWidth: nil), .object(nil, referenceWidth: nil), .classObject(nil, referenceWidth: nil)]),
            group("i", [.integer(7, width: nil)], decision: .literal(length: .int16)),  // "i" again as a literal
        ])
    }
}
