import TypedStream

/// `NSSet` / `NSMutableSet` (version 0): an `"I"` count, then one `"@"` group per element.
///
/// The elements keep their archived order (a set has none, but the bytes do).
public final class SetObject: ArchivableObject, HoldsObjects {
    /// The chain as archived (`NSSet` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = SetObject.immutableChain
    /// The elements in archived order; `nil` for a nil element (an archive can hold one).
    public var elements: [AnyObject?] = []

    /// `NSSet` v0 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSSet", version: 0), .nsObject]
    /// `NSMutableSet` v0 : `NSSet` v0 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableSet", version: 0)] + immutableChain

    /// Creates an empty `NSSet`.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        pending.appendObjects(of: &elements)
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a set of `elements`, written in this order.
    public init(_ elements: [AnyObject?], mutable: Bool = false) {
        self.elements = elements
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// Creates a set of new `NSString` elements.
    public convenience init(strings: [String], mutable: Bool = false) {
        self.init(strings.map { StringObject($0) }, mutable: mutable)
    }

    /// Whether the archived class is `NSMutableSet`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableSet" }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSMutableSet": 0...0, "NSSet": 0...0]

    /// Reads the count and the elements. Throws ``CoderError`` `badContents` for a count
    /// larger than the groups the object holds.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        elements = try decoder.decodeCountedObjects(countType: UInt32.self, className: "NSSet")
    }

    /// Writes the count and the elements.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encodeCountedObjects(elements, countType: UInt32.self, className: "NSSet")
    }
}
