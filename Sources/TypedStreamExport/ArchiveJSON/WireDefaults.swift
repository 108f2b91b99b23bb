import ObjCTypeEncoding
import TypedStream

/// The decisions ``ArchiveWriter`` makes when a recorded one is missing, mirrored here so the
/// lossless JSON can leave out every decision that equals the default — and so the importer
/// can fill the default back in explicitly.
///
/// Both directions walk an archive in the writer's order and keep the same two tables:
/// the shared-string table (for literal-versus-reference decisions) and the object-table slot
/// count (for reference label widths).
struct WireTables {
    private(set) var sharedTexts: [ArraySlice<UInt8>] = []
    private var sharedIndex: [ArraySlice<UInt8>: Int] = [:]
    /// Object-table slots claimed so far.
    private(set) var slotCount = 0

    /// What NSArchiver writes for `text`: a reference to its first literal, else a literal.
    func defaultDecision(for text: ArraySlice<UInt8>) -> SharedStringDecision {
        if let index = sharedIndex[text] {
            return .reference(index: index, width: WireDefaults.referenceWidth(slot: index))
        }
        return .literal(length: .archiverChoice(for: Int64(text.count)))
    }

    /// Why `decision` cannot be written for `text` at this point, or `nil` when it can.
    func problem(with decision: SharedStringDecision, for text: ArraySlice<UInt8>) -> String? {
        switch decision {
        case .literal(let width):
            guard WidthContext.counted.allows(width) else { return "a literal's length is never written as \(width.name)" }
            guard width.canHold(Int64(text.count)) else { return "length \(text.count) does not fit the width \(width.name)" }
        case .reference(let index, let width):
            guard index >= 0, index < sharedTexts.count else {
                return "reference to shared string #\(index), but only \(sharedTexts.count) precede it"
            }
            guard sharedTexts[index] == text else { return "shared string #\(index) holds different text" }
            guard WidthContext.counted.allows(width), width.canHold(Int64(index) + HeadByte.referenceBias) else {
                return "reference #\(index) does not fit the width \(width.name)"
            }
        }
        return nil
    }

    /// The decision the writer follows for `text` given the recorded one (which it ignores when
    /// it cannot be honoured).
    func effectiveDecision(for text: ArraySlice<UInt8>, recorded: SharedStringDecision?) -> SharedStringDecision {
        guard let recorded else { return defaultDecision(for: text) }
        switch recorded {
        case .literal(let width):
            guard problem(with: recorded, for: text) == nil else {
                return .literal(length: .archiverChoice(for: Int64(text.count)))
            }
            return .literal(length: width)
        case .reference(let index, _):
            guard index >= 0, index < sharedTexts.count, sharedTexts[index] == text else { return defaultDecision(for: text) }
            guard problem(with: recorded, for: text) == nil else {
                return .reference(index: index, width: WireDefaults.referenceWidth(slot: index))
            }
            return recorded
        }
    }

    /// Follows `decision` (which must be writable): a literal takes the next shared-string slot.
    mutating func record(_ text: ArraySlice<UInt8>, _ decision: SharedStringDecision) {
        guard case .literal = decision else { return }
        if sharedIndex[text] == nil { sharedIndex[text] = sharedTexts.count }
        sharedTexts.append(text)
    }

    /// Claims the next object-table slot (a new object, class or C string).
    mutating func claimSlot() -> Int {
        defer { slotCount += 1 }
        return slotCount
    }
}

/// Which head-byte widths an integer may be written with in a place.
enum WidthContext {
    /// `s S`: inline or int16.
    case short
    /// `i I l L q Q` and integral reals: any width.
    case integer
    /// Lengths, counts, versions, the system version, reference labels, instance sizes: no int64.
    case counted

    func allows(_ width: IntegerWidth) -> Bool {
        switch self {
        case .short: width == .inline || width == .int16
        case .integer: true
        case .counted: width != .int64
        }
    }
}

/// NSArchiver's defaults, as ``ArchiveWriter`` applies them.
enum WireDefaults {
    /// The label width NSArchiver uses for a reference to slot `slot`.
    static func referenceWidth(slot: Int) -> IntegerWidth {
        .archiverChoice(for: Int64(slot) + HeadByte.referenceBias)
    }

    /// The width NSArchiver gives `value` in `context` (a short −32768 goes out as int16).
    static func width(for value: Int64, _ context: WidthContext) -> IntegerWidth {
        if context == .short, value == -32768 { return .int16 }
        return .archiverChoice(for: value)
    }

    /// The width the writer uses: the recorded one when allowed and big enough, else the default.
    static func effectiveWidth(_ recorded: IntegerWidth?, for value: Int64, _ context: WidthContext) -> IntegerWidth {
        if let recorded, context.allows(recorded), recorded.canHold(value) { return recorded }
        return width(for: value, context)
    }

    /// The width of a reference label to `slot`: the recorded one when allowed, else the default.
    static func effectiveReferenceWidth(_ recorded: IntegerWidth?, slot: Int) -> IntegerWidth {
        effectiveWidth(recorded, for: Int64(slot) + HeadByte.referenceBias, .counted)
    }

    /// NeXT's `FloorOrZero`: the truncated value inside ±2 147 483 646, else 0.
    private static func floorOrZero(_ x: Double) -> Int64 {
        guard x.isFinite, x < 2147483646, x >= -2147483646 else { return 0 }
        return Int64(x)
    }

    /// The form NSArchiver gives a `float`: integral when `(float)(int)x == x` in NeXT's window.
    static func realForm(_ x: Float) -> RealForm {
        let n = floorOrZero(Double(x))
        return Float(n) == x ? .integral(.archiverChoice(for: n)) : .ieee
    }

    /// The form NSArchiver gives a `double` (Apple, system ≥ 1000: `(double)(int)x == x`;
    /// NeXT truncated through `float` first).
    static func realForm(_ x: Double, systemVersion: Int64) -> RealForm {
        let n = systemVersion >= 1000 ? floorOrZero(x) : floorOrZero(Double(Float(x)))
        return Double(n) == x ? .integral(.archiverChoice(for: n)) : .ieee
    }

    /// The form the writer uses for a value whose exact integer (if any) is `integral`.
    static func effectiveRealForm(_ recorded: RealForm?, integral: Int64?, fallback: RealForm) -> RealForm {
        guard let recorded else { return fallback }
        switch recorded {
        case .ieee: return .ieee
        case .integral(let w):
            guard let integral else { return fallback }
            return .integral(w.canHold(integral) ? w : .archiverChoice(for: integral))
        }
    }

    /// The number of bits an unsigned integer type is reinterpreted at (`S` 16, `I L` 32,
    /// `Q` 64), or `nil` for signed types.
    static func unsignedBits(_ type: ObjCType) -> Int? {
        switch type {
        case .unsignedShort: 16
        case .unsignedInt, .unsignedLong: 32
        case .unsignedLongLong: 64
        default: nil
        }
    }
}

extension IntegerWidth {
    /// The width named `name` ("inline", "int16", "int32", "int64").
    init?(name: String) {
        guard let width = IntegerWidth.allCases.first(where: { $0.name == name }) else { return nil }
        self = width
    }
}
