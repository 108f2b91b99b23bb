import Testing
@testable import TypedStream

@Test func moduleLoads() { #expect(Bool(true)) }
