import TypedStream

/// `NSObject` (version 0) and NeXTSTEP's `Object`: the root classes, which archive nothing.
public final class PlainObject: ArchivableObject {
    /// The chain as archived; `NSObject` v0 by default.
    public var archiveClassChain: [ArchiveClassLink] = [.nsObject]

    /// Creates an `NSObject`.
    public init() {}

    /// Reads nothing (root classes write no groups).
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
    }

    /// Writes nothing.
    public func encodeContents(with encoder: some ObjectEncoder) throws {}
}
