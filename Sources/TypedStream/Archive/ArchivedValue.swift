import ObjCTypeEncoding

/// How a shared string was written, when known: literally (with the width of its length) or as a
/// reference (to a slot, with the width of the label). `nil` decisions mean "as NSArchiver would".
public enum SharedStringDecision: Hashable, Sendable {
    /// Written literally; its length had this width.
    case literal(length: IntegerWidth)
    /// Written as a reference to shared-string slot `index` with this label width.
    case reference(index: Int, width: IntegerWidth)
}

/// One value of a group, in the archive graph. Objects, classes and C strings are shared by
/// identity (the same instance wherever the archive refers to the same table entry); everything
/// else is a plain value. Optional wire decisions record how the value was written so the graph
/// can be written back byte for byte; `nil` means "decide as NSArchiver does".
///
/// Not `Sendable`, as the graph entries it may hold are not (see ``ArchivedObject``).
public enum ArchivedValue {
    /// `s S i I l L q Q`: the value (sign-extended; reinterpret unsigned types by their width).
    case integer(Int64, width: IntegerWidth?)
    /// `f`.
    case float(Float, form: RealForm?)
    /// `d`.
    case double(Double, form: RealForm?)
    /// `c C B`: one raw byte.
    case byte(UInt8)
    /// `[Nc]`, `[NC]` or a union: raw bytes (a slice of the input; no copy).
    case bytes(ArraySlice<UInt8>)
    /// `+`: counted bytes, `nil` for NULL.
    case unsharedString(ArraySlice<UInt8>?, lengthWidth: IntegerWidth?)
    /// `%` or `:`: a shared string, `nil` for NULL.
    case sharedString(ArraySlice<UInt8>?, decision: SharedStringDecision?)
    /// `*`: a C string (shared by identity in the object table), `nil` for NULL.
    case cString(ArchivedCString?, referenceWidth: IntegerWidth?)
    /// `@`: an object, `nil` for nil. `referenceWidth` is the label width where written as a reference.
    case object(ArchivedObject?, referenceWidth: IntegerWidth?)
    /// `@` holding a reference to a *class* entry (seen in NeXTSTEP nibs).
    case objectSlotClass(ArchivedClass, referenceWidth: IntegerWidth?)
    /// `#`: a class, `nil` for Nil.
    case classObject(ArchivedClass?, referenceWidth: IntegerWidth?)
    /// `[N t]` for a non-byte `t`.
    case array([ArchivedValue])
    /// `{…}`: the members in order.
    case structure([ArchivedValue])
    /// `!`: nothing on the wire.
    case ignored
}

/// One typed group: a type string and one value per top-level type in it.
///
/// What groups that refer to the same type string in the same way have in common — the type
/// string, its types and how it was written — is kept once, in a ``GroupHead`` they share; a
/// reader makes one head per way a type string is written (an array of 60 000 objects has
/// 60 000 `"@"` groups and two heads). Setting one of those properties gives the group a head
/// of its own, so groups stay plain values. (Not `Sendable`: its values may hold graph
/// entries, see ``ArchivedObject``.)
public struct ArchivedGroup {
    /// The type string, its types and how it was written (shared; never changed in place).
    var head: GroupHead
    /// The values, one per type, as they are kept (see ``values``).
    var storage: GroupValues
    /// The byte offset of the group in the source archive, when read from one.
    public var offset: Int?

    /// Creates a group.
    public init(typeString: ArraySlice<UInt8>?, types: [ObjCType], values: [ArchivedValue], typeStringDecision: SharedStringDecision? = nil, offset: Int? = nil) {
        self.init(head: GroupHead(typeString: typeString, types: types, decision: typeStringDecision), storage: GroupValues(values), offset: offset)
    }

    /// Creates a group with the head `head` whose values are kept as `storage`.
    init(head: GroupHead, storage: GroupValues, offset: Int?) {
        self.head = head
        self.storage = storage
        self.offset = offset
    }

    /// The exact type-string bytes, or `nil` for a streamer-3 object written with no type string.
    public var typeString: ArraySlice<UInt8>? {
        get { head.typeString }
        set { head = GroupHead(typeString: newValue, types: head.types, decision: head.decision) }
    }

    /// The types the type string splits into (`[.object]` for an untyped streamer-3 group).
    public var types: [ObjCType] {
        get { head.types }
        set { head = GroupHead(typeString: head.typeString, types: newValue, decision: head.decision) }
    }

    /// How the type string was written, when known.
    public var typeStringDecision: SharedStringDecision? {
        get { head.decision }
        set { head = GroupHead(typeString: head.typeString, types: head.types, decision: newValue) }
    }

    /// The values, one per type. A group of one value — most groups (`@`, `i`, `+`) — keeps it
    /// in place rather than in an array of its own (two of the four allocations per string of
    /// an array of strings); reading this property then makes the array, so code that reads
    /// many groups should use ``valueCount`` and ``value(at:)``.
    public var values: [ArchivedValue] {
        get { storage.array }
        set { storage = GroupValues(newValue) }
    }

    /// The number of values.
    public var valueCount: Int { storage.count }

    /// Value `index` (which must exist), without making an array.
    public func value(at index: Int) -> ArchivedValue { storage[index] }

    /// The type string as text (`"@"` for an untyped streamer-3 group).
    public var typeText: String {
        typeString.map { String(decoding: $0, as: UTF8.self) } ?? "@"
    }
}

/// The part of a group that many groups share: its type string, the types it splits into and
/// how it was written (see ``ArchivedGroup``). Immutable.
final class GroupHead: Sendable {
    /// The exact type-string bytes, `nil` for an untyped streamer-3 group.
    let typeString: ArraySlice<UInt8>?
    /// The types the type string splits into.
    let types: [ObjCType]
    /// How the type string was written, when known.
    let decision: SharedStringDecision?

    /// A head of these parts.
    init(typeString: ArraySlice<UInt8>?, types: [ObjCType], decision: SharedStringDecision?) {
        self.typeString = typeString
        self.types = types
        self.decision = decision
    }

    /// This head, or one like it without a recorded decision (for a group written anew).
    var undecided: GroupHead {
        decision == nil ? self : GroupHead(typeString: typeString, types: types, decision: nil)
    }
}

/// The values of a group: one in place, or any other number in an array.
enum GroupValues {
    /// Exactly one value.
    case one(ArchivedValue)
    /// Any number but one.
    case many([ArchivedValue])

    /// The values of `values`, the one in place if there is one.
    init(_ values: [ArchivedValue]) {
        self = values.count == 1 ? .one(values[0]) : .many(values)
    }

    /// The values as an array.
    var array: [ArchivedValue] {
        switch self {
        case .one(let value): [value]
        case .many(let values): values
        }
    }

    /// The number of values.
    var count: Int {
        switch self {
        case .one: 1
        case .many(let values): values.count
        }
    }

    /// Value `index`, which must exist.
    subscript(index: Int) -> ArchivedValue {
        switch self {
        case .one(let value):
            precondition(index == 0, "group value index out of range")
            return value
        case .many(let values):
            return values[index]
        }
    }
}

/// A class entry of the object table: name, version and superclass.
///
/// Not `Sendable`, like every graph entry (see ``ArchivedObject``).
///
/// Its optional properties are spelled `Optional<…>` on purpose, here and in
/// ``ArchivedObject``: a `T?` property starts as `nil` before an initializer runs, so setting it
/// in one is a change of a class property, checked for exclusive access at run time (a call
/// each — several per object a reader makes); an `Optional<T>` one is only initialized there.
/// (Measured with swiftc 6.3 `-O`: an initializer setting four `T?` properties of a final class
/// calls `swift_beginAccess` four times; with `Optional<T>`, never.)
public final class ArchivedClass: HoldsObjects {
    /// The class name.
    public var name: ArraySlice<UInt8>
    /// How the name was written, when known.
    public var nameDecision: Optional<SharedStringDecision>
    /// The class version.
    public var version: Int64
    /// The width the version was written with, when known.
    public var versionWidth: Optional<IntegerWidth>
    /// The superclass, `nil` for a root class.
    public var superclass: Optional<ArchivedClass>
    /// The label width of the superclass link where it was written as a reference.
    public var superclassReferenceWidth: Optional<IntegerWidth>
    /// The object-table slot in the source archive, when read from one.
    public var sourceIndex: Optional<Int>

    /// Creates a class entry.
    public init(name: some Collection<UInt8>, version: Int64, superclass: ArchivedClass? = nil) {
        self.name = (name as? ArraySlice<UInt8>) ?? ArraySlice(name)
        self.nameDecision = nil
        self.version = version
        self.versionWidth = nil
        self.superclass = superclass
        self.superclassReferenceWidth = nil
        self.sourceIndex = nil
    }

    /// A class entry as a reader makes it at the end of its chain, every field set at once
    /// (setting them one by one afterwards costs a runtime exclusivity check each).
    init(name: ArraySlice<UInt8>, nameDecision: SharedStringDecision, version: Int64, versionWidth: IntegerWidth, sourceIndex: Int,
         superclass: ArchivedClass?, superclassReferenceWidth: IntegerWidth?) {
        self.name = name
        self.nameDecision = nameDecision
        self.version = version
        self.versionWidth = versionWidth
        self.sourceIndex = sourceIndex
        self.superclass = superclass
        self.superclassReferenceWidth = superclassReferenceWidth
    }

    deinit { releaseHeldObjects(of: self) }

    /// The name as text.
    public var nameText: String { String(decoding: name, as: UTF8.self) }

    /// This class and its superclasses, most derived first. Stops at a repeated class.
    public var chain: [ArchivedClass] {
        var result: [ArchivedClass] = []
        result.reserveCapacity(Self.shortChain)  // one allocation for any usual chain
        // Chains are short: a repeat is looked for in the result itself, and only a long
        // chain gets a set (so a chain of n classes costs O(n), however long).
        var seen: Set<ObjectIdentifier>? = nil
        var current: ArchivedClass? = self
        while let c = current {
            if seen != nil {
                guard seen?.insert(ObjectIdentifier(c)).inserted == true else { break }
            } else {
                guard !result.contains(where: { $0 === c }) else { break }
            }
            result.append(c)
            if seen == nil, result.count == Self.shortChain { seen = Set(result.map(ObjectIdentifier.init)) }
            current = c.superclass
        }
        return result
    }

    /// The chain length up to which ``chain`` finds a repeat by looking through what it has.
    private static let shortChain = 16
}

/// A C-string entry of the object table. Not `Sendable`, like every graph entry (see
/// ``ArchivedObject``). (Its optional properties are spelled `Optional<…>` for the reason given
/// at ``ArchivedClass``.)
public final class ArchivedCString {
    /// The text.
    public var text: ArraySlice<UInt8>
    /// How the text's shared string was written, when known.
    public var textDecision: Optional<SharedStringDecision>
    /// The object-table slot in the source archive, when read from one.
    public var sourceIndex: Optional<Int>

    /// Creates a C-string entry.
    public init(text: some Collection<UInt8>) {
        self.text = (text as? ArraySlice<UInt8>) ?? ArraySlice(text)
        self.textDecision = nil
        self.sourceIndex = nil
    }

    /// A C-string entry as a reader meets it, every field set at once.
    init(text: ArraySlice<UInt8>, textDecision: SharedStringDecision, sourceIndex: Int) {
        self.text = text
        self.textDecision = textDecision
        self.sourceIndex = sourceIndex
    }

    /// The text as a Swift string.
    public var string: String { String(decoding: text, as: UTF8.self) }
}

/// An object entry of the object table: its class, its groups, and where it came from.
///
/// This is the *generic* form every object has in the graph, whatever its class. Class codecs
/// read typed objects from it; an object of a class nobody knows stays generic and is written
/// back exactly.
///
/// It belongs to the ``Archive`` that owns it when read: kept past that archive's last copy,
/// it is detached (``isDetached``) — see ``Archive`` on why, and what is kept.
///
/// Not `Sendable`: graph entries are classes with settable properties and no lock, and an
/// owning archive's end changes its objects. One graph is for one thread (or task) at a time;
/// to work on an archive in several, hand each one the bytes (or an ``ArchiveIndex``, which is
/// `Sendable`) and read a graph there, or the values taken out of it.
///
/// (Its optional properties are spelled `Optional<…>` for the reason given at ``ArchivedClass``.)
public final class ArchivedObject: HoldsObjects {
    /// The object's class (its chain follows `superclass`).
    public var archivedClass: ArchivedClass
    /// The label width of the class link where it was written as a reference.
    public var classReferenceWidth: Optional<IntegerWidth>
    /// Streamer 3 only: the extra integer after the class chain.
    public var instanceSize: Optional<WireInteger>
    /// The contents: groups written by the class's `encodeWithCoder:`, superclass part first.
    ///
    /// Reading them from a detached object (see ``isDetached``) stops the program with a
    /// message: its contents went with its archive, and an empty list would pass for an object
    /// that wrote nothing. Setting them gives the object contents of its own again.
    public var groups: [ArchivedGroup] {
        get {
            if isDetached { Self.detachedUse(self) }
            return storedGroups
        }
        set {
            storedGroups = newValue
            isDetached = false
        }
        _modify {
            if isDetached { Self.detachedUse(self) }
            yield &storedGroups
        }
    }
    /// The contents, whether detached or not (what ``groups`` reads after its check).
    var storedGroups: [ArchivedGroup]
    /// Whether the object's contents were taken when the last copy of the ``Archive`` that
    /// owned it was freed (see ``Archive``): an object kept past its archive. Its class, slot
    /// and offsets stay; reading ``groups`` is a programmer error.
    @exclusivity(unchecked) public internal(set) var isDetached: Bool
    /// The object-table slot in the source archive, when read from one.
    public var sourceIndex: Optional<Int>
    /// The byte offset of the object's `0x84` in the source archive, when read from one.
    public var sourceOffset: Optional<Int>
    /// The byte offset of its end-of-object marker in the source, when read from one.
    public var endOffset: Optional<Int>

    /// Creates an object entry.
    public init(archivedClass: ArchivedClass, groups: [ArchivedGroup] = []) {
        self.archivedClass = archivedClass
        self.classReferenceWidth = nil
        self.instanceSize = nil
        self.storedGroups = groups
        self.isDetached = false
        self.sourceIndex = nil
        self.sourceOffset = nil
        self.endOffset = nil
    }

    /// An object entry as a reader makes it at the end of its class chain, its contents to come.
    init(archivedClass: ArchivedClass, classReferenceWidth: IntegerWidth?, sourceIndex: Int, sourceOffset: Int) {
        self.archivedClass = archivedClass
        self.classReferenceWidth = classReferenceWidth
        self.instanceSize = nil
        self.storedGroups = []
        self.isDetached = false
        self.sourceIndex = sourceIndex
        self.sourceOffset = sourceOffset
        self.endOffset = nil
    }

    deinit { releaseHeldObjects(of: self) }

    /// The name of the object's own class.
    public var className: String { archivedClass.nameText }

    /// Stops the program: `object`'s groups were read after its archive was freed.
    private static func detachedUse(_ object: ArchivedObject) -> Never {
        let slot = object.sourceIndex.map { " #\($0)" } ?? ""
        preconditionFailure("the groups of \(object.className) object\(slot) were read after its Archive was freed; keep the Archive (or the Unarchiver that read it) alive while you use its objects")
    }
}

/// A whole archive as a graph: its header and top-level groups.
///
/// Objects may refer to each other in cycles (an array that contains itself is a legal
/// archive), and reference counting alone never frees a cycle. So an archive read by
/// ``ArchiveReader`` (or salvaged, or read from lossless JSON) owns its objects: when the last
/// copy of the archive goes away, every object it owns is *detached* — its groups are taken,
/// which breaks every cycle, and it is marked ``ArchivedObject/isDetached``. An object nobody
/// else holds is then freed with the archive; one still held elsewhere keeps its class, slot
/// and offsets, but reading its ``ArchivedObject/groups`` stops the program with a message
/// instead of answering with an empty list, which would pass for an object that wrote
/// nothing.
///
/// So keep the archive (or the ``Unarchiver`` that read it) alive as long as you use its
/// objects; to keep one object's contents on their own, copy what you need (its groups are
/// plain values, but the objects they refer to belong to the same archive).
///
/// An archive made with ``init(header:groups:)`` owns nothing: its objects are freed by
/// reference counting alone (a cycle among them is never freed), and none is ever detached.
/// An object belongs to at most one owning archive.
///
/// Not `Sendable`, as its objects are not (see ``ArchivedObject``).
public struct Archive {
    /// The header.
    public var header: StreamHeader
    /// The top-level groups in order (usually one `"@"` group holding the root object).
    public var groups: [ArchivedGroup]
    /// The objects this archive owns (see the type's note on cycles).
    let ownedObjects: ArchivedObjectOwner?

    /// Creates an archive.
    public init(header: StreamHeader = .apple, groups: [ArchivedGroup] = []) {
        self.header = header
        self.groups = groups
        self.ownedObjects = nil
    }

    /// Creates an archive that owns `objects`: they are detached when its last copy goes away
    /// (see the type's note on cycles).
    public init(header: StreamHeader, groups: [ArchivedGroup], owning objects: [ArchivedObject]) {
        self.header = header
        self.groups = groups
        self.ownedObjects = ArchivedObjectOwner(objects)
    }
}

/// Detaches its objects when freed (takes their groups and marks them
/// ``ArchivedObject/isDetached``), breaking reference cycles between them. Its list never
/// changes after it is made.
final class ArchivedObjectOwner {
    /// The objects, in the order they were read.
    let objects: [ArchivedObject]

    init(_ objects: [ArchivedObject]) { self.objects = objects }

    /// How many objects it owns.
    var count: Int { objects.count }

    deinit {
        for object in objects {
            object.storedGroups = []
            object.isDetached = true
        }
    }
}
