import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

// Objects of classes without a keyed layout of their own: generic objects (unknown classes,
// classes whose record form a higher module registered, and classes whose codecs do not
// conform to KeyedArchiveRepresentable, which the export decodes generically), class
// references and top-level groups that are not objects. The keys are documented in
// docs/keyed-mapping.md.

extension GenericObject: KeyedArchiveRepresentable {
    /// An object whose class has a registered ``RecordForm`` that takes its groups gets the
    /// form's keys; any other gets `TSVersion` (its own class version), `TSClassVersions` (one
    /// per `$classes` entry) and `TSGroups` (one dictionary per group: `type`, the type string,
    /// and `values`); an `NSFont` or `NSColor` also gets Apple's keys (``KeyedAppKitKeys``).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        let forms = encoder.options.recordForms
        if !forms.isEmpty, let name = archiveClassChain.first?.name, let form = forms.form(forClassName: name),
           try form.encodeKeyed(self, with: encoder) {
            return
        }
        encoder.encode(.integer(archiveClassChain.first?.version ?? 0), forKey: "TSVersion")
        encoder.encode(.array(archiveClassChain.map { .integer($0.version) }), forKey: "TSClassVersions")
        // Read without being kept: the export visits each object once.
        let (groups, objects) = groupsAndObjects
        var list: [PlistValue] = []
        list.reserveCapacity(groups.count)
        for group in groups { list.append(try KeyedGroupValues.groupDictionary(group, encoder: encoder, objects: objects)) }
        encoder.encode(.array(list), forKey: "TSGroups")
        try KeyedAppKitKeys.encode(self, with: encoder)
    }
}

extension ClassReference: KeyedArchiveRepresentable {
    /// `TSClassReference`: a `#` class, or an `@` slot that names a class rather than an object.
    public var keyedClassNames: [String] { ["TSClassReference"] }

    /// `TSClasses` (the referred class chain's names) and `TSClassVersions`.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        encoder.encode(.array(archiveClassChain.map { .string($0.name) }), forKey: "TSClasses")
        encoder.encode(.array(archiveClassChain.map { .integer($0.version) }), forKey: "TSClassVersions")
    }
}

/// A top-level group that is not a single object (`"@i"` in colour lists, several values in
/// NeXT nibs): class `TSGroup`, keys `type` and `values`.
final class KeyedTopLevelGroup: KeyedArchiveRepresentable {
    let group: ArchivedGroup
    let objects: [ObjectIdentifier: AnyObject]

    init(_ group: ArchivedGroup, objects: [ObjectIdentifier: AnyObject]) {
        self.group = group
        self.objects = objects
    }

    var keyedClassNames: [String] { ["TSGroup"] }

    func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        let entries = try KeyedGroupValues.groupEntries(group, encoder: encoder, objects: objects)
        for entry in entries { encoder.encode(entry.value, forKey: entry.key) }
    }
}

/// The plist form of typedstream groups and values (the `TSGroups` mapping).
enum KeyedGroupValues {
    /// `{type, values}` for one group.
    static func groupDictionary(_ group: ArchivedGroup, encoder: KeyedArchiveEncoder,
                                objects: [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) -> PlistValue {
        .dictionary(try groupEntries(group, encoder: encoder, objects: objects))
    }

    static func groupEntries(_ group: ArchivedGroup, encoder: KeyedArchiveEncoder,
                             objects: [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) -> [PlistEntry] {
        var values: [PlistValue] = []
        values.reserveCapacity(group.values.count)
        for (i, value) in group.values.enumerated() {
            let type = i < group.types.count ? group.types[i] : nil
            values.append(try plist(value, type: type, encoder: encoder, objects: objects))
        }
        return [PlistEntry("type", .string(group.typeText)), PlistEntry("values", .array(values))]
    }

    /// One value. Integers are read by their type's width and signedness (`I` 0xFFFFFFFF is
    /// 4294967295; `Q` above `Int64.max` keeps its two's-complement bit pattern); `c` bytes are
    /// signed, `C` and `B` unsigned; reals are reals; `[Nc]` bytes, unions and `+` bytes are
    /// data; `%`, `:` and `*` strings are strings; objects are UIDs; `#` classes (and `@` slots
    /// naming a class) are UIDs of `TSClassReference` objects; arrays and structs are arrays;
    /// `!` is empty data; every NULL / nil / Nil is UID 0.
    static func plist(_ value: ArchivedValue, type: ObjCType?, encoder: KeyedArchiveEncoder,
                      objects: [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) -> PlistValue {
        let unqualified = type?.unqualified
        switch value {
        case .integer(let v, _):
            switch unqualified {
            case .unsignedShort?: return .integer(v & 0xFFFF)
            case .unsignedInt?, .unsignedLong?: return .integer(v & 0xFFFF_FFFF)
            default: return .integer(v)
            }
        case .float(let x, _): return .real(Double(x))
        case .double(let x, _): return .real(x)
        case .byte(let b):
            return unqualified == .char ? .integer(Int64(Int8(bitPattern: b))) : .integer(Int64(b))
        case .bytes(let payload):
            encoder.noteData(payload)
            return .data(Array(payload))
        case .unsharedString(let payload, _): return payload.map { .data(Array($0)) } ?? .uid(0)
        case .sharedString(let text, _): return text.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .uid(0)
        case .cString(let entry, _): return entry.map { .string($0.string) } ?? .uid(0)
        case .classObject(let entry, _):
            guard let entry else { return .uid(0) }
            return try encoder.reference(toClassSlot: entry)
        case .object(let entry, _):
            guard let entry else { return .uid(0) }
            guard let instance = objects[ObjectIdentifier(entry)] else {
                throw KeyedArchiveError(.unsupportedObject, "a group refers to an object (\(entry.className)) that was not decoded")
            }
            return try encoder.reference(to: instance)
        case .objectSlotClass(let entry, _):
            return try encoder.reference(toClassSlot: entry)
        case .array(let elements):
            var element: ObjCType?
            if case .array(_, let e)? = unqualified { element = e }
            var out: [PlistValue] = []
            out.reserveCapacity(elements.count)
            for e in elements { out.append(try plist(e, type: element, encoder: encoder, objects: objects)) }
            return .array(out)
        case .structure(let members):
            var fields: [ObjCField] = []
            if case .structure(_, let f)? = unqualified { fields = f }
            var out: [PlistValue] = []
            out.reserveCapacity(members.count)
            for (i, m) in members.enumerated() {
                out.append(try plist(m, type: i < fields.count ? fields[i].type : nil, encoder: encoder, objects: objects))
            }
            return .array(out)
        case .ignored:
            return .data([])
        }
    }
}
