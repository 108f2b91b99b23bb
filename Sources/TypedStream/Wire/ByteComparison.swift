extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether this buffer and `other` hold the same bytes, compared eight at a time. (The
    /// generic `elementsEqual` steps two iterators a byte at a time: about 70 instructions for
    /// the short type strings compared on every group decoded and every type string looked up.)
    @inline(__always)
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard var left = baseAddress, var right = other.baseAddress else { return true }  // both empty
        var remaining = count
        while remaining >= 8 {
            if UnsafeRawPointer(left).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(right).loadUnaligned(as: UInt64.self) { return false }
            left += 8
            right += 8
            remaining -= 8
        }
        while remaining > 0 {
            if left.pointee != right.pointee { return false }
            left += 1
            right += 1
            remaining -= 1
        }
        return true
    }
}

extension ArraySlice where Element == UInt8 {
    /// Whether this slice holds exactly the bytes of `other`, compared through the buffers.
    @inline(__always)
    func sameBytes(as other: ArraySlice<UInt8>) -> Bool {
        count == other.count && withUnsafeBufferPointer { mine in other.withUnsafeBufferPointer { mine.sameBytes(as: $0) } }
    }

    /// Whether this slice holds exactly the UTF-8 bytes of `text` (compared through the buffers
    /// when the string has its bytes in memory, as a native string does).
    @inline(__always)
    func sameBytes(asUTF8Of text: String) -> Bool {
        let utf8 = text.utf8
        guard count == utf8.count else { return false }
        return utf8.withContiguousStorageIfAvailable { theirs in withUnsafeBufferPointer { $0.sameBytes(as: theirs) } } ?? elementsEqual(utf8)
    }
}
