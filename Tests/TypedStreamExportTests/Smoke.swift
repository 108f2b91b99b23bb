import Testing
@testable import TypedStreamExport

@Test func moduleLoads() { #expect(Bool(true)) }
