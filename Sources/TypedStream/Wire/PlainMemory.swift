/// Memory for plain-data elements (no references, nothing to deinitialize), owned by a class so
/// that value types built on it (``SlotTable``, ``OutputBytes``) share it until one of them
/// changes: the owner tests `isKnownUniquelyReferenced` and copies first (copy on write). The
/// count of initialized elements belongs to the value, not to the memory.
final class PlainMemory<Element>: @unchecked Sendable {
    /// The first element.
    let base: UnsafeMutablePointer<Element>
    /// Room, in elements.
    let capacity: Int

    /// Uninitialized memory for `capacity` elements.
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}
