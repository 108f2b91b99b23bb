import Testing
@testable import TypedStreamTool

struct DecodeCommandTests {
    /// The worked example of the format notes (§7): `@[@YES, @NO]`, 93 bytes.
    static let arrayWithBools: [UInt8] = {
        var b: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        b += [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x07] + Array("NSArray".utf8) + [0x00]
        b += [0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00, 0x85]
        b += [0x84, 0x01, 0x69, 0x02, 0x92, 0x84, 0x84, 0x84, 0x08] + Array("NSNumber".utf8) + [0x00]
        b += [0x84, 0x84, 0x07] + Array("NSValue".utf8) + [0x00, 0x94]
        b += [0x84, 0x01, 0x2A, 0x84, 0x84, 0x01, 0x63, 0x99, 0x01, 0x86]
        b += [0x92, 0x84, 0x96, 0x98, 0x98, 0x99, 0x00, 0x86, 0x86]
        return b
    }()

    @Test func treeOfTheWorkedExample() {
        #expect(Self.arrayWithBools.count == 93)
        let result = TypedStreamCommand.run(["decode", "-"], standardInput: Self.arrayWithBools)
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == """
            typedstream v4, little-endian, system version 1000
            "@" #0 NSArray v0 : NSObject v0
              "i" 2
              "@" #3 NSNumber v0 : NSValue v0 : NSObject v0
                "*" C string "c"
                "c" 1
              "@" #7 NSNumber v0 : NSValue v0 : NSObject v0
                "*" C string "c"
                "c" 0

            """)
    }

    @Test func damagedInputExitsOneWithOffset() {
        let result = TypedStreamCommand.run(["decode", "-"], standardInput: Array(Self.arrayWithBools.prefix(60)))
        #expect(result.exitCode == .failure)
        #expect(result.standardError.contains("offset 0x34 (52): the length of a class name 8 runs past the end"))
    }

    @Test func statisticsCountTypedObjects() {
        let result = TypedStreamCommand.run(["decode", "--stats", "-"], standardInput: Self.arrayWithBools)
        #expect(result.exitCode == .success)
        #expect(result.standardOutput == """
            objects: 3, typed: 3 (100.0 %), generic: 0
              NSArray: 1 typed, 0 generic
              NSNumber: 2 typed, 0 generic

            """)
    }
}
