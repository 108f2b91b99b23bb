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
