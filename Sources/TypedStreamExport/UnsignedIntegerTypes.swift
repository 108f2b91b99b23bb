import ObjCTypeEncoding

extension ObjCType {
    /// The number of bits an unsigned integer type's archived value is reinterpreted at for
    /// its natural value (`S` 16, `I L` 32, `Q` 64), or `nil` for signed types.
    var unsignedBits: Int? {
        switch self {
        case .unsignedShort: 16
        case .unsignedInt, .unsignedLong: 32
        case .unsignedLongLong: 64
        default: nil
        }
    }
}
