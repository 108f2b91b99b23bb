// libFuzzer target "roundtrip": whatever TokenReader accepts, TokenWriter writes back to the
// same bytes.
//
// Property: tokens record every wire decision (widths, literal versus reference, real form),
// so an input that reads without error re-encodes byte for byte. A mismatch or a writer error
// on accepted input is a finding.
import TypedStream

@_cdecl("LLVMFuzzerTestOneInput")
public func tokenRoundTripFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    var reader = TokenReader(bytes: bytes)
    guard let tokens = try? reader.readAll() else { return 0 }
    var writer = TokenWriter(capacity: bytes.count)
    do {
        try writer.write(tokens)
    } catch {
        fatalError("the writer refused tokens the reader produced: \(error)")
    }
    if writer.bytes != bytes {
        let at = zip(writer.bytes, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(writer.bytes.count, bytes.count)
        fatalError("round trip differs at byte \(at): wrote \(writer.bytes.count) bytes for \(bytes.count)")
    }
    return 0
}

