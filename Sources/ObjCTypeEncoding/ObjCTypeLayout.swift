/// A C data model for computing sizes and alignments of ``ObjCType``s.
public enum DataModel: String, Hashable, Sendable, CaseIterable {
    /// 32-bit `int`, `long` and pointers (NeXT m68k/i386, 32-bit PowerPC and Intel Macs).
    /// Alignment follows the i386 System V rule: at most 4 bytes, so `double` and
    /// `long long` align to 4 inside structs.
    case ilp32
    /// 64-bit `long` and pointers, natural alignment (x86-64, arm64).
    case lp64
}

/// The size and alignment of a type in bytes.
public struct ObjCTypeLayout: Hashable, Sendable {
    /// `sizeof`.
    public var size: Int
    /// `_Alignof`.
    public var alignment: Int

    /// Creates a layout.
    public init(size: Int, alignment: Int) {
        self.size = size
        self.alignment = alignment
    }
}

extension ObjCType {
    /// The type's size and alignment under `model`, or `nil` for types with no size
    /// (`v`, `!`, `+`) or sizes too large to represent.
    public func layout(_ model: DataModel) -> ObjCTypeLayout? {
        let pointer = model == .lp64 ? 8 : 4
        func scalar(_ size: Int) -> ObjCTypeLayout {
            ObjCTypeLayout(size: size, alignment: model == .ilp32 ? min(size, 4) : size)
        }
        switch self {
        case .char, .unsignedChar, .bool: return scalar(1)
        case .short, .unsignedShort: return scalar(2)
        case .int, .unsignedInt, .float: return scalar(4)
        case .long, .unsignedLong: return scalar(model == .lp64 ? 8 : 4)
        case .longLong, .unsignedLongLong, .double: return scalar(8)
        case .cString, .object, .classObject, .selector, .atom, .pointer, .unknown:
            return ObjCTypeLayout(size: pointer, alignment: pointer)
        case .void, .ignored, .bytes: return nil
        case .qualified(_, let inner): return inner.layout(model)
        case .bitfield(let width):
            // A lone bitfield occupies the smallest unit that holds it.
            let bytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8
            return scalar(bytes)
        case .array(let count, let element):
            guard let inner = element.layout(model) else { return nil }
            let (size, overflow) = inner.size.multipliedReportingOverflow(by: count)
            return overflow ? nil : ObjCTypeLayout(size: size, alignment: inner.alignment)
        case .structure(_, let fields):
            var offset = 0
            var alignment = 1
            var bitsUsed = 0  // bits used in the current bitfield run
            var unitBits = 0
            for field in fields {
                if case .bitfield(let width) = field.type.unqualified {
                    if unitBits == 0 || bitsUsed + width > unitBits {
                        unitBits = 32
                        offset = Self.roundUp(offset, to: 4)
                        offset += 4
                        alignment = max(alignment, 4)
                        bitsUsed = 0
                    }
                    bitsUsed += width
                    continue
                }
                unitBits = 0
                guard let inner = field.type.layout(model) else { return nil }
                offset = Self.roundUp(offset, to: inner.alignment)
                let (next, overflow) = offset.addingReportingOverflow(inner.size)
                if overflow { return nil }
                offset = next
                alignment = max(alignment, inner.alignment)
            }
            return ObjCTypeLayout(size: Self.roundUp(offset, to: alignment), alignment: alignment)
        case .union(_, let fields):
            var size = 0
            var alignment = 1
            for field in fields {
                guard let inner = field.type.layout(model) else { return nil }
                size = max(size, inner.size)
                alignment = max(alignment, inner.alignment)
            }
            return ObjCTypeLayout(size: Self.roundUp(size, to: alignment), alignment: alignment)
        }
    }

    private static func roundUp(_ value: Int, to alignment: Int) -> Int {
        guard alignment > 1 else { return value }
        let (sum, overflow) = value.addingReportingOverflow(alignment - 1)
        return overflow ? value : sum / alignment * alignment
    }
}
