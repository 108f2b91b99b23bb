import TypedStream
import TypedStreamFoundation

extension ClassRegistry {
    /// The entries of this registry whose codecs have a keyed layout (conform to
    /// ``KeyedArchiveRepresentable``): what the keyed export decodes with. Every other class
    /// decodes to a ``GenericObject`` straight from the archive, its groups as archived and the
    /// objects they refer to the same instances as everywhere else, so each archived object is
    /// one `$objects` entry.
    public var keyedLayoutsOnly: ClassRegistry {
        var kept = ClassRegistry()
        for name in classNames {
            guard let type = type(forClassName: name), type is any KeyedArchiveRepresentable.Type else { continue }
            kept.register(type, forClassName: name)
        }
        return kept
    }
}

/// A copy of top-level items in which every typed object without a keyed layout is a
/// ``GenericObject``: the items are archived together and decoded again with
/// `ClassRegistry.foundation.keyedLayoutsOnly`, so objects shared in the items stay shared.
enum KeyedGenericCopy {
    /// The copy of `items`. Throws ``KeyedArchiveError`` (`unsupportedObject`) when they cannot
    /// be archived.
    static func items(_ items: [TopLevelItem]) throws(KeyedArchiveError) -> [TopLevelItem] {
        do {
            let archiver = Archiver()
            try archiver.encodeTopLevelItems(items)
            let decoder = try Unarchiver(bytes: archiver.encodedBytes(), registry: ClassRegistry.foundation.keyedLayoutsOnly)
            return try decoder.decodeTopLevelItems()
        } catch {
            throw KeyedArchiveError(.unsupportedObject, "the objects cannot be archived to be exported generically: \(error.description)")
        }
    }
}
