import Foundation
import TypedStream

/// `NSData` / `NSMutableData` (version 0): an `"i"` length group, then the bytes as one
/// `"[Nc]"` group (`encodeDataObject:`).
///
/// The bytes are a slice of the archive's buffer (no copy is made while decoding).
public final class DataObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSData` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = DataObject.immutableChain
    /// The bytes (a zero-copy slice of the archive when decoded).
    public var bytes: ArraySlice<UInt8> = []

    /// `NSData` v0 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSData", version: 0), .nsObject]
    /// `NSMutableData` v0 : `NSData` v0 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableData", version: 0)] + immutableChain

    /// Creates an empty `NSData`.
    public init() {}

    /// Creates an `NSData` (or `NSMutableData`) holding `bytes`.
    public init(_ bytes: some Collection<UInt8>, mutable: Bool = false) {
        self.bytes = ArraySlice(bytes)
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// Whether the archived class is `NSMutableData`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableData" }

    /// The bytes as `Foundation.Data` (a copy).
    public var data: Data { Data(bytes) }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSMutableData": 0...0, "NSData": 0...0]

    /// Reads the length and the bytes.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        bytes = try decoder.decodeDataObject()
    }

    /// Writes the length and the bytes.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encodeDataObject(bytes)
    }

    /// "NSData(6 bytes)".
    public var description: String { "\(archiveClassChain.first?.name ?? "NSData")(\(bytes.count) bytes)" }
}
