/// The word-at-a-time ASCII scan shared by the UTF-16 length count (``UTF16Length``) and the
/// exporters' UTF-8 check: most text is ASCII, and eight bytes are tested at once.
public enum ASCIIScan {
    /// How many bytes from the start of `text` are ASCII (below 0x80), looked at eight at a time.
    @inlinable @inline(__always)
    public static func prefixCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let start = text.baseAddress else { return 0 }
        let n = text.count
        var i = 0
        while i &+ 8 <= n {
            if UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            i &+= 8
        }
        while i < n, start[i] < 0x80 { i &+= 1 }
        return i
    }
}
