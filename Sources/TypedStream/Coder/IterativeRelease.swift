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
    var kinds = HolderKinds()
    while !pending.isEmpty {
        // Only the last reference frees the object: then its contents come here first. (The
        // test is made in place: a copy taken out of the array first would never be unique.)
        guard isKnownUniquelyReferenced(&pending[pending.count - 1]) else {
            pending.removeLast()
            continue
        }
        let next = pending.removeLast()
        kinds.holderType(of: next)?.moveHeldObjects(of: next, into: &pending)
    }
}

extension HoldsObjects {
    /// Moves what `object`, which is of this very class, holds into `pending` (called through
    /// a holder's type found once per class, see ``HolderKinds``).
    static func moveHeldObjects(of object: AnyObject, into pending: inout [AnyObject]) {
        unsafeDowncast(object, to: Self.self).moveHeldObjects(into: &pending)
    }
}

/// The classes met by one ``releaseHeldObjects(of:)``, each with its ``HoldsObjects`` type or
/// `nil` for a class that holds nothing: a protocol cast costs a conformance lookup (about 200
/// instructions), and a tree of containers holds objects of a few classes many times over.
struct HolderKinds {
    /// The classes met, most recent last; at most ``room``.
    private var classes: [(id: ObjectIdentifier, holder: (any HoldsObjects.Type)?)] = []
    /// The class met last and its type (objects of one class often come in a row).
    private var last: (id: ObjectIdentifier, holder: (any HoldsObjects.Type)?)?
    /// How many classes are remembered; beyond, the oldest is forgotten.
    private static let room = 8

    /// The ``HoldsObjects`` type of `object`'s class, `nil` when it holds nothing.
    mutating func holderType(of object: AnyObject) -> (any HoldsObjects.Type)? {
        let id = ObjectIdentifier(type(of: object))
        if let last, last.id == id { return last.holder }
        let holder: (any HoldsObjects.Type)?
        if let known = classes.last(where: { $0.id == id }) {
            holder = known.holder
        } else {
            holder = type(of: object) as? any HoldsObjects.Type
            if classes.count == Self.room { classes.removeFirst() }
            classes.append((id, holder))
        }
        last = (id, holder)
        return holder
    }
}

extension Array where Element == AnyObject {
    /// Moves the non-nil objects of `objects` here and empties it (each moved, not copied).
    /// Most arrays hold objects of one class: when the class of the first object looked at
    /// holds nothing (one conformance lookup per call), its objects are freed right here
    /// instead, as their release cannot recurse.
    public mutating func appendObjects(of objects: inout [AnyObject?]) {
        var taken = [AnyObject?].takingAll(of: &objects)
        var leafClass: ObjectIdentifier?
        var lookedUp = false
        while let last = taken.popLast() {
            guard let object = last else { continue }
            let objectClass = ObjectIdentifier(type(of: object))
            if objectClass == leafClass { continue }
            if !lookedUp {
                lookedUp = true
                if !(object is HoldsObjects) {
                    leafClass = objectClass
                    continue
                }
            }
            append(object)
        }
    }

    /// Moves the values of `objects` here and empties it.
    public mutating func appendObjects<Key>(of objects: inout [Key: AnyObject]) {
        append(contentsOf: objects.values)
        objects = [:]
    }

    /// Appends `object` if it is not nil.
    @inlinable
    public mutating func appendObject(_ object: AnyObject?) {
        if let object { append(object) }
    }
}

extension Array {
    /// The elements of `array`, which is left empty. Taken one by one from the end of the
    /// result (`popLast()`), each element is moved out rather than copied: releasing a large
    /// container then costs one reference count per element, not three.
    @inlinable
    public static func takingAll(of array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        return taken
    }
}
