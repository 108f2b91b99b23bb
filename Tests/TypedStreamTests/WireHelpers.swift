import Testing
import TypedStream

// Small builders for hand-assembled archives and the tokens they must give.

/// The header bytes for a streamer version, byte order and system version (int16-coded when
/// it does not fit inline, as every real writer does).
func headerBytes(version: UInt8 = 4, _ order: ByteOrder = .little, system: Int = 1000) -> [UInt8] {
    var bytes: [UInt8] = [version, 0x0B] + order.signature
    bytes += intBytes(Int64(system), order)
    return bytes
}

/// The header token matching ``headerBytes(version:_:system:)``.
func headerToken(version: UInt8 = 4, _ order: ByteOrder = .little, system: Int = 1000) -> TokenKind {
    .header(StreamHeader(streamerVersion: version, byteOrder: order, systemVersion: .archiverChoice(Int64(system))))
}

/// `value` coded as NSArchiver would (inline, `0x81`, `0x82`, `0x87`).
func intBytes(_ value: Int64, _ order: ByteOrder) -> [UInt8] {
    let width = IntegerWidth.archiverChoice(for: value)
    switch width {
    case .inline: return [UInt8(bitPattern: Int8(value))]
    case .int16: return [0x81] + fixed(UInt64(UInt16(bitPattern: Int16(value))), 2, order)
    case .int32: return [0x82] + fixed(UInt64(UInt32(bitPattern: Int32(value))), 4, order)
    case .int64: return [0x87] + fixed(UInt64(bitPattern: value), 8, order)
    }
}

/// `count` bytes of `value` in `order`.
func fixed(_ value: UInt64, _ count: Int, _ order: ByteOrder) -> [UInt8] {
    let little = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    return order == .little ? little : little.reversed()
}

/// A literal shared string token that takes shared-string slot `index`.
func lit(_ index: Int, _ text: String, _ width: IntegerWidth = .inline) -> SharedString {
    SharedString(form: .literal(index: index, length: width), bytes: ArraySlice(text.utf8))
}

/// A shared-string reference token to slot `index` whose text is `text`.
func ref(_ index: Int, _ text: String, _ width: IntegerWidth = .inline) -> SharedString {
    SharedString(form: .reference(index: index, width: width), bytes: ArraySlice(text.utf8))
}

/// The bytes of a literal shared string: `0x84`, the length, the text.
func literalBytes(_ text: String, _ order: ByteOrder = .little) -> [UInt8] {
    [0x84] + intBytes(Int64(text.utf8.count), order) + Array(text.utf8)
}

/// An integer token with NSArchiver's width.
func int(_ value: Int64) -> TokenKind { .integer(.archiverChoice(value)) }

/// An integer token with an explicit width.
func int(_ value: Int64, _ width: IntegerWidth) -> TokenKind { .integer(WireInteger(value, width: width)) }

/// Raw bytes as a token payload.
func raw(_ bytes: [UInt8]) -> ArraySlice<UInt8> { ArraySlice(bytes) }

/// Reads every token of `bytes`.
func readTokens(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(WireError) -> [Token] {
    var reader = TokenReader(bytes: bytes, limits: limits)
    return try reader.readAll()
}

/// Checks that `bytes` reads to exactly `expected` (kinds, in order), that the tokens tile the
/// input without gaps, and that ``TokenWriter`` writes exactly `bytes` back.
func expectTokens(_ bytes: [UInt8], _ expected: [TokenKind], limits: DecodingLimits = .default,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    let tokens: [Token]
    do {
        tokens = try readTokens(bytes, limits: limits)
    } catch {
        Issue.record("read failed: \(error)", sourceLocation: sourceLocation)
        return
    }
    let kinds = tokens.map(\.kind)
    #expect(kinds.count == expected.count, "token count", sourceLocation: sourceLocation)
    for (i, (got, want)) in zip(kinds, expected).enumerated() where got != want {
        Issue.record("token \(i): got \(got), expected \(want)", sourceLocation: sourceLocation)
    }
    expectTiling(tokens, count: bytes.count, sourceLocation: sourceLocation)
    expectRewrite(tokens, bytes, sourceLocation: sourceLocation)
    if bytes.count <= 512 {
        expectPrefixesFailCleanly(bytes, fullTokens: tokens, limits: limits, sourceLocation: sourceLocation)
    }
}

/// Reads every proper prefix of `bytes` (lengths in `lengths`, all by default). Each must throw
/// a ``WireError`` — or, when the cut falls between two top-level groups (there is no trailer),
/// read cleanly to exactly the tokens of the whole input that end there. Returns how many
/// prefixes threw.
@discardableResult
func expectPrefixesFailCleanly(_ bytes: [UInt8], fullTokens: [Token], lengths: [Int]? = nil, limits: DecodingLimits = .default,
                               sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    var threw = 0
    for length in lengths ?? Array(0..<bytes.count) {
        var reader = TokenReader(bytes: Array(bytes[0..<length]), limits: limits)
        do {
            let tokens = try reader.readAll()
            let expected = Array(fullTokens.prefix(tokens.count))
            let boundary = tokens.last?.end == length && tokens.last?.depth == 0 && reader.isAtEnd
            if !boundary || tokens != expected {
                Issue.record("prefix of \(length) bytes read without error (\(tokens.count) tokens) but is not a group boundary", sourceLocation: sourceLocation)
                return threw
            }
        } catch {
            threw += 1
            if error.offset < 0 || error.offset > length {
                Issue.record("prefix of \(length) bytes: error offset \(error.offset) is outside the input: \(error)", sourceLocation: sourceLocation)
                return threw
            }
        }
    }
    return threw
}

/// Every token starts where the previous one ended, and the last ends at the end of input.
func expectTiling(_ tokens: [Token], count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    var position = 0
    for (i, token) in tokens.enumerated() {
        guard token.start == position, token.end >= token.start else {
            Issue.record("token \(i) \(token.kind) spans \(token.range), expected to start at \(position)", sourceLocation: sourceLocation)
            return
        }
        position = token.end
    }
    #expect(position == count, "tokens end at \(position) of \(count)", sourceLocation: sourceLocation)
}

/// Writing `tokens` gives exactly `bytes`, and each token ends where its recorded range ends.
func expectRewrite(_ tokens: [Token], _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    var writer = TokenWriter()
    for (i, token) in tokens.enumerated() {
        do {
            try writer.write(token.kind)
        } catch {
            Issue.record("writer refused token \(i) \(token.kind): \(error)", sourceLocation: sourceLocation)
            return
        }
        if writer.bytes.count != token.end {
            Issue.record("after token \(i) \(token.kind) the writer is at \(writer.bytes.count), the token ended at \(token.end)", sourceLocation: sourceLocation)
            return
        }
    }
    #expect(writer.bytes == bytes, "rewritten bytes differ", sourceLocation: sourceLocation)
}

/// Checks that reading `bytes` throws `code` at `offset`.
func expectWireError(_ bytes: [UInt8], _ code: WireError.Code, at offset: Int, limits: DecodingLimits = .default,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let tokens = try readTokens(bytes, limits: limits)
        Issue.record("expected \(code) at \(offset), read \(tokens.count) tokens", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
    }
}
