import Testing
@testable import TypedStreamFoundation

@Test func moduleLoads() { #expect(Bool(true)) }
