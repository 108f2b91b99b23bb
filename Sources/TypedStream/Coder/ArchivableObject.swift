/// One link of a class chain: a class name and its version.
public struct ArchiveClassLink: Hashable, Sendable, CustomStringConvertible {
    /// The class name as written in archives (`"NSString"`).
    public var name: String
    /// The class version (`versionForClassName:`).
    public var version: Int64

    /// Creates a link.
    public init(_ name: String, version: Int64 = 0) {
        self.name = name
        self.version = version
    }

    /// `NSObject` version 0, the usual root.
    public static let nsObject = ArchiveClassLink("NSObject", version: 0)
    /// NeXTSTEP's root class `Object` version 0.
    public static let object = ArchiveClassLink("Object", version: 0)

    /// "Name v1".
    public var description: String { "\(name) v\(version)" }
}

extension Collection where Element == ArchiveClassLink {
    /// Whether every class of the chain is at version 0 (the usual chain: no codec's version
    /// check can fail on it).
    var isAtVersionZero: Bool { allSatisfy { $0.version == 0 } }
}

extension ArchivedClass {
    /// This class and its superclasses as links (name and version), most derived first; stops
    /// at a repeated class, as ``chain`` does.
    public var links: [ArchiveClassLink] {
        chain.map { ArchiveClassLink($0.nameText, version: $0.version) }
    }
}

/// A Swift class that can be written to and read from an archive — the counterpart of
/// Objective-C's `NSCoding` for the sequential coder.
///
/// Decoding is two-phase, as in Objective-C: the decoder creates the instance with `init()`,
/// registers it (so references from inside its own contents — cycles — resolve to it), then calls
/// ``decodeContents(with:)``. A subclass calls `super.decodeContents(with:)` first (the
/// `[super initWithCoder:]` rule) and may branch on ``ObjectDecoder/version(ofClass:)``.
///
/// A codec is written against the coder protocols ``ObjectDecoder`` and ``ObjectEncoder``, not
/// the concrete ``Unarchiver`` and ``Archiver``, so any conforming coder runs it. The methods are
/// generic (`some`, or a named parameter), so a codec's calls go to the coder's witnesses. A
/// codec on a hot path can also be specialized for the coder it mostly meets, which makes its
/// calls direct again (the generic entry checks the coder's type and jumps to the specialized
/// body; the Foundation codecs and `Model` do this, measured with `typedstream-bench --phase
/// typed`):
///
/// ```swift
/// @_specialize(where D == Unarchiver)
/// public func decodeContents<D: ObjectDecoder>(with decoder: D) throws { … }
/// ```
///
/// ```swift
/// final class Point: ArchivableObject {
///     var archiveClassChain: [ArchiveClassLink] { [ArchiveClassLink("Point", version: 1), .nsObject] }
///     var x: Int32 = 0, y: Int32 = 0
///     init() {}
///     func decodeContents(with decoder: some ObjectDecoder) throws { x = try decoder.decode(); y = try decoder.decode() }
///     func encodeContents(with encoder: some ObjectEncoder) throws { try encoder.encode(x); try encoder.encode(y) }
/// }
/// ```
public protocol ArchivableObject: AnyObject {
    /// The class chain written for this instance, most derived first, ending at the root class.
    var archiveClassChain: [ArchiveClassLink] { get }
    /// Creates an empty instance, to be filled by ``decodeContents(with:)``.
    init()
    /// Reads this object's groups from `decoder`, superclass part first. Throws on missing or
    /// mistyped values (``CoderError`` as the decoder throws it; the ``Unarchiver`` reports any
    /// other error as `badContents`).
    ///
    /// A ``CoderError`` `unsupportedVersion` makes the ``Unarchiver`` keep the object as a
    /// ``GenericObject`` instead, decoded anew from the same groups. Throw it before decoding
    /// any object inside (as `requireVersion` at the start does): the fallback does not forget
    /// instances the abandoned call decoded, and one of them could refer back to the refused
    /// instance. (A streaming decode that fails is done again over the graph, which forgets.)
    func decodeContents(with decoder: some ObjectDecoder) throws
    /// Writes this object's groups to `encoder`, superclass part first.
    func encodeContents(with encoder: some ObjectEncoder) throws
}

/// Which Swift type decodes which archived class. Only registered classes are instantiated;
/// every other class decodes to a ``GenericObject`` — decoding untrusted input never runs code
/// the caller did not register.
public struct ClassRegistry: @unchecked Sendable {
    private var types: [String: any ArchivableObject.Type] = [:]

    /// An empty registry: everything decodes generically.
    public init() {}

    /// Registers `type` for the archived class `name`.
    public mutating func register(_ type: any ArchivableObject.Type, forClassName name: String) {
        types[name] = type
    }

    /// Registers `type` for each of `names` (e.g. `NSString` and `NSMutableString`).
    public mutating func register(_ type: any ArchivableObject.Type, forClassNames names: [String]) {
        for name in names { types[name] = type }
    }

    /// Adds every entry of `other`, replacing entries with the same name.
    public mutating func merge(_ other: ClassRegistry) {
        types.merge(other.types) { _, new in new }
    }

    /// The type registered for `name`, if any.
    public func type(forClassName name: String) -> (any ArchivableObject.Type)? { types[name] }

    /// The registered class names, sorted.
    public var classNames: [String] { types.keys.sorted() }
}
