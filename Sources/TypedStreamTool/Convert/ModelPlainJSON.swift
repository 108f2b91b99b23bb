import TypedStream
import TypedStreamExport

/// Plain JSON with the users' `Model` records as named fields:
/// `{"$class": "Model", "name", "type", "rect": {"x", "y", "width", "height"}, "flag", "kind", "para"}`
/// (and `"reserved"` when a version-3 draft record has it). Other classes fall back to the
/// Foundation natural values, then to the generic form.
enum ModelPlainJSON {
    /// The field names of a Model record's groups after `rect`, in order.
    static let integerFields = ["flag", "kind", "para", "reserved"]

    /// The plain JSON options for `--plain`: Model records, then Foundation's classes.
    static func options() -> PlainJSON.Options {
        var options = FoundationPlainJSON.options()
        let foundation = options.naturalValue
        options.naturalValue = { object, context in
            if object.className == "Model", let record = model(object) { return record }
            return foundation?(object, context)
        }
        return options
    }

    /// Writes the `--plain` JSON of the archive `index` was read from to `out`. Throws
    /// ``ArchiveJSONError`` as ``PlainJSON/write(_:options:to:)``.
    static func write(_ index: ArchiveIndex, to out: inout OutputWriter) throws(ArchiveJSONError) {
        try PlainJSON.write(index, options: options(), to: &out)
    }

    private static func model(_ object: PlainJSONObject) -> PlainJSON.Natural? {
        let groups = object.groups
        guard groups.count >= 5, groups.count <= 7, groups[0].typeText == "@", groups[1].typeText == "@",
              groups[2].typeText == "{?=ffff}", groups[3].typeText == "I" else { return nil }
        var members: [PlainJSON.Natural.Member] = [
            .init("$class", .json(.string("Model"))),
            .init("name", .value(group: 0, index: 0)),
            .init("type", .value(group: 1, index: 0)),
            .init("rect", .object(["x", "y", "width", "height"].enumerated().map { .init($0.element, .element(group: 2, index: 0, element: $0.offset)) })),
        ]
        // What the record converts before it can tell it is not one (for the ids it gives).
        var converted: [PlainJSON.Natural] = [.value(group: 0, index: 0), .value(group: 1, index: 0), .value(group: 2, index: 0)]
        for (index, group) in groups.dropFirst(3).enumerated() {
            guard group.valueCount == 1, index < integerFields.count else { return .genericAfter(converted) }
            members.append(.init(integerFields[index], .value(group: 3 + index, index: 0)))
            converted.append(.value(group: 3 + index, index: 0))
        }
        return .object(members)
    }
}
