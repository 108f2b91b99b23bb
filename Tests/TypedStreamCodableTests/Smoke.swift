import Testing
@testable import TypedStreamCodable

@Test func moduleLoads() { #expect(Bool(true)) }
