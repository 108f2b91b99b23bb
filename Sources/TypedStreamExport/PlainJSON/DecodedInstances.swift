import TypedStream
import TypedStreamFoundation

/// Every object of an archive decoded once, by a class registry, kept by object-table slot: what
/// ``PlainJSONContext/typedObject(_:registry:)`` hands out instead of decoding a graph of each
/// object and what it refers to.
///
/// The archive is decoded with the streaming ``Unarchiver`` (every top-level group, as
/// `decodeTopLevelItems()` does); an instance is kept only where its class name as archived is
/// the one the index holds for its slot. When the decode throws there are no instances, and each
/// object takes the per-object way — so the typed objects, and the output made from them, are
/// the same either way.
struct DecodedInstances {
    /// The instance per object-table slot (`nil`: a class, a C string, or not decoded).
    private var instances: [AnyObject?]

    /// Decodes the archive `index` was read from with `registry`; `nil` when the decode throws.
    init?(index: ArchiveIndex, registry: ClassRegistry) {
        guard let unarchiver = try? Unarchiver(bytes: index.bytes, registry: registry),
              (try? unarchiver.decodeTopLevelItems()) != nil else { return nil }
        var instances = [AnyObject?](repeating: nil, count: index.slotCount)
        unarchiver.forEachDecodedObjectInSlot { slot, className, instance in
            guard slot >= 0, slot < instances.count, index.kind(ofSlot: slot) == .object,
                  let classSlot = index.classSlot(ofObject: slot), let name = index.text(ofSlot: classSlot),
                  name.elementsEqual(className) else { return }
            instances[slot] = instance
        }
        self.instances = instances
    }

    /// The instance decoded for the object in `slot`, `nil` when there is none.
    func instance(ofSlot slot: Int) -> AnyObject? {
        slot >= 0 && slot < instances.count ? instances[slot] : nil
    }
}
