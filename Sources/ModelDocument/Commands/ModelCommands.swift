/// The logic of the `model` subcommands, as functions returning their output and exit status;
/// the argument layer parses the command line and calls these.
///
/// ```swift
/// let out = ModelCommands.add(directory: "Docs/A", request: try ModelAddRequest(name: "Dune", rect: "0,0,10,10"))
/// print(out.standardOutput, terminator: "")   // "added 'Dune' (model 3)\n"
/// exit(out.exitStatus)
/// ```
///
/// Every command that changes a document opens it, edits, and saves it atomically with its undo
/// history, so `model undo` works in a later run.
public enum ModelCommands {
    /// `model new DIR [--empty]`: creates a document (version 2) holding the placeholder Models,
    /// or none with `empty`.
    public static func new(directory: String, empty: Bool = false) -> CommandOutput {
        do {
            let document = try ModelDocument.create(at: directory, records: empty ? [] : ModelDocument.placeholderRecords)
            return .succeeded(["created \(directory) (document version \(document.version), \(document.count) models)"], warnings: document.warnings)
        } catch {
            return .failed(error.description)
        }
    }

    /// `model list DIR`: the version and a table of the models (thumbnail sizes included).
    public static func list(directory: String) -> CommandOutput {
        do {
            let document = try ModelDocument.open(at: directory)
            return .succeeded(ModelListing.lines(for: document), warnings: document.warnings)
        } catch {
            return .failed(error.description)
        }
    }

    /// `model add DIR --name … [--type …] [--rect x,y,w,h] [--flag N] [--kind N] [--para N]
    /// [--thumbnail FILE]`.
    public static func add(directory: String, request: ModelAddRequest) -> CommandOutput {
        edit(directory) { document throws(ModelDocumentError) in
            var record = request.record
            if let path = request.thumbnailPath { record.thumbnail = try DurableIO.read(path) }
            try document.add(record)
            return "added \(DisplayText.name(record.name ?? "")) (model \(document.count - 1))"
        }
    }

    /// `model add` straight from option values: usage errors exit with 64.
    public static func add(directory: String, name: String?, type: String? = nil, rect: String? = nil, flag: String? = nil,
                           kind: String? = nil, para: String? = nil, thumbnail: String? = nil) -> CommandOutput {
        do {
            let request = try ModelAddRequest(name: name, type: type, rect: rect, flag: flag, kind: kind, para: para, thumbnail: thumbnail)
            return add(directory: directory, request: request)
        } catch {
            return .failed(error.description, status: CommandOutput.usage)
        }
    }

    /// `model delete DIR NAME`: removes the first model named NAME (undoable).
    public static func delete(directory: String, name: String) -> CommandOutput {
        edit(directory) { document throws(ModelDocumentError) in
            try document.delete(named: name)
            return "deleted \(DisplayText.name(name))"
        }
    }

    /// `model undo DIR`: undoes the last edit, also one made in an earlier run.
    public static func undo(directory: String) -> CommandOutput {
        edit(directory) { document throws(ModelDocumentError) in
            guard let label = document.undo() else { throw ModelDocumentError(.noSuchModel, path: directory, "nothing to undo") }
            return "undid \(DisplayText.escaped(label))"
        }
    }

    /// `model redo DIR`: redoes the last undone edit.
    public static func redo(directory: String) -> CommandOutput {
        edit(directory) { document throws(ModelDocumentError) in
            guard let label = document.redo() else { throw ModelDocumentError(.noSuchModel, path: directory, "nothing to redo") }
            return "redid \(DisplayText.escaped(label))"
        }
    }

    /// `model migrate DIR`: moves an older document to the current version, keeping backups of
    /// the old archive and settings file in `backups/`.
    public static func migrate(directory: String, to target: DocumentVersion = .current) -> CommandOutput {
        do {
            let document = try ModelDocument.open(at: directory)
            let old = document.version
            if old > target {
                return .succeeded(["\(directory) is at version \(old), newer than \(target); nothing to migrate"], warnings: document.warnings)
            }
            guard try document.migrate(to: target) else {
                return .succeeded(["\(directory) is already at version \(target); nothing to migrate"], warnings: document.warnings)
            }
            return .succeeded(["migrated \(directory) from version \(old) to \(target) (\(document.count) models; old files kept in \(DocumentFiles.backups)/)"],
                              warnings: document.warnings)
        } catch {
            return .failed(error.description)
        }
    }

    /// `model export DIR --to keyed [--output FILE]`: writes the document as an `NSKeyedArchiver`
    /// archive (default `DIR/document.keyedarchive`). Another format exits with 64.
    public static func export(directory: String, to format: String, output: String? = nil) -> CommandOutput {
        guard format == "keyed" else {
            return .failed("--to: unknown export format '\(format)' (supported: keyed)", status: CommandOutput.usage)
        }
        do {
            let document = try ModelDocument.open(at: directory)
            let bytes = try KeyedModelArchive.export(document)
            let path = output ?? DurableIO.join(directory, KeyedModelArchive.defaultFileName)
            try KeyedArchiving.writeAtomically(bytes, to: path)
            return .succeeded(["wrote \(document.count) models (version \(document.version)) to \(path) as a keyed archive (\(bytes.count) bytes)"],
                              warnings: document.warnings)
        } catch {
            return .failed(error.description)
        }
    }

    /// `model import FILE DIR`: creates a Model document from a keyed archive made by `export`.
    /// Refuses, as `add` does, two models with the same name (nothing is created).
    public static func importKeyed(file: String, directory: String) -> CommandOutput {
        do {
            return importKeyed(try DurableIO.read(file), file: file, directory: directory)
        } catch {
            return .failed(error.description)
        }
    }

    /// `model import FILE DIR` over the bytes of FILE, read by the caller (the command-line
    /// tool reads every input the same bounded way); `file` names it in the message.
    public static func importKeyed(_ bytes: [UInt8], file: String, directory: String) -> CommandOutput {
        do {
            let document = try KeyedModelArchive.importDocument(bytes, to: directory, path: file)
            return .succeeded(["created \(directory) from \(file) (document version \(document.version), \(document.count) models)"])
        } catch {
            return .failed(error.description)
        }
    }

    /// Opens, runs `body`, saves; reports warnings and errors.
    private static func edit(_ directory: String, _ body: (ModelDocument) throws(ModelDocumentError) -> String) -> CommandOutput {
        var document: ModelDocument?
        do {
            let opened = try ModelDocument.open(at: directory)
            document = opened
            let message = try body(opened)
            try opened.save()
            return .succeeded([message], warnings: opened.warnings)
        } catch {
            return .failed(error.description, warnings: document?.warnings ?? [])
        }
    }
}
