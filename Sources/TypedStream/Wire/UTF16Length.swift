/// The length in UTF-16 code units (what `-[NSString length]` counts) of text held as UTF-8
/// bytes, counted from the bytes in one pass: a `String`'s `utf16.count` indexes the string
/// first, which for a long text costs more than the rest of the work around it. The one
/// counter behind the string codec's length, the attributed-string runs written straight from
/// tokens, and the binary plist writer's UTF-16 strings.
public enum UTF16Length {
    /// The number of UTF-16 units of `utf8`, or `nil` when it is not valid UTF-8 (a stray or
    /// missing continuation byte, an overlong form, a surrogate, a scalar above U+10FFFF).
    public static func ofValidUTF8(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        var units = 0, index = 0
        let end = utf8.count
        while index < end {
            let lead = utf8[index]
            if lead < 0x80 {
                // A run of ASCII (most text), a unit per byte.
                let run = ASCIIScan.prefixCount(UnsafeBufferPointer(rebasing: utf8[index...]))
                units += run
                index += run
                continue
            }
            // One scalar, checked as Unicode's table of well-formed byte sequences has it: the
            // second byte's range depends on the lead (no overlong form, no surrogate, nothing
            // above U+10FFFF), every later byte is a continuation byte.
            let length: Int
            let secondRange: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xE1...0xEF: length = 3; secondRange = 0x80...0xBF
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
            default: return nil
            }
            guard end - index >= length, secondRange.contains(utf8[index + 1]) else { return nil }
            if length >= 3 { guard utf8[index + 2] & 0xC0 == 0x80 else { return nil } }
            if length == 4 { guard utf8[index + 3] & 0xC0 == 0x80 else { return nil } }
            units += length == 4 ? 2 : 1
            index += length
        }
        return units
    }

    /// ``ofValidUTF8(_:)-(UnsafeBufferPointer<UInt8>)`` of a slice of bytes.
    public static func ofValidUTF8(_ utf8: ArraySlice<UInt8>) -> Int? {
        utf8.withUnsafeBufferPointer { ofValidUTF8($0) }
    }

    /// The number of UTF-16 units of the text `utf8` decodes to, invalid UTF-8 counted as the
    /// replacement characters `String(decoding:as:)` puts in its place.
    public static func ofText(_ utf8: ArraySlice<UInt8>) -> Int {
        ofValidUTF8(utf8) ?? String(decoding: utf8, as: UTF8.self).utf16.count
    }
}
