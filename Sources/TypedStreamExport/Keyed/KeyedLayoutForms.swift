import TypedStream
import TypedStreamFoundation

// Objects of classes the ClassLayouts catalogue describes: each field under Apple's keyed name
// where the layout gives one, else under its own name (docs/keyed-mapping.md), and back.

extension LaidOutObject: KeyedArchiveRepresentable {
    /// Each field under its key (``LayoutMatch/entries(keyed:)``; a repeated step's field as
    /// an array), and `TSClassVersions` (one per `$classes` entry), from which the import finds
    /// the layouts again.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        encoder.encode(.array(archiveClassChain.map { .integer($0.version) }), forKey: "TSClassVersions")
        let groups = contents.groups
        for entry in layout.entries(keyed: true) {
            var values: [PlistValue] = []
            for g in entry.groups {
                var parts: [PlistValue] = []
                for index in entry.valueIndices where index < groups[g].valueCount {
                    let type = index < groups[g].types.count ? groups[g].types[index] : nil
                    parts.append(try KeyedGroupValues.plist(groups[g].value(at: index), type: type,
                                                            encoder: encoder, objects: contents.objects))
                }
                // Fields sharing one Apple key (a frame's four reals) are one array.
                values.append(entry.valueIndices.count == 1 ? parts.first ?? .uid(0) : .array(parts))
            }
            encoder.encode(entry.isList ? .array(values) : values.first ?? .uid(0), forKey: entry.key)
        }
    }
}

extension KeyedArchiveDecoder {
    /// The object for a keyed object of a catalogued class written by the export above
    /// (`TSClassVersions` and the fields' keys): its groups rebuilt from the layouts of its
    /// chain. `nil` when its class is not catalogued; throws `badObject` when no layout's keys
    /// are all there.
    func laidOutObject(_ uid: UInt32, _ value: PlistValue, names: [String]) throws(KeyedArchiveError) -> AnyObject? {
        guard let name = names.first, ClassLayouts.describes(name),
              case .array(let versionList)? = value["TSClassVersions"], versionList.count == names.count else { return nil }
        var chain: [ArchiveClassLink] = []
        for (name, version) in zip(names, versionList) {
            guard case .integer(let v) = version else { return nil }
            chain.append(ArchiveClassLink(name, version: v))
        }
        let object = remember(uid, GenericObject())
        object.archiveClassChain = chain
        var keys = FieldKeys()
        for link in chain.reversed() {
            let candidates = ClassLayouts.layouts(forClassName: link.name).filter { $0.versions.contains(link.version) }
            // Of the layouts whose always-written fields are all there, the one that takes the
            // most of the keys (a variant with an extra group needs its keys; the first on a tie).
            let fitting = candidates.compactMap { layout in Self.keysTaken(by: layout, in: value, keys: keys).map { (layout, $0) } }
            guard let layout = fitting.max(by: { $0.1 < $1.1 })?.0 else {
                throw KeyedArchiveError(.badObject, "\(link.name) v\(link.version): the keys of no known layout are all there")
            }
            for step in layout.steps {
                var stepKeys = keys
                let slots = stepKeys.take(step.fields, of: layout.className, keyed: true)
                let fieldKeys = slots.map(\.key)
                let lists: [[PlistValue]]
                switch step.repetition {
                case .once:
                    lists = fieldKeys.map { [value[$0] ?? .uid(0)] }
                case .optional:
                    guard let first = fieldKeys.first, value[first] != nil else { continue }
                    lists = fieldKeys.map { [value[$0] ?? .uid(0)] }
                case .counted, .any:
                    guard let first = fieldKeys.first, value[first] != nil else { continue }
                    lists = try fieldKeys.map { (key) throws(KeyedArchiveError) -> [PlistValue] in
                        guard case .array(let list)? = value[key] else {
                            throw KeyedArchiveError(.badObject, "\(link.name): '\(key)' is not an array")
                        }
                        return list
                    }
                }
                keys = stepKeys
                let count = lists.first?.count ?? 0
                guard lists.allSatisfy({ $0.count == count }) else {
                    throw KeyedArchiveError(.badObject, "\(link.name): the arrays of '\(fieldKeys.joined(separator: "', '"))' differ in length")
                }
                for repetition in 0..<count {
                    var plists: [PlistValue] = []
                    for (slot, list) in zip(slots, lists) {
                        guard slot.fields.count > 1 else {
                            plists.append(list[repetition])
                            continue
                        }
                        guard case .array(let parts) = list[repetition], parts.count == slot.fields.count else {
                            throw KeyedArchiveError(.badObject, "\(link.name): '\(slot.key)' is not an array of \(slot.fields.count) values")
                        }
                        plists += parts
                    }
                    let typeString = try Self.concreteTypeString(step.typeString, for: plists, in: link.name)
                    let converted = try KeyedGroupImport.archivedValues(plists, typeString: typeString, decoder: self)
                    object.groups.append(ArchivedGroup(typeString: ArraySlice(typeString.utf8), types: converted.types, values: converted.values))
                    object.objects.merge(converted.objects) { a, _ in a }
                }
            }
        }
        return object
    }

    /// `typeString` with the count of its one `[*…]` array (a one-value step) taken from the
    /// value: the data's length or the array's count.
    private static func concreteTypeString(_ typeString: String, for values: [PlistValue], in className: String) throws(KeyedArchiveError) -> String {
        guard typeString.contains("[*") else { return typeString }
        let count: Int
        switch values.count == 1 ? values[0] : nil {
        case .data(let bytes)?: count = bytes.count
        case .array(let elements)?: count = elements.count
        default: throw KeyedArchiveError(.badObject, "\(className): the array of type '\(typeString)' is not one data or array value")
        }
        return typeString.replacingOccurrences(of: "[*", with: "[\(count)")
    }

    /// How many of `layout`'s keys `value` holds, or `nil` when a field that is always written
    /// has no key there.
    private static func keysTaken(by layout: ClassLayout, in value: PlistValue, keys: FieldKeys) -> Int? {
        var keys = keys
        var taken = 0
        for step in layout.steps {
            let slots = keys.take(step.fields, of: layout.className, keyed: true)
            let present = slots.filter { value[$0.key] != nil }.count
            if step.repetition == .once, present < slots.count { return nil }
            taken += present
        }
        return taken
    }
}
