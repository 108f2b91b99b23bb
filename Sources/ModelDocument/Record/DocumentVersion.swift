/// The version number of a Model document, kept in the settings file (never in the archive: the
/// Objective-C `Model` class never set a class version, so the archive alone cannot tell the
/// layouts apart). Each version fixes the groups every `Model` writes (``fields``, from the
/// table of ``ModelField``):
///
/// | version | groups of one Model, in order | notes |
/// |---|---|---|
/// | 1 | `@` name, `@` type, `{?=ffff}` rect, `I` flag, `i` kind | no `md_para` |
/// | 2 | version 1 + `i` para | **current**: new documents and `model migrate` |
/// | 3 | version 2 + `i` reserved | **draft**: the reserved `i` group is kept for a future field; written 0 by this program, kept as read |
///
/// Versions above ``newestUnderstood`` are refused without touching the document.
public enum DocumentVersion: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
    /// Version 1: five groups per Model, no `md_para`.
    case v1 = 1
    /// Version 2 (current): six groups, with `md_para`.
    case v2 = 2
    /// Version 3 (draft): seven groups; the seventh, an `i`, is reserved for future use.
    case v3Draft = 3

    /// The version new documents are written in and `migrate` moves to.
    public static let current = DocumentVersion.v2
    /// The newest version this program reads and writes.
    public static let newestUnderstood = DocumentVersion.v3Draft

    /// Whether Models in this version archive `md_para`.
    public var hasPara: Bool { self >= .v2 }
    /// Whether Models in this version archive the reserved `i` group.
    public var hasReserved: Bool { self >= .v3Draft }

    /// The type strings of one Model's groups, in order (`["@", "@", "{?=ffff}", "I", "i", "i"]`).
    public var groupTypes: [String] { fields.map(\.typeString) }

    /// Orders by number.
    public static func < (lhs: DocumentVersion, rhs: DocumentVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "2", or "3 (draft)".
    public var description: String { self == .v3Draft ? "3 (draft)" : "\(rawValue)" }
}
