import Foundation
import TypedStream

/// `NSURL` (version 0): a `"c"` is-relative flag; when it is 1 an `"@"` group with the base
/// `NSURL`; then an `"@"` group with the (relative) string as an `NSString`.
public final class URLObject: ArchivableObject, CustomStringConvertible {
    /// The chain as archived (`NSURL` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = URLObject.chain
    /// The base URL of a relative URL, `nil` for an absolute one.
    public var base: URLObject?
    /// The URL string (relative to ``base`` when there is one), as the archived string object.
    public var stringObject = StringObject()

    /// `NSURL` v0 : `NSObject` v0.
    public static let chain = [ArchiveClassLink("NSURL", version: 0), .nsObject]

    /// Creates an empty `NSURL`.
    public init() {}

    /// Creates an `NSURL` with `string`, relative to `base` when given.
    public init(string: String, base: URLObject? = nil) {
        stringObject = StringObject(string)
        self.base = base
    }

    /// Creates an `NSURL` for `url`, keeping its base URL (if any) as a separate `NSURL`.
    public convenience init(_ url: URL) {
        self.init(string: url.relativeString, base: url.baseURL.map(URLObject.init))
    }

    /// The URL string as written (relative to ``base`` when there is one).
    public var relativeString: String { stringObject.string }

    /// Whether the URL is relative to a base URL.
    public var isRelative: Bool { base != nil }

    /// The URL, or `nil` when the string does not parse as one. Resolves against ``base``.
    public var url: URL? { resolved(depth: 0) }

    private func resolved(depth: Int) -> URL? {
        guard depth < 64 else { return nil }
        guard let base else { return URL(string: relativeString) }
        guard let baseURL = base.resolved(depth: depth + 1) else { return nil }
        return URL(string: relativeString, relativeTo: baseURL)
    }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSURL": 0...0]

    /// Reads the flag, the base URL and the string. Throws ``CoderError`` `badContents` for a
    /// flag other than 0 or 1 or a missing string, `unexpectedClass` for a base that is not an
    /// `NSURL` or a string that is not an `NSString`.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        let offset = decoder.currentObjectOffset
        let flag: Int8 = try decoder.decode()
        switch flag {
        case 0: base = nil
        case 1:
            guard let decodedBase = try decoder.decodeObject(of: URLObject.self) else {
                throw CoderError(.badContents, at: offset, "a relative NSURL has a nil base URL")
            }
            base = decodedBase
        default:
            throw CoderError(.badContents, at: offset, "NSURL is-relative flag is \(flag), not 0 or 1")
        }
        guard let string = try decoder.decodeObject(of: StringObject.self) else {
            throw CoderError(.badContents, at: offset, "NSURL has a nil string")
        }
        stringObject = string
    }

    /// Writes the flag, the base URL and the string.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        try encoder.encode(Int8(base == nil ? 0 : 1))
        if let base { try encoder.encodeObject(base) }
        try encoder.encodeObject(stringObject)
    }

    /// The URL string, followed by its base URLs when relative (at most 8, so a cyclic base
    /// chain in a crafted archive cannot recurse forever).
    public var description: String {
        var text = "NSURL(\(relativeString)"
        var next = base
        var links = 0
        while let current = next, links < 8 {
            text += " relative to \(current.relativeString)"
            next = current.base
            links += 1
        }
        return text + (next == nil ? ")" : " …)")
    }
}
