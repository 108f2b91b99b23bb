import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

/// A class that knows how `NSKeyedArchiver` lays it out: either as a plain property-list value
/// stored directly in `$objects` (what Apple does for `NSString`, `NSNumber` and `NSData`), or as
/// a dictionary of keys plus `$class`.
///
/// The Foundation class codecs, ``GenericObject`` and ``ClassReference`` conform in this module;
/// codecs in higher modules can conform too, and ``KeyedArchiveEncoder`` will use them.
///
/// ```swift
/// extension Sprite: KeyedArchiveRepresentable {
///     func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
///         encoder.encode(.integer(Int64(frame)), forKey: "frame")
///         try encoder.encode(image, forKey: "image")       // a nested object: a UID
///     }
/// }
/// ```
public protocol KeyedArchiveRepresentable: AnyObject {
    /// `$classes`: the class chain written for the object, most derived first.
    var keyedClassNames: [String] { get }
    /// The plain value written instead of an object dictionary, or `nil` for a dictionary.
    /// A plain value cannot refer to other objects.
    func keyedPlainValue(options: KeyedArchiveExporter.Options) -> PlistValue?
    /// Writes the object's keys through `encoder` (nested objects with its `encode(_:forKey:)`
    /// for objects, which writes their UIDs). Throws what the encoder throws.
    func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError)
}

extension KeyedArchiveRepresentable {
    /// No plain form: the object is written as a dictionary.
    public func keyedPlainValue(options: KeyedArchiveExporter.Options) -> PlistValue? { nil }
}

extension KeyedArchiveRepresentable where Self: ArchivableObject {
    /// The archived class chain's names.
    public var keyedClassNames: [String] { archiveClassChain.map(\.name) }
}

/// The keyed encoder: builds the `$objects` table of an `NSKeyedArchiver` archive from decoded
/// typedstream objects, with NSKeyedArchiver's vocabulary (`encode(_:forKey:)`).
///
/// UIDs are given as `NSKeyedArchiver` gives them: `0` is `$null`; an object gets the next UID
/// when it is first met, *before* its keys are written (so cycles refer back to it); its
/// `$class` dictionary gets a UID after its keys, and is shared by every object of the same
/// class chain. The same instance met twice gets the same UID; equal plain values (strings,
/// numbers, data) are stored once, as Foundation does.
///
/// An encoder is used by one thread at a time (its stored state is not checked for overlapping
/// access at run time: ``reference(to:)`` runs once per object).
public final class KeyedArchiveEncoder {
    /// The options in force.
    public let options: KeyedArchiveExporter.Options

    /// `$objects`, packed (see ``KeyedObjectTable``).
    @exclusivity(unchecked) private(set) var table: KeyedObjectTable = {
        var table = KeyedObjectTable()
        table.append(.string("$null"))
        return table
    }()
    @exclusivity(unchecked) private var uids = KeyedObjectUIDs()
    @exclusivity(unchecked) private var recentPlain = RecentPlainUIDs()
    @exclusivity(unchecked) private var classUIDs: [[String]: UInt32] = [:]
    /// The class chain given a UID last, and its UID.
    @exclusivity(unchecked) private var lastClass: (names: [String], uid: UInt32)?
    @exclusivity(unchecked) private var retained: [AnyObject] = []
    /// The keys written so far of the objects being written, outermost first, in one buffer
    /// (a nested object's keys follow its parent's and are taken off when it is done), and
    /// where each object's keys start: no array is made or grown per object.
    @exclusivity(unchecked) private var fields: [PlistEntry] = []
    @exclusivity(unchecked) private var fieldStarts: [Int] = []
    @exclusivity(unchecked) private var classSlots: [ObjectIdentifier: ClassReference] = [:]
    /// The readable keys (`TSRTFText`, `TSArchives`) of the objects being written.
    private let readableKeys = KeyedReadableKeys()

    /// Creates an encoder with an empty `$objects` table (just `$null`).
    public init(options: KeyedArchiveExporter.Options = .init()) {
        self.options = options
        textBytesLeft = options.maximumTextBytes ?? Int.max
    }

    /// What ``KeyedArchiveExporter/Options/maximumTextBytes`` still allows.
    @exclusivity(unchecked) private var textBytesLeft: Int
    /// Set when a value passed the budget; the object being written then throws.
    @exclusivity(unchecked) private var overBudget = false

    /// Counts the strings and data of `value` against the budget (an explicit stack: a value
    /// nests as deep as its type string).
    private func charge(_ value: PlistValue) {
        guard !overBudget, textBytesLeft != Int.max else { return }
        // Scalars and arrays of scalars (what nearly every key holds) without the stack.
        switch value {
        case .string(let text):
            textBytesLeft -= text.utf8.count
        case .data(let bytes):
            textBytesLeft -= bytes.count
        case .integer, .real, .bool, .date, .uid:
            return
        case .array(let elements) where elements.allSatisfy({ if case .uid = $0 { true } else { false } }):
            return
        default:
            chargeNested(value)
        }
        if textBytesLeft < 0 { overBudget = true }
    }

    /// ``charge(_:)`` for any value.
    private func chargeNested(_ value: PlistValue) {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .string(let text): textBytesLeft -= text.utf8.count
            case .data(let bytes): textBytesLeft -= bytes.count
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let entries): pending.append(contentsOf: entries.map(\.value))
            default: break
            }
        }
        if textBytesLeft < 0 { overBudget = true }
    }

    /// Set when a typed object without a keyed layout was met (and refused): the exporter then
    /// exports a generic copy of its items (see ``KeyedGenericCopy``).
    private(set) var metObjectWithoutLayout = false

    /// The `$objects` array built so far.
    public var archivedObjects: [PlistValue] { table.values }

    // MARK: - Keys of the object being written

    /// Writes `value` inline under `key` (`encodeInt:forKey:`, `encodeDouble:forKey:` …). Only
    /// meaningful inside ``KeyedArchiveRepresentable/encodeKeyed(with:)``; elsewhere it does nothing.
    public func encode(_ value: PlistValue, forKey key: String) {
        guard !fieldStarts.isEmpty, !overBudget else { return }
        charge(value)
        fields.append(PlistEntry(key, value))
    }

    /// Writes a reference to `object` under `key` (`encodeObject:forKey:`); nil writes UID 0.
    /// Throws ``KeyedArchiveError`` for objects that cannot be exported or nest too deeply.
    public func encode(_ object: AnyObject?, forKey key: String) throws(KeyedArchiveError) {
        encode(try reference(to: object), forKey: key)
    }

    /// Writes an array of references under `key` (what `NSArray` writes as `NS.objects`).
    public func encodeObjects(_ objects: [AnyObject?], forKey key: String) throws(KeyedArchiveError) {
        var refs: [PlistValue] = []
        refs.reserveCapacity(objects.count)
        for object in objects { refs.append(try reference(to: object)) }
        encode(.array(refs), forKey: key)
    }

    /// Writes a reference to a new string object holding `text` under `key`, as
    /// `encodeObject:forKey:` with an `NSString` does (and `encodeRect:forKey:` with the rectangle's text).
    public func encodeStringObject(_ text: String, forKey key: String) throws(KeyedArchiveError) {
        encode(try plainReference(.string(text)), forKey: key)
    }

    /// Writes `value`, a value of one of `object`'s groups, under `key` in its `TSGroups`
    /// spelling (objects and classes as UIDs, integers by `type`'s width and signedness; see
    /// docs/keyed-mapping.md): what a ``RecordForm`` writes a group value with. Throws
    /// ``KeyedArchiveError`` for objects that cannot be exported.
    public func encode(_ value: ArchivedValue, of object: GenericObject, type: ObjCType? = nil, forKey key: String) throws(KeyedArchiveError) {
        encode(try KeyedGroupValues.plist(value, type: type, encoder: self, objects: object.objects), forKey: key)
    }

    /// Notes `bytes`, a data value of the object being written, for its readable keys
    /// (`TSRTFText`; with ``KeyedArchiveExporter/Options/deep``, `TSArchives`).
    func noteData(_ bytes: ArraySlice<UInt8>) {
        readableKeys.note(bytes, deep: options.deep)
    }

    // MARK: - References

    /// The UID of `object`, writing it (and everything it refers to) the first time;
    /// `.uid(0)` for nil. Throws ``KeyedArchiveError``.
    public func reference(to object: AnyObject?) throws(KeyedArchiveError) -> PlistValue {
        guard let object else { return .uid(0) }
        let id = ObjectIdentifier(object)
        if let uid = uids[id] { return .uid(uid) }
        if let uid = recentPlain[object] { return .uid(uid) }
        // The unarchiver makes a new ClassReference per `@` slot; one class is one object here.
        if let slot = object as? ClassReference, let entry = slot.entry, classSlots[ObjectIdentifier(entry)] !== slot {
            return try reference(toClassSlot: entry)
        }
        let form = try representation(of: object)
        if let plain = form.keyedPlainValue(options: options) {
            // A string or number met again is found by its value (``plainReference(_:)``), or
            // sooner among those met lately: the identity table holds only the objects that need
            // it (a few per cent of them in a table of strings and numbers). Data is noted there,
            // so that its readable keys are written once, with the object that first refers to it.
            guard case .data(let bytes) = plain else {
                let ref = try plainReference(plain)
                if case .uid(let uid) = ref { recentPlain.note(object, uid: uid) }
                return ref
            }
            noteData(bytes[...])
            let ref = try plainReference(plain)
            if case .uid(let uid) = ref { uids.insert(id, uid: uid) }
            retained.append(object)
            return ref
        }
        guard fieldStarts.count < options.maximumDepth else {
            throw KeyedArchiveError(.tooDeep, "objects nested deeper than \(options.maximumDepth)")
        }
        let uid = try nextUID()
        table.appendPlaceholder()  // "$null" until the keys are written
        uids.insert(id, uid: uid)
        retained.append(object)
        let start = fields.count
        fieldStarts.append(start)
        readableKeys.begin()
        do {
            try form.encodeKeyed(with: self)
        } catch {
            fieldStarts.removeLast()
            fields.removeSubrange(start...)
            readableKeys.discard()
            throw error
        }
        fieldStarts.removeLast()
        do {
            let readable = try readableKeys.end(self)
            fields += readable
        } catch {
            fields.removeSubrange(start...)
            throw error
        }
        defer { fields.removeSubrange(start...) }
        if overBudget {
            let budget = options.maximumTextBytes ?? 0
            throw KeyedArchiveError(.tooLarge, "the keyed archive would hold more than \(budget) bytes of text and data (writing a \(form.keyedClassNames.first ?? "?") object): the archive repeats a long value where it refers to it; convert it to JSON ('--to json'), which keeps references")
        }
        let classRef = try classReference(form.keyedClassNames)
        table.setObject(Int(uid), classReference: classRef, fields: fields[start...])
        return .uid(uid)
    }

    /// The UID of the `TSClassReference` object for an `@` slot that names the class `entry`;
    /// one object per class entry.
    public func reference(toClassSlot entry: ArchivedClass) throws(KeyedArchiveError) -> PlistValue {
        let id = ObjectIdentifier(entry)
        let slot: ClassReference
        if let known = classSlots[id] {
            slot = known
        } else {
            slot = ClassReference(entry)
            classSlots[id] = slot
            retained.append(entry)
        }
        return try reference(to: slot)
    }

    /// The UID of a plain value (string, number, data) in `$objects`, stored once per value.
    public func plainReference(_ value: PlistValue) throws(KeyedArchiveError) -> PlistValue {
        let (index, isNew) = table.appendPlain(value)
        guard isNew else { return .uid(UInt32(truncatingIfNeeded: index)) }
        guard let uid = UInt32(exactly: index) else {
            throw KeyedArchiveError(.tooManyObjects, "more than \(UInt32.max) objects")
        }
        charge(value)
        return .uid(uid)
    }

    /// The UID of the `$class` dictionary for a class chain, stored once per chain.
    public func classReference(_ names: [String]) throws(KeyedArchiveError) -> PlistValue {
        // Objects of one class often come in a row: the chain written last is compared (names
        // made from the same class entry share their storage) before any hashing.
        if let last = lastClass, last.names == names { return .uid(last.uid) }
        if let uid = classUIDs[names] {
            lastClass = (names, uid)
            return .uid(uid)
        }
        let uid = try nextUID()
        table.append(.dictionary([
            PlistEntry("$classname", .string(names.first ?? "NSObject")),
            PlistEntry("$classes", .array(names.map(PlistValue.string))),
        ]))
        classUIDs[names] = uid
        lastClass = (names, uid)
        return .uid(uid)
    }

    private func nextUID() throws(KeyedArchiveError) -> UInt32 {
        guard let uid = UInt32(exactly: table.count) else {
            throw KeyedArchiveError(.tooManyObjects, "more than \(UInt32.max) objects")
        }
        return uid
    }

    /// How `object` is written: itself, when it conforms. A typed object whose codec has no
    /// keyed layout is refused (`unsupportedObject`): written from a copy, the objects it refers
    /// to would be copies too. ``KeyedArchiveExporter`` decodes such classes generically.
    private func representation(of object: AnyObject) throws(KeyedArchiveError) -> KeyedArchiveRepresentable {
        // The commonest classes (all final) by a class cast, a comparison of the object's class;
        // a cast to the protocol looks the conformance up in the runtime's cache each time.
        if let string = object as? StringObject { return string }
        if let number = object as? NumberObject { return number }
        if let dictionary = object as? DictionaryObject { return dictionary }
        if let array = object as? ArrayObject { return array }
        if let generic = object as? GenericObject { return generic }
        if let attributed = object as? AttributedStringObject { return attributed }
        if let representable = object as? KeyedArchiveRepresentable { return representable }
        guard let archivable = object as? ArchivableObject else {
            throw KeyedArchiveError(.unsupportedObject, "\(type(of: object)) is not an archivable object")
        }
        metObjectWithoutLayout = true
        let name = archivable.archiveClassChain.first?.name ?? "?"
        throw KeyedArchiveError(.unsupportedObject, "\(type(of: object)) (\(name)) has no keyed layout; decode its class generically (ClassRegistry.keyedLayoutsOnly)")
    }
}
