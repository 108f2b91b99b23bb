import ModelDocument
import TypedStreamExport

/// Where the tool registers the record forms of higher modules with the export module's hooks
/// (``RecordForms``): ModelDocument's `Model` record and keyed `ModelDocument` forms. Every
/// keyed export, keyed import and plain-JSON output of the tool takes its options from here.
enum ToolRecordForms {
    /// The forms registered: `RecordForms.modelDocument`.
    static let registered: RecordForms = .modelDocument

    /// The keyed export's options.
    static var keyedExportOptions: KeyedArchiveExporter.Options {
        var options = KeyedArchiveExporter.Options()
        options.recordForms = registered
        return options
    }

    /// The keyed import's options.
    static var keyedImportOptions: KeyedArchiveImporter.Options {
        var options = KeyedArchiveImporter.Options()
        options.recordForms = registered
        return options
    }

    /// The `--plain` JSON options: the registered forms, then Foundation's classes.
    static var plainJSONOptions: PlainJSON.Options {
        var options = FoundationPlainJSON.options()
        options.recordForms = registered
        return options
    }
}
