import TypedStream

/// `NSArray` / `NSMutableArray` (version 0): an `"i"` count, then one `"@"` group per element.
public final class ArrayObject: ArchivableObject, HoldsObjects {
    /// The chain as archived (`NSArray` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.immutableChain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// The elements (typed objects where their class is registered, else generic); `nil` for a
    /// nil element (which a real NSArray cannot hold, but an archive can).
    @exclusivity(unchecked) public var elements: [AnyObject?] = []

    /// `NSArray` v0 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSArray", version: 0), .nsObject]
    /// `NSMutableArray` v0 : `NSArray` v0 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableArray", version: 0)] + immutableChain

    /// Creates an empty `NSArray`.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        pending.appendObjects(of: &elements)
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates an array of `elements`.
    public init(_ elements: [AnyObject?], mutable: Bool = false) {
        self.elements = elements
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// Creates an array of new `NSString` elements.
    public convenience init(strings: [String], mutable: Bool = false) {
        self.init(strings.map { StringObject($0) }, mutable: mutable)
    }

    /// Whether the archived class is `NSMutableArray`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableArray" }

    /// Reads the count and the elements.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "NSArray", in: 0...0)
        elements = try decoder.decodeCountedObjects(countType: Int32.self, className: "NSArray")
    }

    /// Writes the count and the elements.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encodeCountedObjects(elements, countType: Int32.self, className: "NSArray")
    }
}
