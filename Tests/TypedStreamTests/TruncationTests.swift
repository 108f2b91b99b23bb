import Foundation
import Testing
import TypedStream
import TestSupport

/// Every truncated prefix of a real archive must fail with a ``WireError`` (or, cut between
/// two top-level groups, read cleanly) — never trap.
///
/// Reading a prefix costs time proportional to its length, so all prefixes of all files is
/// quadratic (about 14 GB of reading for the corpus, hours in a debug build). By default this
/// checks every prefix of files up to ``exhaustiveSize`` bytes and, for larger files, every
/// prefix up to ``headLength`` bytes, the last few prefixes and ``sampleCount`` lengths drawn
/// with a printed seed. Set `TYPEDSTREAM_ALL_PREFIXES=1` (best with `swift test -c release`)
/// to check every prefix of every file; set `TYPEDSTREAM_SEED=n` to replay a sample.
@Suite("Truncated prefixes")
struct TruncationTests {
    static let exhaustiveSize = 1024
    static let headLength = 384
    static let sampleCount = 12

    static let everyPrefix = ProcessInfo.processInfo.environment["TYPEDSTREAM_ALL_PREFIXES"] == "1"
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["TYPEDSTREAM_SEED"], let value = UInt64(text) { return value }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }()

    /// The corpus typedstreams that read to their end, plus `Samples/` files.
    static let files: [Corpus.File] = (Corpus.files ?? []).filter { !$0.isGNUstep && !$0.isMalformed } + Corpus.samples

    @Test("Every truncated prefix throws a WireError, never traps", arguments: files)
    func prefixes(_ file: Corpus.File) throws {
        let full: [Token]
        do {
            full = try readTokens(file.bytes)
        } catch {
            // Only Samples/ may hold files that fail (kept fuzz finds); their prefixes are checked too.
            full = []
        }
        var lengths: [Int]
        if Self.everyPrefix || file.bytes.count <= Self.exhaustiveSize {
            lengths = Array(0..<file.bytes.count)
        } else {
            var generator = SplitMix64(seed: Self.seed ^ UInt64(truncatingIfNeeded: file.name.hashValueStable))
            lengths = Array(0..<Self.headLength)
            lengths += (file.bytes.count - 3)..<file.bytes.count
            for _ in 0..<Self.sampleCount {
                lengths.append(Int(generator.next() % UInt64(file.bytes.count - Self.headLength)) + Self.headLength)
            }
            print("\(file): \(lengths.count) of \(file.bytes.count) prefixes (seed \(Self.seed); TYPEDSTREAM_SEED=\(Self.seed) replays)")
        }
        if full.isEmpty {
            for length in lengths {
                var reader = TokenReader(bytes: Array(file.bytes[0..<length]))
                _ = try? reader.readAll()
            }
            return
        }
        let threw = expectPrefixesFailCleanly(file.bytes, fullTokens: full, lengths: lengths)
        #expect(threw >= lengths.count / 2, "\(file): only \(threw) of \(lengths.count) prefixes threw")
    }

    @Test("Hand-made inputs: each prefix of a multi-group archive")
    func multiGroup() throws {
        var bytes = headerBytes(.big) + literalBytes("@i", .big) + [0x85, 0x05]
        bytes += [0x92, 0x84, 0x84] + literalBytes("A") + [0x00, 0x85] + literalBytes("i") + [0x07, 0x86, 0x09]
        bytes += literalBytes("[2{?=sf}]+", .big) + [0x81, 0x01, 0x00, 0x83, 0x3F, 0x80, 0x00, 0x00, 0x02, 0x01, 0x03, 0x61, 0x62, 0x63]
        let full = try readTokens(bytes)
        expectRewrite(full, bytes)
        let threw = expectPrefixesFailCleanly(bytes, fullTokens: full)
        // Clean cuts: after the header and after each of the three groups' last byte but the final one.
        #expect(threw == bytes.count - 3)
    }
}

extension String {
    /// A hash that is the same in every run (FNV-1a), unlike `hashValue`.
    var hashValueStable: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
