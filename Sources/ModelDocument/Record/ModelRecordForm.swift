import TypedStream
import TypedStreamExport

/// The `Model` record's forms outside the typedstream, registered with the export module's
/// hooks (``RecordForms``) so that no lower module knows the record: the layout comes from
/// ``ModelField`` and ``DocumentVersion/fields``.
///
/// - **Keyed, a lone record** (a record archived alone, or inside other objects): readable keys
///   `name`, `type` (UIDs), `rect` (`"{{x, y}, {w, h}}"`), `flag`, `kind`, `para` (absent in a
///   version 1 record), `TSVersion` when the class version is not 0; only the groups of
///   document versions 1 and 2 take this form (any other shape keeps the generic `TSGroups`).
/// - **Keyed, back to the typedstream**: those keys give the record's groups again; the
///   Objective-C ivar keys of the keyed Model document (`md_name` …, see ``KeyedModelArchive``)
///   give a ``Model`` in the layout its keys imply, written as the document writes it.
/// - **Plain JSON**: `{"$class": "Model", "name", "type", "rect": {"x", "y", "width", "height"},
///   "flag", "kind", "para"}` (and `"reserved"` for a version 3 draft record).
///
/// A whole document is converted by ``KeyedModelArchive/convert(typedstream:)`` and comes back
/// through ``KeyedModelDocumentForm``.
///
/// ```swift
/// var options = KeyedArchiveExporter.Options()
/// options.recordForms = .modelDocument
/// let keyed = try KeyedArchiveExporter.binary(typedstream: bytes, options: options)
/// ```
public struct ModelRecordForm: RecordForm {
    /// Creates the form.
    public init() {}

    /// `"Model"`.
    public var className: String { Model.className }

    /// The document versions whose records take the readable keyed form.
    static let keyedVersions: [DocumentVersion] = [.v1, .v2]
}

extension RecordForms {
    /// The forms ModelDocument registers: ``ModelRecordForm`` (`Model`) and
    /// ``KeyedModelDocumentForm`` (`ModelDocument`).
    public static var modelDocument: RecordForms {
        var forms = RecordForms()
        forms.registerModelDocumentForms()
        return forms
    }

    /// Registers ModelDocument's forms (see ``modelDocument``).
    public mutating func registerModelDocumentForms() {
        register(ModelRecordForm())
        register(KeyedModelDocumentForm())
    }
}
