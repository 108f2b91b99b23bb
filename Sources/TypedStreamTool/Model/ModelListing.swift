import ModelDocument

/// The text of `model list`: a heading, then one row per model, names escaped with
/// ``DisplayText``.
///
/// ```text
/// document version 2, 3 models, generation 1
/// #  name         type    rect                 flag  kind  para  thumbnail
/// 0  Sunrise      photo   0,0,320,240          1     1     0     73 bytes
/// ```
enum ModelListing {
    /// The lines of the listing of `document` (no newlines).
    static func lines(for document: ModelDocument) -> [String] {
        let version = document.version
        var header = ["#", "name", "type", "rect", "flag", "kind"]
        if version.hasPara { header.append("para") }
        if version.hasReserved { header.append("reserved") }
        header.append("thumbnail")
        var rows = [header]
        for (index, model) in document.models.enumerated() {
            var row = [String(index), DisplayText.quoted(model.name), DisplayText.quoted(model.type), model.rect.argument, String(model.flag), String(model.kind)]
            if version.hasPara { row.append(String(model.para)) }
            if version.hasReserved { row.append(String(model.reserved)) }
            row.append(model.thumbnailLength.map { "\($0) bytes" } ?? "-")
            rows.append(row)
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let plural = document.count == 1 ? "model" : "models"
        var lines = ["document version \(version), \(document.count) \(plural), generation \(document.settings.generation)"]
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            lines.append(line)
        }
        return lines
    }
}
