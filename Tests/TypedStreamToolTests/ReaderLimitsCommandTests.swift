import Testing
@testable import TypedStreamTool

/// `decode`, `verify` and `encode` apply one set of limits (``DecodingLimits``): what one
/// refuses, the others refuse, with the same reason.
@Suite("one set of limits for decode, verify and encode")
struct ReaderLimitsCommandTests {
    /// One object whose class chain is `length` new classes C0 : C1 : …; the link that passes
    /// 256 classes starts at byte 20 + 6 × 256 = 1 556 + 402 (names of two and three digits).
    static func chain(_ length: Int) -> [UInt8] {
        var bytes = Samples.appleHeader + [0x84, 0x01, 0x40, 0x84]
        for n in 0..<length {
            let name = Array("C\(n)".utf8)
            bytes += [0x84, 0x84, UInt8(name.count)] + name + [0x00]
        }
        return bytes + [0x85, 0x86]
    }

    @Test func aChainOneOverTheLimitIsRefusedByDecodeAndVerifyAlike() {
        let reason = "offset 0x7a6 (1958): a class chain longer than 256 classes (DecodingLimits.maximumClassChainLength)"
        for arguments in [["decode", "-"], ["decode", "--json", "-"], ["decode", "--plain", "-"]] {
            let result = run(arguments, stdin: Self.chain(257))
            #expect(result.exitCode == .failure, "\(arguments)")
            #expect(result.standardError == "error: <stdin>: \(reason)\n", "\(arguments): \(result.standardError)")
        }
        for arguments in [["verify", "-"], ["verify", "--graph", "-"]] {
            let result = run(arguments, stdin: Self.chain(257))
            #expect(result.exitCode == .failure, "\(arguments)")
            #expect(result.standardOutput.hasPrefix("<stdin>: error: offset 0x7a6: a class chain longer than 256 classes (DecodingLimits.maximumClassChainLength)"), "\(arguments): \(result.standardOutput)")
        }
        // At the limit, both read it.
        #expect(run(["decode", "-"], stdin: Self.chain(256)).exitCode == .success)
        #expect(run(["verify", "-"], stdin: Self.chain(256)).standardOutput == "<stdin>: identical\n")
    }

    /// `encode` refuses JSON describing more values that take no bytes than readers accept,
    /// naming the JSON path, and writes nothing.
    @Test func encodeRefusesWhatReadersRefuseWithThePath() {
        let nulls = Array(repeating: "null", count: 70_000).joined(separator: ", ")
        let json = #"{"format": "typedstream-json", "formatVersion": 1, "header": {"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}, "groups": [{"type": "[70000!]", "values": [[\#(nulls)]]}]}"#
        let result = run(["encode", "-"], stdin: Array(json.utf8))
        #expect(result.exitCode == .failure)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "error: <stdin>: groups[0].values[0]: an array of 70000 elements that take no bytes, more than 65536 (DecodingLimits.maximumEmptyElementArray)\n")
    }
}
