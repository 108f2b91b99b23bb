import Foundation

/// One Model in a keyed archive: class name `Model`, the Objective-C ivar names as keys.
/// (Keys: see ``KeyedModelArchive``.)
final class KeyedModel: NSObject, NSSecureCoding {
    static let className = "Model"
    static var supportsSecureCoding: Bool { true }

    var record: ModelRecord
    var version: DocumentVersion

    init(_ record: ModelRecord, version: DocumentVersion) {
        self.record = record
        self.version = version
        super.init()
    }

    func encode(with coder: NSCoder) {
        if let name = record.name { coder.encode(name as NSString, forKey: "md_name") }
        if let type = record.type { coder.encode(type as NSString, forKey: "md_type") }
        coder.encode(Self.rectString(record.rect) as NSString, forKey: "md_rt")
        coder.encode(Int(record.flag), forKey: "md_flag")
        coder.encode(Int(record.kind), forKey: "md_kind")
        if version.hasPara { coder.encode(Int(record.para), forKey: "md_para") }
        if version.hasReserved { coder.encode(Int(record.reserved), forKey: "md_reserved") }
        if let thumbnail = record.thumbnail { coder.encode(Data(thumbnail) as NSData, forKey: "md_image") }
    }

    /// Decoding needs the document version, which lives on the root: it is read later by
    /// ``KeyedModelDocument``; here every present key is taken.
    required init?(coder: NSCoder) {
        func integer(_ key: String) -> Int { coder.containsValue(forKey: key) ? coder.decodeInteger(forKey: key) : 0 }
        func string(_ key: String) -> String? {
            coder.containsValue(forKey: key) ? coder.decodeObject(of: NSString.self, forKey: key) as String? : nil
        }
        guard let rectText = string("md_rt"), let rect = Self.rect(parsing: rectText),
              let flag = UInt32(exactly: integer("md_flag")), let kind = Int32(exactly: integer("md_kind")),
              let para = Int32(exactly: integer("md_para")), let reserved = Int32(exactly: integer("md_reserved")) else { return nil }
        var thumbnail: [UInt8]?
        if coder.containsValue(forKey: "md_image") {
            guard let data = coder.decodeObject(of: NSData.self, forKey: "md_image") else { return nil }
            thumbnail = Array(data as Data)
        }
        record = ModelRecord(name: string("md_name"), type: string("md_type"), rect: rect, flag: flag, kind: kind,
                             para: para, reserved: reserved, thumbnail: thumbnail)
        version = coder.containsValue(forKey: "md_reserved") ? .v3Draft : coder.containsValue(forKey: "md_para") ? .v2 : .v1
        super.init()
    }

    /// `"{{x, y}, {w, h}}"`.
    static func rectString(_ rect: ModelRect) -> String {
        "{{\(ModelRect.spell(rect.x)), \(ModelRect.spell(rect.y))}, {\(ModelRect.spell(rect.width)), \(ModelRect.spell(rect.height))}}"
    }

    /// Parses `"{{x, y}, {w, h}}"`.
    static func rect(parsing text: String) -> ModelRect? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}") else { return nil }
        let inner = text.dropFirst(2).dropLast(2)
        let halves = inner.components(separatedBy: "}, {")
        guard halves.count == 2 else { return nil }
        return ModelRect(argument: halves[0] + "," + halves[1])
    }
}

/// The root of a keyed Model document: class name `ModelDocument`, keys `format`
/// (`"ModelDocument"`), `version` (integer) and `models` (an `NSArray` of `Model`).
final class KeyedModelDocument: NSObject, NSSecureCoding {
    static let className = "ModelDocument"
    static var supportsSecureCoding: Bool { true }

    var version: Int
    var models: [KeyedModel]

    init(version: Int, models: [KeyedModel]) {
        self.version = version
        self.models = models
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(DocumentSettings.formatIdentifier as NSString, forKey: "format")
        coder.encode(version, forKey: "version")
        coder.encode(models as NSArray, forKey: "models")
    }

    required init?(coder: NSCoder) {
        guard coder.decodeObject(of: NSString.self, forKey: "format") as String? == DocumentSettings.formatIdentifier,
              let models = coder.decodeObject(of: [NSArray.self, KeyedModel.self], forKey: "models") as? [KeyedModel] else { return nil }
        version = coder.decodeInteger(forKey: "version")
        self.models = models
        super.init()
    }
}
