import TypedStream

/// The users' `Model` record (`Model : NSObject`), recognised from its generic groups so this
/// module needs no Model codec: `@` name, `@` type, `{?=ffff}` rect, `I` flag, `i` kind, from
/// document version 2 on `i` para. Written with readable keys (class `Model`, chain as archived):
///
/// | key | value |
/// |-----|-------|
/// | `name` | UID of the name object (UID 0 for nil) |
/// | `type` | UID of the type object (likewise) |
/// | `rect` | UID of the `NSStringFromRect` text `"{{x, y}, {w, h}}"` |
/// | `flag` | integer (unsigned 32-bit) |
/// | `kind` | integer |
/// | `para` | integer; absent for records without the `para` group |
///
/// `rect` is written as `encodeRect:forKey:` writes it, so an Objective-C `initWithCoder:` reads
/// it back with `decodeRectForKey:`. `TSVersion` is added when the class version is not 0. Any
/// other group shape (the version 3 draft's seven groups among them) is not a Model record here
/// and falls back to the generic `TSGroups` form. A whole Model *document* is not converted here:
/// the tool gives it the keyed form of ModelDocument's `KeyedModelArchive`, the one `model export`
/// writes (docs/keyed-mapping.md).
struct KeyedModelRecord {
    /// The archived class name.
    static let className = "Model"

    /// The keys, as written.
    enum Key {
        static let name = "name", type = "type", rect = "rect", flag = "flag", kind = "kind", para = "para"
    }

    let version: Int64
    let name: ArchivedValue
    let type: ArchivedValue
    let rect: (x: Float, y: Float, width: Float, height: Float)
    let flag: Int64
    let kind: Int64
    let para: Int64?

    /// The record's values, or `nil` when `object` is not a Model record.
    init?(_ object: GenericObject) {
        guard object.archiveClassChain.first?.name == Self.className else { return nil }
        let groups = object.groups
        guard (5...6).contains(groups.count), groups.allSatisfy({ $0.valueCount == 1 }) else { return nil }
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
        var para: Int64?
        if groups.count == 6 {
            guard case .integer(let value, _) = groups[5].value(at: 0) else { return nil }
            para = value
        }
        version = object.archiveClassChain.first?.version ?? 0
        name = first
        type = second
        rect = (x, y, w, h)
        self.flag = flag & 0xFFFF_FFFF
        self.kind = kind
        self.para = para
    }

    /// The `NSStringFromRect` text of ``rect``.
    var rectText: String {
        GeometryText.rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height), isFloat: true)
    }

    /// Writes the keys.
    func encode(with encoder: KeyedArchiveEncoder, objects: [ObjectIdentifier: AnyObject]) throws(KeyedArchiveError) {
        if version != 0 { encoder.encode(.integer(version), forKey: "TSVersion") }
        func encodeString(_ value: ArchivedValue, forKey key: String) throws(KeyedArchiveError) {
            encoder.encode(try KeyedGroupValues.plist(value, type: nil, encoder: encoder, objects: objects), forKey: key)
        }
        try encodeString(name, forKey: Key.name)
        try encodeString(type, forKey: Key.type)
        try encoder.encodeStringObject(rectText, forKey: Key.rect)
        encoder.encode(.integer(flag), forKey: Key.flag)
        encoder.encode(.integer(kind), forKey: Key.kind)
        if let para { encoder.encode(.integer(para), forKey: Key.para) }
    }
}
