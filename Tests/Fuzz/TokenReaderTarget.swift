// libFuzzer target "tokenreader": reads arbitrary bytes with TokenReader.
//
// Property: the reader returns tokens or throws WireError — it never traps, never reads out of
// bounds (AddressSanitizer), and what it returns is consistent: every token lies inside the
// input, tokens come in order, and an error's offset lies inside 0...input.count. A
// `precondition` failure here is a finding, like a trap in the reader.
//
// Build and run with Tests/Fuzz/fuzz.sh (see Tests/Fuzz/README.md).
import TypedStream

@_cdecl("LLVMFuzzerTestOneInput")
public func tokenReaderFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    var reader = TokenReader(bytes: bytes)
    var previousEnd = 0
    do {
        while let token = try reader.next() {
            fuzzCheck(token.start >= 0 && token.start <= token.end && token.end <= bytes.count,
                         "token \(token.kind) has range \(token.start)..<\(token.end) outside the input")
            fuzzCheck(token.start >= previousEnd, "token \(token.kind) at \(token.start) starts before the previous end \(previousEnd)")
            previousEnd = token.end
        }
        fuzzCheck(reader.offset == bytes.count, "reader stopped at \(reader.offset) of \(bytes.count) without an error")
    } catch {
        fuzzCheck(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the input: \(error)")
        fuzzCheck(!error.reason.isEmpty, "error without a reason")
    }
    return 0
}

/// Like `precondition`, but keeps its message in optimized builds (`fatalError` always prints).
@inline(__always)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
