import Foundation
import TypedStream

/// `NSDate` (version 0): one `"d"` group, the seconds since 2001-01-01 00:00:00 UTC
/// (`timeIntervalSinceReferenceDate`).
public final class DateObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSDate` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = DateObject.chain
    /// Seconds since 2001-01-01 00:00:00 UTC.
    public var timeIntervalSinceReferenceDate: Double = 0

    /// `NSDate` v0 : `NSObject` v0.
    public static let chain = [ArchiveClassLink("NSDate", version: 0), .nsObject]

    /// Creates the date 2001-01-01 00:00:00 UTC.
    public init() {}

    /// Creates an `NSDate` for `date`.
    public init(_ date: Date) {
        timeIntervalSinceReferenceDate = date.timeIntervalSinceReferenceDate
    }

    /// Creates an `NSDate` `seconds` after 2001-01-01 00:00:00 UTC.
    public init(timeIntervalSinceReferenceDate seconds: Double) {
        timeIntervalSinceReferenceDate = seconds
    }

    /// The date.
    public var date: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate) }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSDate": 0...0]

    /// Reads the `"d"` group.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        timeIntervalSinceReferenceDate = try decoder.decode()
    }

    /// Writes the `"d"` group.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encode(timeIntervalSinceReferenceDate)
    }

    /// The date in ISO 8601 form.
    public var description: String { "NSDate(\(date))" }
}
