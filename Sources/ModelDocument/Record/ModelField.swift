/// One archived value of a `Model` record, in archive order: the record's layout, written down
/// once. The codec (``Model``) reads and writes these groups; the record's other forms — the
/// keyed form of a lone record and its plain JSON (``ModelRecordForm``), the keyed Model
/// document (`KeyedModel`) — take their type strings and key names from here.
///
/// | field | group | ``key`` | ``ivarKey`` | from version |
/// |---|---|---|---|---|
/// | ``name`` | `@` (NSString) | `name` | `md_name` | 1 |
/// | ``type`` | `@` (NSString) | `type` | `md_type` | 1 |
/// | ``rect`` | `{?=ffff}` | `rect` | `md_rt` | 1 |
/// | ``flag`` | `I` | `flag` | `md_flag` | 1 |
/// | ``kind`` | `i` | `kind` | `md_kind` | 1 |
/// | ``para`` | `i` | `para` | `md_para` | 2 |
/// | ``reserved`` | `i` | `reserved` | `md_reserved` | 3 (draft) |
///
/// The thumbnail (`md_image`) is not archived (it lives in a side file found by the name), and
/// the document version lives in the settings file, not in the records.
public enum ModelField: Int, CaseIterable, Sendable {
    /// `md_name`.
    case name
    /// `md_type`.
    case type
    /// `md_rt`.
    case rect
    /// `md_flag`.
    case flag
    /// `md_kind`.
    case kind
    /// `md_para` (document version 2 on).
    case para
    /// The reserved value of the version 3 draft.
    case reserved

    /// The type string of the field's group.
    public var typeString: String {
        switch self {
        case .name, .type: "@"
        case .rect: ModelRect.objCType
        case .flag: "I"
        case .kind, .para, .reserved: "i"
        }
    }

    /// The field's readable name: a lone record's key in a keyed archive and its member in plain JSON.
    public var key: String {
        switch self {
        case .name: "name"
        case .type: "type"
        case .rect: "rect"
        case .flag: "flag"
        case .kind: "kind"
        case .para: "para"
        case .reserved: "reserved"
        }
    }

    /// The Objective-C ivar name: the field's key in the keyed Model document.
    public var ivarKey: String {
        switch self {
        case .name: "md_name"
        case .type: "md_type"
        case .rect: "md_rt"
        case .flag: "md_flag"
        case .kind: "md_kind"
        case .para: "md_para"
        case .reserved: "md_reserved"
        }
    }
}

extension DocumentVersion {
    /// The fields one Model archives in this version, in order.
    public var fields: [ModelField] {
        var fields: [ModelField] = [.name, .type, .rect, .flag, .kind]
        if hasPara { fields.append(.para) }
        if hasReserved { fields.append(.reserved) }
        return fields
    }
}
