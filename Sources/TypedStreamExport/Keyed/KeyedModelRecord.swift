import TypedStream

/// The users' `Model` record (`Model : NSObject`), recognised from its generic groups so this
/// module needs no Model codec: `@` name, `@` type, `{?=ffff}` rect, `I` flag, `i` kind, from
/// document version 2 on `i` para, and in the version 3 draft a reserved `i`.
///
/// Keyed form (class `Model`, chain as archived), by ``KeyedArchiveExporter/ModelKeyStyle``:
///
/// | `.plain` | `.ivarNames` | value |
/// |----------|--------------|-------|
/// | `name`   | `md_name`    | UID of the name object (`.plain`: UID 0 for nil; `.ivarNames`: absent) |
/// | `type`   | `md_type`    | UID of the type object (likewise) |
/// | `rect`   | `md_rt`      | UID of the `NSStringFromRect` text `"{{x, y}, {w, h}}"` |
/// | `flag`   | `md_flag`    | integer (unsigned 32-bit) |
/// | `kind`   | `md_kind`    | integer |
/// | `para`   | `md_para`    | integer; absent for records without the `para` group |
/// | —        | `md_reserved`| integer; the version 3 draft's seventh group (`.ivarNames` only) |
///
/// `rect` is written as `encodeRect:forKey:` writes it, so an Objective-C `initWithCoder:` reads
/// it back with `decodeRectForKey:`. `.ivarNames` are the keys ModelDocument's keyed documents
/// use. `TSVersion` is added when the class version is not 0. Any other group shape is not a
/// Model record here and falls back to the generic `TSGroups` form.
struct KeyedModelRecord {
    /// The archived class name.
    static let className = "Model"

    /// The key names of one style.
    struct Keys {
        let name, type, rect, flag, kind, para: String
        let reserved: String?

        static let plain = Keys(name: "name", type: "type", rect: "rect", flag: "flag", kind: "kind", para: "para", reserved: nil)
        static let ivarNames = Keys(name: "md_name", type: "md_type", rect: "md_rt", flag: "md_flag", kind: "md_kind",
                                    para: "md_para", reserved: "md_reserved")

        static func of(_ style: KeyedArchiveExporter.ModelKeyStyle) -> Keys { style == .plain ? plain : ivarNames }
    }

    let version: Int64
    let name: ArchivedValue
    let type: ArchivedValue
    let rect: (x: Float, y: Float, width: Float, height: Float)
    let flag: Int64
    let kind: Int64
    let para: Int64?
    let reserved: Int64?

    /// The record's values, or `nil` when `object` is not a Model record of a shape `keys` can hold.
    init?(_ object: GenericObject, keys: Keys) {
        guard object.archiveClassChain.first?.name == Self.className else { return nil }
        let groups = object.groups
        let most = keys.reserved == nil ? 6 : 7
        guard (5...most).contains(groups.count), groups.allSatisfy({ $0.valueCount == 1 }) else { return nil }
        // The type strings, compared as bytes (a streamer-3 group without one counts as "@").
        func typed(_ group: ArchivedGroup, _ text: StaticString) -> Bool {
            guard let typeString = group.typeString else { return text.utf8CodeUnitCount == 1 && text.utf8Start.pointee == UInt8(ascii: "@") }
            return typeString.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        guard typed(groups[0], "@"), typed(groups[1], "@"), typed(groups[2], "{?=ffff}"), typed(groups[3], "I"), typed(groups[4], "i"),
              groups.dropFirst(5).allSatisfy({ typed($0, "i") }) else { return nil }
        let first = groups[0].value(at: 0), second = groups[1].value(at: 0)
        guard case .object = first, case .object = second,
              case .structure(let members) = groups[2].value(at: 0), members.count == 4,
              case .float(let x, _) = members[0], case .float(let y, _) = members[1],
              case .float(let w, _) = members[2], case .float(let h, _) = members[3],
              case .integer(let flag, _) = groups[3].value(at: 0),
              case .integer(let kind, _) = groups[4].value(at: 0) else { return nil }
        var extra: [Int64] = []
        for group in groups.dropFirst(5) {
            guard case .integer(let v, _) = group.value(at: 0) else { return nil }
            extra.append(v)
        }
        version = object.archiveClassChain.first?.version ?? 0
        name = first
        type = second
        rect = (x, y, w, h)
        self.flag = flag & 0xFFFF_FFFF
        self.kind = kind
        para = extra.first
        reserved = extra.count > 1 ? extra[1] : nil
    }

    /// The `NSStringFromRect` text of ``rect``.
    var rectText: String {
        GeometryText.rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height), isFloat: true)
    }

    /// Writes the keys.
    func encode(with encoder: KeyedArchiveEncoder, keys: Keys, objects: [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) {
        if version != 0 { encoder.encode(.integer(version), forKey: "TSVersion") }
        func encodeString(_ value: ArchivedValue, forKey key: String) throws(KeyedArchiveError) {
            let ref = try KeyedGroupValues.plist(value, type: nil, encoder: encoder, objects: objects)
            if ref == .uid(0), keys.reserved != nil { return }  // ModelDocument omits nil strings
            encoder.encode(ref, forKey: key)
        }
        try encodeString(name, forKey: keys.name)
        try encodeString(type, forKey: keys.type)
        try encoder.encodeStringObject(rectText, forKey: keys.rect)
        encoder.encode(.integer(flag), forKey: keys.flag)
        encoder.encode(.integer(kind), forKey: keys.kind)
        if let para { encoder.encode(.integer(para), forKey: keys.para) }
        if let reserved, let key = keys.reserved { encoder.encode(.integer(reserved), forKey: key) }
    }
}
