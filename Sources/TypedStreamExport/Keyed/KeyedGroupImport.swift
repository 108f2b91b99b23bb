import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

// Importing what the exporter wrote generically: TSGroups objects, objects in the keys of a
// registered record form, TSClassReference objects and TSGroup top-level items
// (docs/keyed-mapping.md).

extension KeyedArchiveDecoder {
    /// An object of a class without a Foundation layout: a `TSClassReference`, a generic object
    /// with `TSGroups`, or an object in the keys of the class's registered ``RecordForm``.
    /// Throws `badObject` for anything else.
    func genericObject(_ uid: UInt32, _ value: PlistValue, names: [String]) throws(KeyedArchiveError) -> AnyObject {
        if names == ["TSClassReference"] {
            return remember(uid, ClassReference(try archivedClass(value)))
        }
        guard case .array(let groups)? = value["TSGroups"] else {
            if let object = try laidOutObject(uid, value, names: names) { return object }
            if let form = options.recordForms.form(forClassName: names[0]),
               let object = try form.decodeKeyed(KeyedRecordDecoder(decoder: self, uid: uid, entry: value, classNames: names)) {
                return remember(uid, object)
            }
            throw KeyedArchiveError(.badObject, "class \(names[0]) has no typedstream form (no TSGroups)")
        }
        let generic = remember(uid, GenericObject())
        var versions: [Int64] = []
        if case .array(let list)? = value["TSClassVersions"] {
            for v in list { guard case .integer(let n) = v else { break }; versions.append(n) }
        }
        if versions.count != names.count {
            if case .integer(let own)? = value["TSVersion"] { versions = [own] } else { versions = [] }
            versions += Array(repeating: 0, count: max(0, names.count - versions.count))
        }
        generic.archiveClassChain = zip(names, versions).map { ArchiveClassLink($0.0, version: $0.1) }
        for group in groups {
            let (archived, objects) = try groupValue(group)
            generic.groups.append(archived)
            generic.objects.merge(objects) { a, _ in a }
        }
        return generic
    }

    /// A `TSGroup` top-level item, or nil when `ref` is an ordinary object.
    func topLevelGroup(_ ref: PlistValue) throws(KeyedArchiveError) -> TopLevelItem? {
        let (uid, value) = try entry(ref)
        guard uid != 0, case .dictionary = value, try classNames(of: value) == ["TSGroup"] else { return nil }
        let (group, objects) = try groupValue(value)
        return .group(group, objects: objects)
    }

    /// `{type, values}` → a group and the objects its values refer to.
    func groupValue(_ value: PlistValue) throws(KeyedArchiveError) -> (ArchivedGroup, [ObjectIdentifier: AnyObject]) {
        guard case .string(let type)? = value["type"], case .array(let values)? = value["values"] else {
            throw KeyedArchiveError(.badObject, "a group has no type string or values")
        }
        let converted = try KeyedGroupImport.archivedValues(values, typeString: type, decoder: self)
        let group = ArchivedGroup(typeString: ArraySlice(type.utf8), types: converted.types, values: converted.values)
        return (group, converted.objects)
    }

    /// The class chain of a `TSClassReference` object.
    func archivedClass(_ value: PlistValue) throws(KeyedArchiveError) -> ArchivedClass {
        guard case .array(let names)? = value["TSClasses"], !names.isEmpty else {
            throw KeyedArchiveError(.badObject, "TSClassReference has no TSClasses")
        }
        var versions: [PlistValue] = []
        if case .array(let list)? = value["TSClassVersions"] { versions = list }
        var next: ArchivedClass?
        for (i, name) in names.enumerated().reversed() {
            guard case .string(let text) = name else { throw KeyedArchiveError(.badObject, "TSClasses holds a non-string") }
            var version: Int64 = 0
            if i < versions.count, case .integer(let v) = versions[i] { version = v }
            next = ArchivedClass(name: Array(text.utf8), version: version, superclass: next)
        }
        guard let first = next else { throw KeyedArchiveError(.badObject, "TSClassReference has no TSClasses") }
        return first
    }

    /// A new graph entry that stands for `instance` in a rebuilt group; the group's `objects`
    /// map it to the instance, and the archiver shares instances by identity.
    func placeholder(for instance: AnyObject) -> ArchivedObject {
        ArchivedObject(archivedClass: ArchivedClass(name: Array("\(type(of: instance))".utf8), version: 0))
    }
}

/// Plist values → typedstream values, by type (the reverse of ``KeyedGroupValues``).
enum KeyedGroupImport {
    /// The values of one group with type string `typeString`. Throws `badObject` when the type
    /// string does not parse or a value does not have its type's shape.
    static func archivedValues(_ plists: [PlistValue], typeString: String, decoder: KeyedArchiveDecoder) throws(KeyedArchiveError)
        -> (types: [ObjCType], values: [ArchivedValue], objects: [ObjectIdentifier: AnyObject]) {
        let types: [ObjCType]
        do { types = try ObjCType.parseGroup(typeString) } catch {
            throw KeyedArchiveError(.badObject, "type string '\(typeString)' does not parse: \(error)")
        }
        guard types.count == plists.count else {
            throw KeyedArchiveError(.badObject, "type string '\(typeString)' has \(types.count) types but \(plists.count) values")
        }
        var objects: [ObjectIdentifier: AnyObject] = [:]
        var values: [ArchivedValue] = []
        for (plist, type) in zip(plists, types) {
            values.append(try value(plist, type: type, decoder: decoder, objects: &objects))
        }
        return (types, values, objects)
    }

    private static func bad(_ plist: PlistValue, _ type: ObjCType) -> KeyedArchiveError {
        KeyedArchiveError(.badObject, "\(plist) cannot be a '\(type.encoding)' value")
    }

    static func value(_ plist: PlistValue, type: ObjCType, decoder: KeyedArchiveDecoder,
                      objects: inout [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) -> ArchivedValue {
        let isNull = plist == .uid(0)
        switch (type.unqualified, plist) {
        case (.char, .integer(let v)), (.unsignedChar, .integer(let v)), (.bool, .integer(let v)):
            return .byte(UInt8(truncatingIfNeeded: v))
        case (.short, .integer(let v)), (.unsignedShort, .integer(let v)):
            return .integer(Int64(Int16(truncatingIfNeeded: v)), width: nil)
        case (.int, .integer(let v)), (.unsignedInt, .integer(let v)), (.long, .integer(let v)), (.unsignedLong, .integer(let v)):
            return .integer(Int64(Int32(truncatingIfNeeded: v)), width: nil)
        case (.longLong, .integer(let v)), (.unsignedLongLong, .integer(let v)):
            return .integer(v, width: nil)
        case (.float, .real(let d)): return .float(Float(d), form: nil)
        case (.float, .integer(let v)): return .float(Float(v), form: nil)
        case (.double, .real(let d)): return .double(d, form: nil)
        case (.double, .integer(let v)): return .double(Double(v), form: nil)
        case (.array(let n, let e), .data(let bytes)) where e.unqualified == .char || e.unqualified == .unsignedChar:
            guard bytes.count == n else { throw bad(plist, type) }
            return .bytes(ArraySlice(bytes))
        case (.array(let n, let e), .array(let items)):
            guard items.count == n else { throw bad(plist, type) }
            var out: [ArchivedValue] = []
            for item in items { out.append(try value(item, type: e, decoder: decoder, objects: &objects)) }
            return .array(out)
        case (.structure(_, let fields), .array(let items)):
            guard items.count == fields.count else { throw bad(plist, type) }
            var out: [ArchivedValue] = []
            for (item, field) in zip(items, fields) { out.append(try value(item, type: field.type, decoder: decoder, objects: &objects)) }
            return .structure(out)
        case (.union, .data(let bytes)): return .bytes(ArraySlice(bytes))
        case (.bytes, .data(let bytes)): return .unsharedString(ArraySlice(bytes), lengthWidth: nil)
        case (.bytes, _) where isNull: return .unsharedString(nil, lengthWidth: nil)
        case (.atom, .string(let s)), (.selector, .string(let s)): return .sharedString(ArraySlice(s.utf8), decision: nil)
        case (.atom, _) where isNull, (.selector, _) where isNull: return .sharedString(nil, decision: nil)
        case (.cString, .string(let s)): return .cString(ArchivedCString(text: Array(s.utf8)), referenceWidth: nil)
        case (.cString, _) where isNull: return .cString(nil, referenceWidth: nil)
        case (.classObject, _) where isNull: return .classObject(nil, referenceWidth: nil)
        case (.classObject, .uid):
            guard let reference = try decoder.object(plist) as? ClassReference, let entry = reference.entry else { throw bad(plist, type) }
            return .classObject(entry, referenceWidth: nil)
        case (.object, _) where isNull: return .object(nil, referenceWidth: nil)
        case (.object, .uid):
            guard let instance = try decoder.object(plist) else { return .object(nil, referenceWidth: nil) }
            if let reference = instance as? ClassReference, let entry = reference.entry {
                return .objectSlotClass(entry, referenceWidth: nil)
            }
            let entry = decoder.placeholder(for: instance)
            objects[ObjectIdentifier(entry)] = instance
            return .object(entry, referenceWidth: nil)
        case (.ignored, _): return .ignored
        default: throw bad(plist, type)
        }
    }
}
