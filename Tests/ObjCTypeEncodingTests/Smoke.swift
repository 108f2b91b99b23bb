import Testing
@testable import ObjCTypeEncoding

@Test func moduleLoads() { #expect(Bool(true)) }
