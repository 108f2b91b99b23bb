/// The budgets of the property-list readers (``BinaryPlistReader``, ``XMLPlistReader``) and of
/// the keyed-archive check (``KeyedArchiveGraph``): the one place they are set.
///
/// A binary property list names an object once and refers to it by number: a few kilobytes
/// whose level *k* holds level *k − 1* twice stand for 2⁶⁴ values. The readers keep one value
/// per object (shared references share it), and count what the value would be written out
/// in full: every value ``valueCost`` bytes plus the bytes of its strings and data, shared
/// references counted again at each reference. That *expanded size* may not pass
/// ``expandedBytesPerInputByte`` (64) times the input size plus ``expandedBaseBytes`` (1 MiB),
/// so whatever walks the value afterwards does bounded work. Archives written by
/// `NSKeyedArchiver` expand less than 40 bytes per input byte (only strings, numbers and data
/// are shared, never collections).
public struct PlistLimits: Hashable, Sendable {
    /// Deepest nesting of arrays and dictionaries accepted. Default 512.
    public var maximumDepth = 512
    /// Largest input accepted, in bytes. Default 2 GiB (as `DecodingLimits.maximumInputSize`).
    public var maximumInputSize = 1 << 31
    /// Bytes of expanded size allowed per byte of input. Default 64.
    public var expandedBytesPerInputByte = 64
    /// Bytes of expanded size allowed whatever the input's size. Default 1 MiB.
    public var expandedBaseBytes = 1 << 20
    /// What one value counts towards the expanded size besides its text or data. Default 16.
    public var valueCost = 16

    /// The defaults described above.
    public static let `default` = PlistLimits()

    /// Creates the defaults.
    public init() {}

    /// The expanded size allowed for an input of `count` bytes:
    /// `expandedBytesPerInputByte × count + expandedBaseBytes`.
    public func expandedBytes(forInputOf count: Int) -> Int {
        let (product, overflow) = expandedBytesPerInputByte.multipliedReportingOverflow(by: max(count, 0))
        guard !overflow else { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(expandedBaseBytes)
        return overflow2 ? .max : sum
    }

    /// `a + b`, saturating at `Int.max` (expanded sizes are only compared with a budget).
    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
