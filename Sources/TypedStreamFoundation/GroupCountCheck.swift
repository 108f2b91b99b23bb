import TypedStream

extension ObjectDecoder {
    /// Reads a collection as `NSArray` (`"i"` count) and `NSSet` (`"I"` count) write it: the
    /// count, then one `"@"` group per element. The count is checked against the object's groups
    /// (and for sign) before anything is allocated.
    public func decodeCountedObjects<Count: ObjCIntegerConvertible>(countType: Count.Type, className: String) throws(CoderError) -> [AnyObject?] {
        let offset = currentObjectOffset
        let count: Count = try decode()
        guard count >= 0, let total = Int(exactly: count) else {
            throw CoderError(.badContents, at: offset, "\(className) count \(count) is negative")
        }
        try requireGroups(total, for: "\(className) count \(count)")
        var elements: [AnyObject?] = []
        elements.reserveCapacity(total)
        for _ in 0..<total { elements.append(try decodeObject()) }
        return elements
    }
}

extension ObjectEncoder {
    /// Writes a collection as `NSArray` / `NSSet` do: the count as `Count`, then one `"@"` group
    /// per element.
    public func encodeCountedObjects<Count: ObjCIntegerConvertible>(_ elements: [AnyObject?], countType: Count.Type, className: String) throws(CoderError) {
        guard let count = Count(exactly: elements.count) else {
            throw CoderError(.invalidValue, "an \(className) of \(elements.count) elements is too large for an archive")
        }
        try encode(count)
        for element in elements { try encodeObject(element) }
    }
}
