import TypedStreamExport

extension ModelRecordForm {
    /// The record's fields as named members when its groups begin as a record's do (`@`, `@`,
    /// `{?=ffff}`, `I`) and number five to seven: `$class`, then each field's ``ModelField/key``
    /// with its value (`rect` as `{"x", "y", "width", "height"}`). A group after `rect` with
    /// other than one value gives the generic form (after converting what came before it).
    public func plainJSON(_ object: PlainJSONObject, context: PlainJSONContext) -> PlainJSON.Natural? {
        let groups = object.groups
        let fields = DocumentVersion.newestUnderstood.fields
        guard groups.count >= DocumentVersion.v1.fields.count, groups.count <= fields.count,
              zip(fields.prefix(4), groups).allSatisfy({ $0.typeString == $1.typeText }) else { return nil }
        var members: [PlainJSON.Natural.Member] = [.init("$class", .json(.string(className)))]
        // What the record converts before it can tell it is not one (for the ids it gives).
        var converted: [PlainJSON.Natural] = []
        for (index, (field, group)) in zip(fields, groups).enumerated() {
            switch field {
            case .name, .type:
                members.append(.init(field.key, .value(group: index, index: 0)))
            case .rect:
                members.append(.init(field.key, .object(ModelRect.fieldNames.enumerated().map {
                    .init($0.element, .element(group: index, index: 0, element: $0.offset))
                })))
            case .flag, .kind, .para, .reserved:
                guard group.valueCount == 1 else { return .genericAfter(converted) }
                members.append(.init(field.key, .value(group: index, index: 0)))
            }
            converted.append(.value(group: index, index: 0))
        }
        return .object(members)
    }

    /// `true`: ``plainJSON(_:context:)`` reads the groups' type strings and value counts only.
    public var plainJSONFollowsTypesOnly: Bool { true }
}
