import TypedStream

/// `NSNull` (version 0): the null singleton, which archives nothing.
public final class NullObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSNull` v0 : `NSObject` v0).
    public var archiveClassChain: [ArchiveClassLink] = NullObject.chain

    /// `NSNull` v0 : `NSObject` v0.
    public static let chain = [ArchiveClassLink("NSNull", version: 0), .nsObject]

    /// Creates an `NSNull`.
    public init() {}

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSNull": 0...0]

    /// Reads nothing.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
    }

    /// Writes nothing.
    public func encodeContents(with encoder: some ObjectEncoder) throws {}

    /// "NSNull".
    public var description: String { "NSNull" }
}
