import ObjCTypeEncoding
import TypedStream
import TypedStreamExport

extension ModelRecordForm {
    /// The readable keys of a record whose groups are those of document version 1 or 2 (one
    /// value each, with their type strings; a streamer-3 group without one counts as `@`);
    /// `false` for any other shape.
    public func encodeKeyed(_ object: GenericObject, with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> Bool {
        guard let values = Self.keyedValues(object) else { return false }
        let version = object.archiveClassChain.first?.version ?? 0
        if version != 0 { encoder.encode(.integer(version), forKey: "TSVersion") }
        for (field, value) in values {
            switch value {
            case .object(let reference):
                try encoder.encode(reference, of: object, forKey: field.key)
            case .rect(let x, let y, let w, let h):
                try encoder.encodeStringObject(GeometryText.rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h), isFloat: true),
                                               forKey: field.key)
            case .integer(let number):
                encoder.encode(.integer(field == .flag ? number & 0xFFFF_FFFF : number), forKey: field.key)
            }
        }
        return true
    }

    /// One value of a record in the readable keyed form.
    enum KeyedValue {
        /// An `@` value (UID of its object, UID 0 for nil).
        case object(ArchivedValue)
        /// The four floats of `{?=ffff}`.
        case rect(Float, Float, Float, Float)
        /// An `I` or `i` value.
        case integer(Int64)
    }

    /// The fields and values of `object` when its groups are a record of a version in
    /// ``keyedVersions`` (one value per group, of the field's type string and kind); `nil` for
    /// any other shape.
    static func keyedValues(_ object: GenericObject) -> [(ModelField, KeyedValue)]? {
        let groups = object.groups
        guard let version = keyedVersions.first(where: { $0.fields.count == groups.count }) else { return nil }
        var values: [(ModelField, KeyedValue)] = []
        for (field, group) in zip(version.fields, groups) {
            guard group.valueCount == 1, typeString(of: group, is: field.typeString) else { return nil }
            let value = group.value(at: 0)
            switch (field, value) {
            case (.name, .object), (.type, .object):
                values.append((field, .object(value)))
            case (.rect, .structure(let m)):
                guard m.count == 4, case .float(let x, _) = m[0], case .float(let y, _) = m[1],
                      case .float(let w, _) = m[2], case .float(let h, _) = m[3] else { return nil }
                values.append((field, .rect(x, y, w, h)))
            case (.flag, .integer(let number, _)), (.kind, .integer(let number, _)), (.para, .integer(let number, _)), (.reserved, .integer(let number, _)):
                values.append((field, .integer(number)))
            default:
                return nil
            }
        }
        return values
    }

    /// Whether `group`'s type string is `text`, compared as bytes (none counts as `@`).
    private static func typeString(of group: ArchivedGroup, is text: String) -> Bool {
        guard let typeString = group.typeString else { return text == "@" }
        return typeString.elementsEqual(text.utf8)
    }

    /// A `Model` object written in keys: the Objective-C ivar keys of the keyed document
    /// (`md_rt` present) give a ``Model`` in the layout its keys imply, its strings its own (as a
    /// document written from records holds them); the readable keys give a generic object with
    /// the groups of version 1, or 2 when `para` is present, the objects shared as in the keyed
    /// archive. Throws `badObject` for a missing or malformed `rect` / `md_rt`, `flag`, `kind`.
    public func decodeKeyed(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> AnyObject? {
        if decoder.contains(ModelField.rect.ivarKey) { return try Self.documentModel(decoder) }
        return try Self.readableRecord(decoder)
    }

    /// A Model of the keyed document (see ``KeyedModel/fields(from:)``).
    private static func documentModel(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> Model {
        var (record, version): (ModelRecord, DocumentVersion)
        do {
            (record, version) = try KeyedModel.fields(from: RecordDecoderValues(decoder: decoder))
        } catch {
            throw KeyedArchiveError(.badObject, error.reason)
        }
        record.thumbnail = nil
        return Model(record, layout: version)
    }

    /// The generic record of the readable keys.
    private static func readableRecord(_ decoder: KeyedRecordDecoder) throws(KeyedArchiveError) -> GenericObject {
        let model = GenericObject()
        decoder.remember(model)
        let names = decoder.classNames
        var classVersion: Int64 = 0
        if case .integer(let v)? = decoder.value(forKey: "TSVersion") { classVersion = v }
        model.archiveClassChain = [ArchiveClassLink(names[0], version: classVersion)]
            + names.dropFirst().map { ArchiveClassLink($0, version: 0) }
        func required(_ field: ModelField) throws(KeyedArchiveError) -> Int64 {
            guard let value = try decoder.integer(forKey: field.key) else { throw decoder.error(field.key, "is missing") }
            return value
        }
        let version: DocumentVersion = decoder.contains(ModelField.para.key) ? .v2 : .v1
        for field in version.fields {
            let value: ArchivedValue
            switch field {
            case .name, .type:
                value = try decoder.groupValue(objectForKey: field.key, in: model)
            case .rect:
                guard let text = try decoder.string(forKey: field.key), let rect = GeometryText.numbers(in: text), rect.count == 4 else {
                    throw decoder.error(field.key, "is not \"{{x, y}, {w, h}}\"")
                }
                value = .structure(rect.map { .float(Float($0), form: nil) })
            case .flag, .kind, .para, .reserved:
                value = .integer(Int64(Int32(truncatingIfNeeded: try required(field))), width: nil)
            }
            let types: [ObjCType]
            do { types = try ObjCType.parseGroup(field.typeString) } catch {
                throw KeyedArchiveError(.badObject, "type '\(field.typeString)': \(error)")
            }
            model.groups.append(ArchivedGroup(typeString: ArraySlice(field.typeString.utf8), types: types, values: [value]))
        }
        return model
    }
}

/// The keys of a keyed `Model` as ``KeyedModel/fields(from:)`` reads them, through the
/// importer's ``KeyedRecordDecoder``; the strings and data copied count against its budget.
struct RecordDecoderValues: KeyedValues {
    let decoder: KeyedRecordDecoder

    func contains(_ key: String) -> Bool { decoder.contains(key) }

    func string(_ key: String) throws(ModelDocumentError) -> String? {
        do {
            let text = try decoder.string(forKey: key)
            try decoder.chargeCopiedBytes(text?.utf8.count ?? 0)
            return text
        } catch {
            throw ModelDocumentError(.keyedArchive, error.reason)
        }
    }

    func integer(_ key: String) throws(ModelDocumentError) -> Int? {
        do {
            return try decoder.integer(forKey: key).map { Int($0) }
        } catch {
            throw ModelDocumentError(.keyedArchive, error.reason)
        }
    }

    func data(_ key: String) throws(ModelDocumentError) -> [UInt8]? {
        do {
            let bytes = try decoder.data(forKey: key)
            try decoder.chargeCopiedBytes(bytes?.count ?? 0)
            return bytes
        } catch {
            throw ModelDocumentError(.keyedArchive, error.reason)
        }
    }

    func invalid(_ key: String, _ reason: String) -> ModelDocumentError {
        ModelDocumentError(.keyedArchive, "\(decoder.place)\(KeyedArchiveGraph.keyComponent(key)) \(reason)")
    }
}
