import Testing
@testable import TypedStreamTool
