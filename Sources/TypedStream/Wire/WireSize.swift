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

extension ObjCType {
    /// The first part of this type that a typedstream cannot carry — a pointer `^`, bitfield
    /// `b`, `v` or `?` (NeXT's `typeDescriptorError`), or a union with no computable size —
    /// or `nil` when every part can be archived. A union's members are not looked into: it is
    /// archived as `sizeof(union)` raw bytes.
    var unarchivablePart: ObjCType? {
        switch self {
        case .pointer, .bitfield, .void, .unknown: return self
        case .qualified(_, let inner): return inner.unarchivablePart
        case .array(_, let element): return element.unarchivablePart
        case .structure(_, let fields):
            for field in fields {
                if let part = field.type.unarchivablePart { return part }
            }
            return nil
        case .union: return layout(.ilp32) == nil ? self : nil
        default: return nil
        }
    }
}
