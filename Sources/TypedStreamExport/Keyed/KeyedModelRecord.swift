import TypedStream

/// The users' `Model` record (`Model : NSObject`), recognised from its generic groups so this
/// module needs no Model codec: `@` name, `@` type, `{?=ffff}` rect, `I` flag, `i` kind and,
/// from document version 2 on, `i` para.
///
/// Keyed form (class `Model`, chain as archived):
///
/// | key    | value                                                            |
/// |--------|------------------------------------------------------------------|
/// | `name` | UID of the name object (UID 0 for nil)                           |
/// | `type` | UID of the type object (UID 0 for nil)                           |
/// | `rect` | UID of the `NSStringFromRect` text `"{{x, y}, {w, h}}"`          |
/// | `flag` | integer (unsigned 32-bit)                                        |
/// | `kind` | integer                                                          |
/// | `para` | integer; absent for records without the `para` group            |
///
/// `rect` is written as `encodeRect:forKey:` writes it, so an Objective-C `initWithCoder:`
/// reads it back with `decodeRectForKey:`. `TSVersion` is added when the class version is not 0.
/// Any other group shape (the version 3 draft's extra `i`, a different rect type) is not a
/// Model record here and falls back to the generic `TSGroups` form.
struct KeyedModelRecord {
    /// The archived class name.
    static let className = "Model"

    let version: Int64
    let name: ArchivedValue
    let type: ArchivedValue
    let rect: (x: Float, y: Float, width: Float, height: Float)
    let flag: Int64
    let kind: Int64
    let para: Int64?

    /// The record's values, or `nil` when `object` is not a Model record of a known shape.
    init?(_ object: GenericObject) {
        guard object.archiveClassChain.first?.name == Self.className else { return nil }
        let groups = object.groups
        guard groups.count == 5 || groups.count == 6 else { return nil }
        let texts = groups.map(\.typeText)
        guard Array(texts.prefix(5)) == ["@", "@", "{?=ffff}", "I", "i"], texts.count == 5 || texts[5] == "i",
              groups.allSatisfy({ $0.values.count == 1 }) else { return nil }
        guard case .object = groups[0].values[0], case .object = groups[1].values[0],
              case .structure(let members) = groups[2].values[0], members.count == 4,
              case .float(let x, _) = members[0], case .float(let y, _) = members[1],
              case .float(let w, _) = members[2], case .float(let h, _) = members[3],
              case .integer(let flag, _) = groups[3].values[0],
              case .integer(let kind, _) = groups[4].values[0] else { return nil }
        var para: Int64?
        if groups.count == 6 {
            guard case .integer(let p, _) = groups[5].values[0] else { return nil }
            para = p
        }
        version = object.archiveClassChain.first?.version ?? 0
        name = groups[0].values[0]
        type = groups[1].values[0]
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
        encoder.encode(try KeyedGroupValues.plist(name, type: nil, encoder: encoder, objects: objects), forKey: "name")
        encoder.encode(try KeyedGroupValues.plist(type, type: nil, encoder: encoder, objects: objects), forKey: "type")
        try encoder.encodeStringObject(rectText, forKey: "rect")
        encoder.encode(.integer(flag), forKey: "flag")
        encoder.encode(.integer(kind), forKey: "kind")
        if let para { encoder.encode(.integer(para), forKey: "para") }
    }
}
