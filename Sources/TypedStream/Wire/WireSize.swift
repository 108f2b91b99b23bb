import ObjCTypeEncoding

extension ObjCType {
    /// The fewest bytes a value of this type can take in a typedstream. Used to refuse array
    /// counts that the remaining data cannot hold before reading them.
    var minimumWireSize: Int {
        switch self {
        case .ignored, .void, .unknown, .pointer, .bitfield: return 0
        case .qualified(_, let inner): return inner.minimumWireSize
        case .array(let count, let element):
            let (size, overflow) = count.multipliedReportingOverflow(by: element.minimumWireSize)
            return overflow ? Int.max : size
        case .structure(_, let fields):
            var total = 0
            for field in fields {
                let (sum, overflow) = total.addingReportingOverflow(field.type.minimumWireSize)
                if overflow { return Int.max }
                total = sum
            }
            return total
        case .union: return layout(.ilp32)?.size ?? 0
        default: return 1
        }
    }
}
