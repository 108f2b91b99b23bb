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
            let length: Int
            switch lead {
            case 0..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return nil
            }
            guard end - index >= length else { return nil }
            var scalar = UInt32(length == 1 ? lead : lead & (0x7F >> length))
            for offset in 1..<max(length, 1) {
                let byte = utf8[index + offset]
                guard byte & 0xC0 == 0x80 else { return nil }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            switch length {
            case 3: guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar) else { return nil }
            case 4: guard scalar >= 0x1_0000, scalar <= 0x10_FFFF else { return nil }
            default: break
            }
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
        // ASCII (most text) has one unit per byte.
        if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.count }
        return ofValidUTF8(utf8) ?? String(decoding: utf8, as: UTF8.self).utf16.count
    }
}
