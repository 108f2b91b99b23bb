import Testing
@testable import TypedStreamTool

@Test func moduleLoads() { #expect(Bool(true)) }
