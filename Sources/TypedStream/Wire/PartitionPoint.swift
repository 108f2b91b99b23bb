extension RandomAccessCollection where Index == Int {
    /// The number of leading elements for which `isBefore` holds, found by bisection: the
    /// elements must be partitioned, every one for which it holds coming before every one for
    /// which it does not (as offsets in a table filled in reading order are).
    @inline(__always)
    func partitionPoint(where isBefore: (Element) -> Bool) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low - startIndex
    }
}
