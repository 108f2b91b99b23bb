/// Where an integer sits on the wire, which decides the widths it may be written with and the
/// one `NSArchiver` gives it: the one statement of these rules, followed by ``ArchiveWriter``
/// and asked by formats that keep only the decisions that differ from the writer's (the
/// lossless JSON).
///
/// ```swift
/// IntegerPlace.short.archiverChoice(for: -32768)            // .int16 (an int would take int32)
/// IntegerPlace.counted.allows(.int64)                       // false: lengths are never int64
/// IntegerPlace.counted.width(recorded: .int32, for: 5)      // .int32: recorded, allowed, fits
/// ```
public enum IntegerPlace: Hashable, Sendable {
    /// `s S`: inline or int16.
    case short
    /// `i I l L q Q` and integral reals: any width.
    case integer
    /// Lengths, counts, versions, the system version, reference labels, instance sizes: any
    /// width but int64.
    case counted

    /// Whether readers accept `width` here.
    @inlinable
    public func allows(_ width: IntegerWidth) -> Bool {
        switch self {
        case .short: width == .inline || width == .int16
        case .integer: true
        case .counted: width != .int64
        }
    }

    /// The width `NSArchiver` gives `value` here: ``IntegerWidth/archiverChoice(for:)``, except
    /// that a short −32768 goes out as int16.
    @inlinable
    public func archiverChoice(for value: Int64) -> IntegerWidth {
        if self == .short, value == -32768 { return .int16 }
        return .archiverChoice(for: value)
    }

    /// The width the writer follows for `value` here: `recorded` when there is one, it is
    /// allowed here and it can hold `value`; else ``archiverChoice(for:)``.
    @inlinable
    public func width(recorded: IntegerWidth?, for value: Int64) -> IntegerWidth {
        if let recorded, allows(recorded), recorded.canHold(value) { return recorded }
        return archiverChoice(for: value)
    }

    /// The width the writer follows for a reference label to object-table or shared-string
    /// slot `slot` (labels are `slot` + ``HeadByte/referenceBias``, in a counted place).
    @inlinable
    public static func referenceWidth(recorded: IntegerWidth?, slot: Int) -> IntegerWidth {
        counted.width(recorded: recorded, for: Int64(slot) + HeadByte.referenceBias)
    }
}

extension IntegerWidth {
    /// The label width `NSArchiver` uses for a reference to slot `slot`.
    @inlinable
    public static func archiverChoice(forReferenceTo slot: Int) -> IntegerWidth {
        .archiverChoice(for: Int64(slot) + HeadByte.referenceBias)
    }

    /// The width named `name` ("inline", "int16", "int32", "int64"; see ``name``).
    public init?(name: String) {
        guard let width = IntegerWidth.allCases.first(where: { $0.name == name }) else { return nil }
        self = width
    }
}
