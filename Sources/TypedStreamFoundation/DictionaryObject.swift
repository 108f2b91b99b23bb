import TypedStream

/// `NSDictionary` / `NSMutableDictionary` (version 0): an `"i"` count, then per entry an
/// `"@"` group with the key and an `"@"` group with the value.
///
/// Entries keep their archived order, and duplicate keys are kept (an archive can hold them;
/// a real dictionary would keep the last).
public final class DictionaryObject: ArchivableObject, HoldsObjects {
    /// One entry: a key and a value, either of which an archive may hold as nil.
    public struct Entry {
        /// The key object (usually a ``StringObject``).
        public var key: AnyObject?
        /// The value object.
        public var value: AnyObject?

        /// Creates an entry.
        public init(key: AnyObject?, value: AnyObject?) {
            self.key = key
            self.value = value
        }
    }

    /// The chain as archived (`NSDictionary` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.immutableChain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// The entries in archived order.
    @exclusivity(unchecked) public var entries: [Entry] = []

    /// `NSDictionary` v0 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSDictionary", version: 0), .nsObject]
    /// `NSMutableDictionary` v0 : `NSDictionary` v0 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableDictionary", version: 0)] + immutableChain

    /// Creates an empty `NSDictionary`.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        var taken = [Entry].takingAll(of: &entries)
        // Each key and value is moved out of its entry (`take()`), not copied.
        while var entry = taken.popLast() {
            pending.appendObject(entry.key.take())
            pending.appendObject(entry.value.take())
        }
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a dictionary of `pairs`, written in this order.
    public init(_ pairs: [(AnyObject, AnyObject)], mutable: Bool = false) {
        entries = pairs.map { Entry(key: $0.0, value: $0.1) }
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// Creates a dictionary whose keys are new `NSString` objects, written in this order.
    public convenience init(stringKeys pairs: [(String, AnyObject)], mutable: Bool = false) {
        self.init(pairs.map { (StringObject($0.0) as AnyObject, $0.1) }, mutable: mutable)
    }

    /// Whether the archived class is `NSMutableDictionary`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableDictionary" }

    /// The value of the first entry whose key is an `NSString` equal to `key`.
    public subscript(key: String) -> AnyObject? {
        for entry in entries {
            if let string = entry.key as? StringObject, string.string == key { return entry.value }
        }
        return nil
    }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSMutableDictionary": 0...0, "NSDictionary": 0...0]

    /// Reads the count and the entries. Throws ``CoderError`` `badContents` for a negative
    /// count or one larger than the groups the object holds.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        let offset = decoder.currentObjectOffset
        let count: Int32 = try decoder.decode()
        guard count >= 0 else { throw CoderError(.badContents, at: offset, "NSDictionary count \(count) is negative") }
        try decoder.requireGroups(2 * Int(count), for: "NSDictionary count \(count)")
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let key = try decoder.decodeObject()
            let value = try decoder.decodeObject()
            entries.append(Entry(key: key, value: value))
        }
    }

    /// Writes the count and the entries.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        guard let count = Int32(exactly: entries.count) else {
            throw CoderError(.invalidValue, "an NSDictionary of \(entries.count) entries is too large for an archive")
        }
        try encoder.encode(count)
        for entry in entries {
            try encoder.encodeObject(entry.key)
            try encoder.encodeObject(entry.value)
        }
    }
}
