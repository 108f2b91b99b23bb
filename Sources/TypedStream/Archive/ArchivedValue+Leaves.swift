extension ArchivedValue {
    /// This value with every leaf — every value that is not an array or a structure — replaced
    /// by `transform`'s answer, and the arrays and structures rebuilt around the answers: how a
    /// coder renumbers the objects, classes and strings of a group it copies from another
    /// archive. The nesting followed is the type string's, which the type-string parser bounds.
    public func mappingLeaves<Failure: Error>(_ transform: (ArchivedValue) throws(Failure) -> ArchivedValue) throws(Failure) -> ArchivedValue {
        switch self {
        case .array(let values):
            return .array(try Self.mappingLeaves(of: values, transform))
        case .structure(let values):
            return .structure(try Self.mappingLeaves(of: values, transform))
        default:
            return try transform(self)
        }
    }

    private static func mappingLeaves<Failure: Error>(of values: [ArchivedValue], _ transform: (ArchivedValue) throws(Failure) -> ArchivedValue) throws(Failure) -> [ArchivedValue] {
        var out: [ArchivedValue] = []
        out.reserveCapacity(values.count)
        for value in values { out.append(try value.mappingLeaves(transform)) }
        return out
    }
}
