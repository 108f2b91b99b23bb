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
    ///
    /// Follows the i386 System V / Darwin rules for ``DataModel/ilp32`` (no scalar aligned to
    /// more than 4) and the x86-64 rules for ``DataModel/lp64``. Bitfields (`bN`) carry no
    /// declared type in an encoding; they are laid out as `int` bitfields (`long long` when
    /// wider than 32 bits), the common case: packed into the current storage unit unless they
    /// would cross its end, with the unit's alignment counted in the struct's (checked against
    /// clang for i386 and x86-64).
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
            // Alone (as in a union) a bitfield takes a whole storage unit.
            return scalar(Self.bitfieldUnitBits(width) / 8)
        case .array(let count, let element):
            guard let inner = element.layout(model) else { return nil }
            let (size, overflow) = inner.size.multipliedReportingOverflow(by: count)
            return overflow ? nil : ObjCTypeLayout(size: size, alignment: inner.alignment)
        case .structure(_, let fields):
            return Self.structLayout(fields, model)
        case .union(_, let fields):
            var size = 0
            var alignment = 1
            for field in fields {
                guard let inner = field.type.layout(model) else { return nil }
                size = max(size, inner.size)
                alignment = max(alignment, inner.alignment)
            }
            guard let total = Self.roundUp(size, to: alignment) else { return nil }
            return ObjCTypeLayout(size: total, alignment: alignment)
        }
    }

    /// The storage unit, in bits, assumed for a bitfield of `width` bits.
    private static func bitfieldUnitBits(_ width: Int) -> Int { width > 32 ? 64 : 32 }

    /// Lays out struct members in order, tracking the position in bits so bitfields pack.
    private static func structLayout(_ fields: [ObjCField], _ model: DataModel) -> ObjCTypeLayout? {
        var bits = 0  // the next free bit
        var alignment = 1
        for field in fields {
            if case .bitfield(let width) = field.type.unqualified {
                let unitBits = bitfieldUnitBits(width)
                let unitAlignment = model == .ilp32 ? min(unitBits / 8, 4) : unitBits / 8
                let alignBits = unitAlignment * 8
                if width == 0 {
                    // `int : 0` closes the current unit; it does not align the struct.
                    guard let next = roundUp(bits, to: alignBits) else { return nil }
                    bits = next
                    continue
                }
                // A unit starts at an aligned offset; a field that would cross the end of the
                // unit it starts in moves to the next aligned offset (i386: `long long` units
                // start every 4 bytes).
                if bits + width > bits / alignBits * alignBits + unitBits {
                    guard let next = roundUp(bits, to: alignBits) else { return nil }
                    bits = next
                }
                bits += width
                alignment = max(alignment, unitAlignment)
                continue
            }
            guard let inner = field.type.layout(model),
                  let byteOffset = roundUp((bits + 7) / 8, to: inner.alignment) else { return nil }
            let (end, overflow) = byteOffset.addingReportingOverflow(inner.size)
            guard !overflow, end <= Int.max / 16 else { return nil }  // room for bits + a bitfield
            bits = end * 8
            alignment = max(alignment, inner.alignment)
        }
        guard let size = roundUp((bits + 7) / 8, to: alignment) else { return nil }
        return ObjCTypeLayout(size: size, alignment: alignment)
    }

    /// `value` rounded up to a multiple of `alignment`, or `nil` on overflow.
    private static func roundUp(_ value: Int, to alignment: Int) -> Int? {
        guard alignment > 1 else { return value }
        let (sum, overflow) = value.addingReportingOverflow(alignment - 1)
        return overflow ? nil : sum / alignment * alignment
    }
}
