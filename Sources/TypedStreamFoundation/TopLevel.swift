import TypedStream

/// One top-level group of an archive, decoded: a root object, or any other group kept whole
/// (NSColorList files hold `"@i"` and `"@@"` groups; NeXT nibs hold several).
///
/// ```swift
/// let decoder = Unarchiver(archive: archive, registry: .foundation)
/// let items = try decoder.decodeTopLevelItems()
/// let encoder = Archiver(header: archive.header)
/// try encoder.encodeTopLevelItems(items)
/// let bytes = try encoder.encodedBytes()     // the same bytes for Apple-written archives
/// ```
public enum TopLevelItem {
    /// A `"@"` group: the object (typed where its class is registered, else generic), or nil.
    case object(AnyObject?)
    /// Any other group, with the decoded instances of the objects it refers to (by the identity
    /// of their ``ArchivedObject``), as ``GenericObject`` keeps them.
    case group(ArchivedGroup, objects: [ObjectIdentifier: AnyObject])
}

extension ObjectDecoder {
    /// Decodes every remaining top-level group: each `"@"` group as an object, every other
    /// group whole. Call it before anything else has been decoded at the top level.
    /// Throws ``CoderError`` from the class codecs.
    public func decodeTopLevelItems() throws(CoderError) -> [TopLevelItem] {
        var items: [TopLevelItem] = []
        while let item = try decodeNextTopLevelItem() { items.append(item) }
        return items
    }

    /// Decodes the next top-level group, as ``decodeTopLevelItems()`` decodes each, or returns
    /// nil when none is left. A caller that handles each item as it comes keeps the memory of
    /// one item, not of all: an archive of millions of small top-level groups then stays small.
    /// Throws ``CoderError`` from the class codecs.
    public func decodeNextTopLevelItem() throws(CoderError) -> TopLevelItem? {
        guard hasMoreGroups else { return nil }
        if nextGroupHasTypeString("@") { return .object(try decodeObject()) }
        let group = try decodeGroup()
        var objects: [ObjectIdentifier: AnyObject] = [:]
        for value in group.values { try collectObjects(in: value, into: &objects) }
        return .group(group, objects: objects)
    }

    private func collectObjects(in value: ArchivedValue, into objects: inout [ObjectIdentifier: AnyObject]) throws(CoderError) {
        switch value {
        case .object(let entry?, _):
            objects[ObjectIdentifier(entry)] = try object(for: entry)
        case .array(let values), .structure(let values):
            for v in values { try collectObjects(in: v, into: &objects) }
        default:
            break
        }
    }
}

extension Archiver {
    /// Encodes top-level items in order: objects with ``encodeRootObject(_:)``, other groups
    /// with ``encodeGroup(_:objects:)``. Throws ``CoderError`` from the class codecs.
    public func encodeTopLevelItems(_ items: [TopLevelItem]) throws(CoderError) {
        for item in items {
            switch item {
            case .object(let object): try encodeRootObject(object)
            case .group(let group, let objects): try encodeGroup(group, objects: objects)
            }
        }
    }
}
