/// The settings file (`settings.plist`, an XML property list) that keeps the document's version
/// number — the archive itself does not say which layout its Models have.
///
/// | key | type | meaning |
/// |---|---|---|
/// | `version` | integer | the document version (``DocumentVersion``); the only required key |
/// | `format` | string | `"ModelDocument"` |
/// | `writer` | string | the program that wrote the document (``writerIdentifier``) |
/// | `generation` | integer | save generation counter, +1 on every save |
/// | `archive` | string | the archive's file name (`document.typedstream`) |
/// | `archiveLength` | integer | the archive's length in bytes |
/// | `archiveSHA256` | string | the archive's SHA-256 (hex); checked on open |
/// | `modelCount` | integer | how many Models the archive holds |
/// | `thumbnails` | array of strings | the side files in `thumbnails/` the models have (a model without one is normal; a listed file that is missing is warned about) |
///
/// Other keys are kept as read and written back, so fields reserved for future use survive.
///
/// A settings file without `archiveSHA256` is refused on open (the archive cannot be checked),
/// except in the one form the Objective-C app wrote, before this program existed: a dictionary
/// whose only entry is `version` (``isObjectiveCForm``).
public struct DocumentSettings: Hashable, Sendable {
    /// The key names.
    public enum Key {
        /// `version`.
        public static let version = "version"
        /// `format`.
        public static let format = "format"
        /// `writer`.
        public static let writer = "writer"
        /// `generation`.
        public static let generation = "generation"
        /// `archive`.
        public static let archive = "archive"
        /// `archiveLength`.
        public static let archiveLength = "archiveLength"
        /// `archiveSHA256`.
        public static let archiveSHA256 = "archiveSHA256"
        /// `modelCount`.
        public static let modelCount = "modelCount"
        /// `thumbnails`.
        public static let thumbnails = "thumbnails"
        /// Every key this program writes.
        public static let all = [version, format, writer, generation, archive, archiveLength, archiveSHA256, modelCount, thumbnails]
    }

    /// `"ModelDocument"`, the `format` value.
    public static let formatIdentifier = "ModelDocument"
    /// The `writer` value this program writes.
    public static let writerIdentifier = "swift-typedstream ModelDocument 1.0"

    /// The document version number as stored (may be newer than this program understands).
    public var version: Int
    /// `format`, if present.
    public var format: String?
    /// `writer`, if present.
    public var writer: String?
    /// `generation` (0 when absent).
    public var generation: Int
    /// `archive`, if present.
    public var archiveFile: String?
    /// `archiveLength`, if present.
    public var archiveLength: Int?
    /// `archiveSHA256`, if present.
    public var archiveSHA256: String?
    /// `modelCount`, if present.
    public var modelCount: Int?
    /// `thumbnails`: the side-file names recorded by the last save; `nil` when not recorded
    /// (documents from the Objective-C app or older versions of this program).
    public var thumbnailFiles: [String]?
    /// Whether the file was exactly the Objective-C app's form: a dictionary holding `version`
    /// and nothing else (no checksum; accepted without one).
    public private(set) var isObjectiveCForm = false
    /// Keys this program does not know, kept as read.
    public var otherEntries: [String: SettingsValue] = [:]

    /// Creates settings for `version`.
    public init(version: Int, generation: Int = 0) {
        self.version = version
        self.generation = generation
        self.format = Self.formatIdentifier
        self.writer = Self.writerIdentifier
    }

    /// Parses a settings file. Throws ``ModelDocumentError`` `malformedSettings` when it is not a
    /// dictionary or lacks `version`, `invalidVersion` when `version` is not a whole number.
    public init(plist bytes: [UInt8], path: String? = nil) throws(ModelDocumentError) {
        var entries = try SettingsValue.parseDictionary(bytes, path: path, code: .malformedSettings)
        isObjectiveCForm = entries.count == 1 && entries[Key.version] != nil
        guard let versionValue = entries.removeValue(forKey: Key.version) else {
            throw ModelDocumentError(.malformedSettings, path: path, "no '\(Key.version)' entry: cannot tell the document version")
        }
        guard let version = versionValue.integerValue else {
            throw ModelDocumentError(.invalidVersion, path: path, "'\(Key.version)' is \(versionValue), not a whole number")
        }
        self.version = version
        format = entries.removeValue(forKey: Key.format)?.stringValue
        writer = entries.removeValue(forKey: Key.writer)?.stringValue
        generation = entries.removeValue(forKey: Key.generation)?.integerValue ?? 0
        archiveFile = entries.removeValue(forKey: Key.archive)?.stringValue
        archiveLength = entries.removeValue(forKey: Key.archiveLength)?.integerValue
        archiveSHA256 = entries.removeValue(forKey: Key.archiveSHA256)?.stringValue
        modelCount = entries.removeValue(forKey: Key.modelCount)?.integerValue
        if let list = entries[Key.thumbnails]?.arrayValue {
            let names = list.compactMap(\.stringValue)
            if names.count == list.count {
                thumbnailFiles = names
                entries.removeValue(forKey: Key.thumbnails)
            }
        }
        otherEntries = entries
    }

    /// The settings as an XML property list.
    public func plistBytes() throws(ModelDocumentError) -> [UInt8] {
        var entries = otherEntries
        entries[Key.version] = .integer(version)
        entries[Key.generation] = .integer(generation)
        if let format { entries[Key.format] = .string(format) }
        if let writer { entries[Key.writer] = .string(writer) }
        if let archiveFile { entries[Key.archive] = .string(archiveFile) }
        if let archiveLength { entries[Key.archiveLength] = .integer(archiveLength) }
        if let archiveSHA256 { entries[Key.archiveSHA256] = .string(archiveSHA256) }
        if let modelCount { entries[Key.modelCount] = .integer(modelCount) }
        if let thumbnailFiles { entries[Key.thumbnails] = .array(thumbnailFiles.map { .string($0) }) }
        return try SettingsValue.xmlBytes(entries)
    }

    /// The version as a ``DocumentVersion``. Throws ``ModelDocumentError`` `newerVersion` when it
    /// is newer than ``DocumentVersion/newestUnderstood``, `invalidVersion` when below 1.
    public func documentVersion(path: String? = nil) throws(ModelDocumentError) -> DocumentVersion {
        if let known = DocumentVersion(rawValue: version) { return known }
        if version > DocumentVersion.newestUnderstood.rawValue {
            throw ModelDocumentError(.newerVersion, path: path,
                                     "document version \(version) is newer than this program understands (1…\(DocumentVersion.newestUnderstood.rawValue)); nothing was changed")
        }
        throw ModelDocumentError(.invalidVersion, path: path, "document version \(version) does not exist (versions start at 1)")
    }
}
