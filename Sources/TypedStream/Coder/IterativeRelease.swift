/// An object that holds other objects and hands them over when it is freed, so that a long chain
/// of holders (object 40 000 refers to 39 999, which refers to 39 998 …: a valid archive of a few
/// hundred kilobytes) is freed by a loop instead of 40 000 nested `deinit`s, which overflow the
/// stack.
///
/// A holder's `deinit` calls ``releaseHeldObjects(of:)``:
///
/// ```swift
/// final class Box: ArchivableObject, HoldsObjects {
///     var contents: [AnyObject?] = []
///     func moveHeldObjects(into pending: inout [AnyObject]) {
///         pending.appendObjects(of: &contents)
///     }
///     deinit { releaseHeldObjects(of: self) }
///     …
/// }
/// ```
public protocol HoldsObjects: AnyObject {
    /// Moves every object this one holds into `pending`, leaving it holding none.
    func moveHeldObjects(into pending: inout [AnyObject])
}

/// Frees what `holder` holds without recursion: objects whose last reference is in the worklist
/// hand over their own held objects before they are freed, so each `deinit` finds nothing left
/// to free in turn. Call it from a holder's `deinit`.
public func releaseHeldObjects(of holder: some HoldsObjects) {
    var pending: [AnyObject] = []
    holder.moveHeldObjects(into: &pending)
    // The last class found to hold nothing: the elements of an array are mostly of one class,
    // and a protocol cast costs a conformance lookup (about 200 instructions) each.
    var leafClass: ObjectIdentifier? = nil
    while !pending.isEmpty {
        // Only the last reference frees the object: then its contents come here first. (The
        // test is made in place: a copy taken out of the array first would never be unique.)
        guard isKnownUniquelyReferenced(&pending[pending.count - 1]) else {
            pending.removeLast()
            continue
        }
        let next = pending.removeLast()
        let nextClass = ObjectIdentifier(type(of: next))
        if nextClass == leafClass { continue }
        if let inner = next as? HoldsObjects {
            inner.moveHeldObjects(into: &pending)
        } else {
            leafClass = nextClass
        }
    }
}

extension Array where Element == AnyObject {
    /// Moves the non-nil objects of `objects` that hold others (``HoldsObjects``) here and
    /// empties it. The rest hold nothing, so they are freed right here, with `objects`: their
    /// release cannot recurse.
    public mutating func appendObjects(of objects: inout [AnyObject?]) {
        var sorter = HeldObjectSorter()
        for case let object? in objects where sorter.holdsObjects(object) { append(object) }
        objects = []
    }

    /// Moves the values of `objects` here and empties it.
    public mutating func appendObjects<Key>(of objects: inout [Key: AnyObject]) {
        append(contentsOf: objects.values)
        objects = [:]
    }

    /// Appends `object` if it is not nil.
    public mutating func appendObject(_ object: AnyObject?) {
        if let object { append(object) }
    }
}

/// Tells objects that hold others (``HoldsObjects``, handed to ``releaseHeldObjects(of:)``'s
/// worklist) from those that hold none (freed where they stand), remembering the last class of
/// each: the elements of an array are mostly of one class, and a protocol cast costs a
/// conformance lookup (about 200 instructions) each.
public struct HeldObjectSorter {
    private var leafClass: ObjectIdentifier?
    private var holderClass: ObjectIdentifier?

    /// A sorter that knows no class yet.
    public init() {}

    /// Whether `object` is a ``HoldsObjects``.
    @inline(__always)
    public mutating func holdsObjects(_ object: AnyObject) -> Bool {
        let objectClass = ObjectIdentifier(type(of: object))
        if objectClass == leafClass { return false }
        if objectClass == holderClass { return true }
        if object is HoldsObjects {
            holderClass = objectClass
            return true
        }
        leafClass = objectClass
        return false
    }
}
