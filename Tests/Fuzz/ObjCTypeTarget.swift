// libFuzzer target "objctype": the @encode grammar.
//
// Property: ObjCType.parseGroup(bytes:) returns types or throws ObjCTypeError — never traps;
// a parsed group prints canonically and the canonical text parses back to the same types
// and prints the same again; sizes and minimum wire sizes never trap (overflow is `nil`).
import ObjCTypeEncoding

@_cdecl("LLVMFuzzerTestOneInput")
public func objCTypeFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let types: [ObjCType]
    do {
        types = try ObjCType.parseGroup(bytes: bytes)
    } catch {
        fuzzCheck(error.position >= 0 && error.position <= bytes.count, "error position \(error.position) outside the string: \(error)")
        return 0
    }
    var printed: [UInt8] = []
    for type in types {
        type.append(to: &printed)
        _ = type.layout(.ilp32)
        _ = type.layout(.lp64)
    }
    let reparsed: [ObjCType]
    do {
        reparsed = try ObjCType.parseGroup(bytes: printed)
    } catch {
        fatalError("canonical text '\(String(decoding: printed, as: UTF8.self))' of '\(String(decoding: bytes, as: UTF8.self))' does not parse: \(error)")
    }
    var printedAgain: [UInt8] = []
    for type in reparsed { type.append(to: &printedAgain) }
    fuzzCheck(printedAgain == printed, "printing is not stable: '\(String(decoding: printed, as: UTF8.self))' then '\(String(decoding: printedAgain, as: UTF8.self))'")
    fuzzCheck(reparsed == types, "'\(String(decoding: bytes, as: UTF8.self))' parses to other types after printing as '\(String(decoding: printed, as: UTF8.self))'")
    return 0
}

/// Like `precondition`, but keeps its message in optimized builds (`fatalError` always prints).
@inline(__always)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
