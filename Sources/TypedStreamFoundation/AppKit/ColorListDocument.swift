import TypedStream

/// A colour-list file (`.clr`, written by `-[NSColorList writeToFile:]`): named colours in order.
///
/// The file is not one root object but a run of top-level groups:
///
/// ```text
/// "i"    the file format version: 1
/// "@i"   an object (nil in every known file; its meaning is unknown, kept as read), the count
/// count × "@@"   the colour (an NSColor), then its name (an NSString)
/// ```
///
/// The same colour object may appear under several names; it is then written once and referred
/// to afterwards, as AppKit does. Reading and writing a real file gives the same bytes.
///
/// ```swift
/// var list = try ColorListDocument(bytes: clr)
/// list["LightGreen"]?.components                        // [0.5647, 0.9333, 0.5647, 1]
/// list.entries.append(.init(name: "Red", color: ColorObject(.calibratedRGB(red: 1, green: 0, blue: 0, alpha: 1))))
/// let bytes = try list.encodedBytes()
/// ```
public struct ColorListDocument {
    /// One named colour.
    public struct Entry {
        /// The name's string object (kept so its class and bytes are written back as read).
        public var nameObject: StringObject
        /// The colour.
        public var color: ColorObject

        /// Creates an entry with a new `NSString` for `name`.
        public init(name: String, color: ColorObject) {
            self.nameObject = StringObject(name)
            self.color = color
        }

        /// Creates an entry from an existing string object.
        public init(nameObject: StringObject, color: ColorObject) {
            self.nameObject = nameObject
            self.color = color
        }

        /// The colour's name (the key in the list).
        public var name: String {
            get { nameObject.string }
            set { nameObject = StringObject(newValue, mutable: nameObject.isMutable) }
        }
    }

    /// The file format versions this reader understands.
    public static let supportedFormatVersions: ClosedRange<Int32> = 1...1

    /// The stream header (Apple's little-endian v4 header by default).
    public var header: StreamHeader = .apple
    /// The value of the first group, the file format version (1).
    public var formatVersion: Int32 = 1
    /// The object of the `"@i"` group: nil in every known file; kept as decoded.
    public var leadingObject: AnyObject?
    /// The named colours in file order.
    public var entries: [Entry] = []

    /// Creates a list of `entries` with Apple's header.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Reads a `.clr` file. Throws ``CoderError``: `malformed` for bad bytes,
    /// `unsupportedVersion` for an unknown format version, `typeMismatch` / `unexpectedClass` /
    /// `badContents` when the groups are not a colour list, `trailingValues` for extra groups.
    public init(bytes: [UInt8], registry: ClassRegistry = .foundation) throws(CoderError) {
        let archive: Archive
        do { archive = try ArchiveReader.read(bytes) } catch { throw CoderError(error) }
        try self.init(archive: archive, registry: registry)
    }

    /// Reads a colour list from an archive graph (see ``init(bytes:registry:)``).
    public init(archive: Archive, registry: ClassRegistry = .foundation) throws(CoderError) {
        let decoder = Unarchiver(archive: archive, registry: registry)
        header = archive.header
        formatVersion = try decoder.decode()
        guard Self.supportedFormatVersions.contains(formatVersion) else {
            throw CoderError(.unsupportedVersion, at: archive.groups.first?.offset, "colour-list format version \(formatVersion) is not understood (supported: 1)")
        }
        let countOffset = archive.groups.count > 1 ? archive.groups[1].offset : nil
        let head = try decoder.decodeValues(ofObjCTypes: "@i")
        leadingObject = try decoder.object(for: head[0])
        let count = try Int32(archivedValue: head[1])
        guard count >= 0 else { throw CoderError(.badContents, at: countOffset, "colour count \(count) is negative") }
        entries = []
        for index in 0..<Int(count) {
            let offset = index + 2 < archive.groups.count ? archive.groups[index + 2].offset : nil
            let pair = try decoder.decodeValues(ofObjCTypes: "@@")
            guard let color = try decoder.object(for: pair[0]) as? ColorObject else {
                throw CoderError(.unexpectedClass, at: offset, "colour-list entry \(index): the colour is nil or not an NSColor this library understands")
            }
            guard let name = try decoder.object(for: pair[1]) as? StringObject else {
                throw CoderError(.unexpectedClass, at: offset, "colour-list entry \(index): the name is nil or not an NSString")
            }
            entries.append(Entry(nameObject: name, color: color))
        }
        if decoder.hasMoreGroups {
            throw CoderError(.trailingValues, at: archive.groups[Int(count) + 2].offset, "groups left over after \(count) colours")
        }
    }

    /// The colour of the first entry named `name`.
    public subscript(name: String) -> ColorObject? {
        entries.first { $0.name == name }?.color
    }

    /// The names in order.
    public var names: [String] { entries.map(\.name) }

    /// The file as a graph. Throws ``CoderError`` `invalidValue` when an entry cannot be written.
    public func encodedArchive() throws(CoderError) -> Archive {
        try encoder().archive
    }

    /// The file's bytes. Throws ``CoderError`` `invalidValue` when an entry cannot be written.
    public func encodedBytes() throws(CoderError) -> [UInt8] {
        try encoder().encodedBytes()
    }

    private func encoder() throws(CoderError) -> Archiver {
        guard let count = Int32(exactly: entries.count) else {
            throw CoderError(.invalidValue, "a colour list of \(entries.count) entries is too large")
        }
        let encoder = Archiver(header: header)
        try encoder.encode(formatVersion)
        try encoder.encodeValues([encoder.archivedValue(for: leadingObject), .integer(Int64(count), width: nil)], ofObjCTypes: "@i")
        for entry in entries {
            try encoder.encodeValues([encoder.archivedValue(for: entry.color), encoder.archivedValue(for: entry.nameObject)], ofObjCTypes: "@@")
        }
        return encoder
    }
}
