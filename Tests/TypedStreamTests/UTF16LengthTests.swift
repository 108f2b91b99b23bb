import Testing
@testable import TypedStream
import TestSupport

/// `UTF16Length` (the ASCII words counted eight bytes at a time, the rest scalar by scalar)
/// against the standard library: `ofValidUTF8` is `nil` exactly when `String(validating:)` is,
/// and otherwise the string's `utf16.count`; `ofText` is the UTF-16 count of the repaired text.
@Suite("UTF-16 length")
struct UTF16LengthTests {
    /// Pieces text is made of: ASCII runs longer and shorter than a word, every UTF-8 length,
    /// and bytes that are not valid UTF-8 (stray continuation, overlong, surrogate, above
    /// U+10FFFF, a lead cut short).
    private static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("hello, world".utf8), Array("0123456789abcdef".utf8),
        Array("é".utf8), Array("€".utf8), Array("😀".utf8), Array("日本語".utf8),
        [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF],
    ]

    @Test func agreesWithTheStandardLibrary() {
        let seed = TestSeed.resolve("UTF16_LENGTH_SEED", label: "UTF16LengthTests")
        var random = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) {
                bytes += Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
            }
            // A slice that does not start at its array's first byte: the words are unaligned.
            let slice = ([0x41] + bytes)[1...]
            let valid = String(validating: bytes, as: UTF8.self)
            #expect(UTF16Length.ofValidUTF8(slice) == valid?.utf16.count, "\(bytes)")
            #expect(UTF16Length.ofText(slice) == String(decoding: bytes, as: UTF8.self).utf16.count, "\(bytes)")
        }
    }

    @Test func emptyTextHasNoUnits() {
        #expect(UTF16Length.ofValidUTF8([UInt8]()[...]) == 0)
        #expect(UTF16Length.ofText([]) == 0)
    }
}
