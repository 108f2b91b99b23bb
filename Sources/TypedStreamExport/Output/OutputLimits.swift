/// The budgets of every output that could repeat what an archive holds once: the one place
/// they are set and described.
///
/// An archive names a value once and refers to it afterwards with a byte or two. An output
/// that writes the value out again at each reference could grow without bound: a few kilobytes
/// whose level *k* refers twice to level *k − 1* would print 2³⁰ values (a "billion laughs"),
/// and a 1 MB type string used by 100 000 groups would print 100 GB. So:
///
/// - **Plain JSON** (`decode --plain`) repeats an object's natural value (an `NSString`'s text,
///   an `NSArray`'s elements…) at each reference to it. What it writes for such repeats — the
///   bytes of a natural value written again at a reference, nested repeats included — may not
///   exceed ``repeatedBytes(forInputOf:)``: ``repeatedBytesPerInputByte`` (64) times the input
///   size plus ``repeatedBaseBytes`` (1 MiB). Past it, the export fails with `limitExceeded`,
///   naming the object being repeated (`#n`, its object-table number) and pointing to the
///   lossless JSON, which writes references instead.
/// - **Lossless JSON** (`decode --json`, `convert --to json`) writes each group's type string,
///   as its schema requires. The type-string text it writes for groups whose type string was a
///   reference on the wire (a repeat of an earlier one) has the same budget.
/// - **The tree** (`decode`) never fails: a type string longer than ``longTypeString`` bytes is
///   written in full at its first group and shortened to its first 64 bytes, its size and its
///   shared-string number after; a class chain whose text from some class on is longer than
///   ``longClassChain`` bytes is written out once from that class, and later chains stop there
///   (`… (class #12 and its 4999 superclasses, written out in full earlier)`).
/// - `tokens` and `inspect` quote at most 48 and 64 characters of any text and show every byte
///   once, so they grow linearly with the input and need no budget.
///
/// Legitimate archives stay far below these: on the reference inputs, plain JSON repeats
/// under 3 bytes per input byte.
public struct OutputLimits: Hashable, Sendable {
    /// Bytes of repeated output allowed per byte of input. Default 64.
    public var repeatedBytesPerInputByte = 64
    /// Bytes of repeated output allowed whatever the input's size. Default 1 MiB.
    public var repeatedBaseBytes = 1 << 20
    /// The longest type string the tree writes in full at every group, in bytes. Default 256.
    public var longTypeString = 256
    /// The longest class-chain text the tree writes in full at every object, in bytes.
    /// Default 1024.
    public var longClassChain = 1024

    /// The defaults described above.
    public static let `default` = OutputLimits()

    /// Creates the defaults.
    public init() {}

    /// The bytes of repeated output allowed for an input of `count` bytes:
    /// `repeatedBytesPerInputByte × count + repeatedBaseBytes`.
    public func repeatedBytes(forInputOf count: Int) -> Int {
        let (product, overflow) = repeatedBytesPerInputByte.multipliedReportingOverflow(by: max(count, 0))
        guard !overflow else { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(repeatedBaseBytes)
        return overflow2 ? .max : sum
    }
}
