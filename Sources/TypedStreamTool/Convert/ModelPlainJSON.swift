import TypedStream
import TypedStreamExport

/// Plain JSON with the users' `Model` records as named fields:
/// `{"$class": "Model", "name", "type", "rect": {"x", "y", "width", "height"}, "flag", "kind", "para"}`
/// (and `"reserved"` when a version-3 draft record has it). Other classes fall back to the
/// Foundation natural values, then to the generic form.
enum ModelPlainJSON {
    /// The field names of a Model record's groups after `rect`, in order.
    static let integerFields = ["flag", "kind", "para", "reserved"]

    /// `--plain` JSON of `archive`.
    static func encode(_ archive: Archive) throws(ArchiveJSONError) -> [UInt8] {
        var options = FoundationPlainJSON.options(for: archive)
        let foundation = options.naturalValue
        options.naturalValue = { entry, converter in
            if entry.className == "Model", let record = model(entry, &converter) { return record }
            return foundation?(entry, &converter)
        }
        return try PlainJSON.encode(archive, options: options)
    }

    private static func model(_ entry: ArchivedObject, _ converter: inout PlainJSONConverter) -> JSONValue? {
        let groups = entry.groups
        guard groups.count >= 5, groups.count <= 7, groups[0].typeText == "@", groups[1].typeText == "@",
              groups[2].typeText == "{?=ffff}", groups[3].typeText == "I" else { return nil }
        var members = [JSONMember("$class", .string("Model"))]
        members.append(JSONMember("name", converter.values(of: groups[0]).first ?? .null))
        members.append(JSONMember("type", converter.values(of: groups[1]).first ?? .null))
        if case .array(let r)? = converter.values(of: groups[2]).first, r.count == 4 {
            members.append(JSONMember("rect", .object([JSONMember("x", r[0]), JSONMember("y", r[1]), JSONMember("width", r[2]), JSONMember("height", r[3])])))
        }
        for (index, group) in groups.dropFirst(3).enumerated() {
            guard group.values.count == 1, index < integerFields.count else { return nil }
            members.append(JSONMember(integerFields[index], converter.values(of: group)[0]))
        }
        return .object(members)
    }
}
