import Testing
@testable import ModelDocument

@Test func moduleLoads() { #expect(Bool(true)) }
