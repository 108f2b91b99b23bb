import Foundation
import Testing
import TypedStreamFoundation

/// The RTF-to-text reader: the control words the archives use, and hostile input that must read
/// to an end without trapping.
struct RTFTextTests {
    private func text(_ rtf: String, limit: Int = .max) -> String { RTFText.plainText(Array(rtf.utf8), maximumCharacters: limit) }

    @Test func nextStyleDocument() {
        let rtf = #"{\rtf0\ansi{\fonttbl\f0\fswiss Helvetica;\f1\fmodern Courier;}\paperw9840 \margl120\f0\b0\i0\ulnone\fs24 Hello\par World\tab x}"#
        #expect(text(rtf) == "Hello\nWorld\tx")
    }

    @Test func escapesSymbolsAndDestinations() {
        #expect(text(#"{\rtf1\ansi caf\'e9 \'93q\'94 \{\}\\ a\~b\emdash c}"#) == "café “q” {}\\ a\u{A0}b—c")
        #expect(text(#"{\rtf1\mac \'8e\'a5\'d2\'db}"#) == "é•“€")
        #expect(RTFText.plainText(Array(#"{\rtf1\mac "#.utf8) + (0x80...0xFF).map { UInt8($0) } + [0x7D]).unicodeScalars.count == 128)
        #expect(text(#"{\rtf1\ansi{\*\generator Riched20;}{\info{\title T}}{\colortbl;\red0\green0\blue0;}{\stylesheet{\s0 Normal;}}x}"#) == "x")
        #expect(text(#"{\rtf1\uc1\u8364?\u-3913?x}"#) == "€\u{F0B7}x")
        #expect(text(#"{\rtf1\u55357?\u56832?}"#) == "😀")
        #expect(text(#"{\rtf1 a\line b\par\pard c}"#) == "a\nb\nc")
    }

    @Test func serializedRTFDIsFoundInside() {
        let rtfd = Array("rtfd\0\0\0\0".utf8) + [3, 0, 0, 0] + Array(#"TXT.rtf{\rtf1\mac Inside\par}"#.utf8)
        #expect(RTFText.document(in: ArraySlice(rtfd)).map { RTFText.plainText($0) } == "Inside\n")
        #expect(RTFText.document(in: ArraySlice(Array("plain".utf8))) == nil)
    }

    @Test func hostileInputReadsToAnEnd() {
        // Unbalanced braces: extra closing braces are ignored, missing ones end at the input's end.
        #expect(text(#"{\rtf1 a}}}} b"#) == "a")
        #expect(text(#"}}}{\rtf1 a{{{b"#) == "ab")
        // Huge and overflowing numbers.
        #expect(text(#"{\rtf1\u99999999999999999999999999 x}"#) == "\u{FFFD}")
        #expect(text(#"{\rtf1\u1114112?y}"#) == "\u{FFFD}y")
        #expect(text(#"{\rtf1\uc99999999999\u65 abcdefghijklmnopqrstuvwxyz}"#) == "Aqrstuvwxyz")
        // Truncated escapes and control words.
        #expect(text(#"{\rtf1 a\'"#) == "a")
        #expect(text(#"{\rtf1 a\'4"#) == "a")
        #expect(text(#"{\rtf1 a\'zz b"#) == "a b")
        #expect(text(#"{\rtf1 a\"#) == "a")
        #expect(text(#"{\rtf1 a\u"#) == "a")
        #expect(text(#"{\rtf1 \u-"#) == "-")
        // A lone low surrogate and a high one without its pair.
        #expect(text(#"{\rtf1\u56832?\u55357?z}"#) == "\u{FFFD}\u{FFFD}z")
        // Control words of any length.
        #expect(text("{\\rtf1\\" + String(repeating: "a", count: 100_000) + " ok}") == "ok")
        // The output limit.
        #expect(text(#"{\rtf1 abcdef}"#, limit: 3) == "abc")
    }

    @Test func aMegabyteOfOpeningBraces() {
        let bytes = Array(#"{\rtf1 "#.utf8) + [UInt8](repeating: UInt8(ascii: "{"), count: 1 << 20) + Array("deep".utf8)
            + [UInt8](repeating: UInt8(ascii: "}"), count: 1 << 20) + Array("after".utf8)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(RTFText.plainText(bytes) == "deepafter")
        #expect(clock.now - start < .seconds(10))
        // Ignorable destinations deeper than the tracked depth still end where their group ends.
        let skipped = Array(#"{\rtf1 "#.utf8) + [UInt8](repeating: UInt8(ascii: "{"), count: 5000) + Array(#"\*\x hidden}"#.utf8)
            + [UInt8](repeating: UInt8(ascii: "}"), count: 4999) + Array("shown}".utf8)
        #expect(RTFText.plainText(skipped) == "shown")
    }
}
