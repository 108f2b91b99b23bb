// Graph entries free what they refer to by a loop, not by nested deinits (see HoldsObjects): a
// chain of 100 000 objects, each referring to the one before, or a class chain as long, is a
// valid archive.

extension ArchivedObject {
    /// Hands over every object and class its groups refer to. (Its own class is not handed
    /// over: classes free their superclasses by the same loop.)
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        for group in storedGroups {
            for index in 0..<group.valueCount { group.value(at: index).appendEntries(to: &pending) }
        }
        storedGroups = []
    }
}

extension ArchivedClass {
    /// Hands over the superclass.
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        pending.appendObject(superclass)
        superclass = nil
    }
}

extension ArchivedValue {
    /// Appends the graph entries (objects and classes) this value refers to, inside
    /// arrays and structs too (their depth is bounded by the type string's).
    func appendEntries(to pending: inout [AnyObject]) {
        switch self {
        case .object(let object, _): pending.appendObject(object)
        case .objectSlotClass(let entry, _): pending.append(entry)
        case .classObject(let entry, _): pending.appendObject(entry)
        case .array(let values), .structure(let values): for value in values { value.appendEntries(to: &pending) }
        default: break
        }
    }
}
