// libFuzzer target "tokenreader": reads arbitrary bytes with TokenReader.
//
// Property: the reader returns tokens or throws WireError — it never traps, never reads out of
// bounds (AddressSanitizer), and what it returns is consistent: every token lies inside the
// input, tokens come in order, and an error's offset lies inside 0...input.count. The fast
// whole-archive path must agree with the pull reader exactly (same plain-data tokens, or the
// same error), and ArchiveIndex must fail exactly when ArchiveReader does, with the same
// error. A `precondition` failure here is a finding, like a trap in the reader.
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
    checkFastPathAgrees(bytes)
    return 0
}

/// The recursive fast path gives what the pull reader gives; the index fails as the graph does.
func checkFastPathAgrees(_ bytes: [UInt8]) {
    var pull = TokenReader(bytes: bytes)
    var pulled: [CompactToken] = []
    var pullError: WireError?
    do {
        while let token = try pull.nextCompact() { pulled.append(token) }
    } catch {
        pullError = error
    }
    var fast = TokenReader(bytes: bytes)
    do {
        let walked = try fast.readAllCompact()
        fuzzCheck(pullError == nil, "fast path read what the pull reader refused: \(pullError.map { "\($0)" } ?? "")")
        fuzzCheck(walked == pulled, "fast path tokens differ from the pull reader's")
    } catch {
        fuzzCheck(error == pullError, "fast path error \(error) differs from the pull reader's \(pullError.map { "\($0)" } ?? "none")")
    }
    let graphError: WireError?
    do { _ = try ArchiveReader.read(bytes); graphError = nil } catch { graphError = error }
    do {
        _ = try ArchiveIndex(bytes: bytes)
        fuzzCheck(graphError == nil, "index read what the graph reader refused: \(graphError.map { "\($0)" } ?? "")")
    } catch {
        fuzzCheck(error == graphError, "index error \(error) differs from the graph reader's \(graphError.map { "\($0)" } ?? "none")")
    }
}

/// Like `precondition`, but keeps its message in optimized builds (`fatalError` always prints).
@inline(__always)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
