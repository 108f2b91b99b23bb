import Testing
@testable import TypedStreamTool

struct DecodeCommandTests {
    static let arrayWithBools = Samples.arrayWithBool

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
