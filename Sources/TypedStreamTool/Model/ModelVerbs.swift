import ModelDocument

/// What the `model` verbs do once their arguments are parsed: each opens or creates a document
/// through the ModelDocument library, prints one line (or the listing) on standard output and
/// the document's warnings on standard error (`warning: …`), and ends with a status. A library
/// error is one line, `model: <reason>`, and status 1; a wrong `model add` value, status 64.
///
/// Every verb that changes a document opens it, edits, and saves it atomically with its undo
/// history, so `model undo` works in a later run.
struct ModelVerbs {
    /// Where the verbs print.
    let context: CommandContext

    /// `model new DIR [--empty]`: creates a document (version 2) holding the placeholder Models,
    /// or none with `empty`.
    func new(directory: String, empty: Bool) -> ExitCode {
        do {
            let document = try ModelDocument.create(at: directory, records: empty ? [] : ModelDocument.placeholderRecords)
            return succeeded(["created \(directory) (document version \(document.version), \(document.count) models)"], warnings: document.warnings)
        } catch {
            return failed(error.description)
        }
    }

    /// `model list DIR`: the version and a table of the models (thumbnail sizes included).
    func list(directory: String) -> ExitCode {
        do {
            let document = try ModelDocument.open(at: directory)
            return succeeded(ModelListing.lines(for: document), warnings: document.warnings)
        } catch {
            return failed(error.description)
        }
    }

    /// `model add DIR --name … [--type …] [--rect x,y,w,h] [--flag N] [--kind N] [--para N]
    /// [--thumbnail FILE]`: the thumbnail file is read once the document is open.
    func add(directory: String, _ options: ModelAddOptions) -> ExitCode {
        edit(directory) { document throws(ModelDocumentError) in
            var record = options.record
            if let path = options.thumbnailPath { try record.readThumbnail(fromFile: path) }
            try document.add(record)
            return "added \(DisplayText.name(record.name ?? "")) (model \(document.count - 1))"
        }
    }

    /// `model delete DIR NAME`: removes the first model named NAME (undoable).
    func delete(directory: String, name: String) -> ExitCode {
        edit(directory) { document throws(ModelDocumentError) in
            try document.delete(named: name)
            return "deleted \(DisplayText.name(name))"
        }
    }

    /// `model undo DIR`: undoes the last edit, also one made in an earlier run.
    func undo(directory: String) -> ExitCode {
        edit(directory) { document throws(ModelDocumentError) in
            guard let label = document.undo() else { throw ModelDocumentError(.noSuchModel, path: directory, "nothing to undo") }
            return "undid \(DisplayText.escaped(label))"
        }
    }

    /// `model redo DIR`: redoes the last undone edit.
    func redo(directory: String) -> ExitCode {
        edit(directory) { document throws(ModelDocumentError) in
            guard let label = document.redo() else { throw ModelDocumentError(.noSuchModel, path: directory, "nothing to redo") }
            return "redid \(DisplayText.escaped(label))"
        }
    }

    /// `model migrate DIR`: moves an older document to the current version, keeping backups of
    /// the old archive and settings file in `backups/`.
    func migrate(directory: String, to target: DocumentVersion = .current) -> ExitCode {
        do {
            let document = try ModelDocument.open(at: directory)
            let old = document.version
            if old > target {
                return succeeded(["\(directory) is at version \(old), newer than \(target); nothing to migrate"], warnings: document.warnings)
            }
            guard try document.migrate(to: target) else {
                return succeeded(["\(directory) is already at version \(target); nothing to migrate"], warnings: document.warnings)
            }
            return succeeded(["migrated \(directory) from version \(old) to \(target) (\(document.count) models; old files kept in \(DocumentFiles.backups)/)"],
                             warnings: document.warnings)
        } catch {
            return failed(error.description)
        }
    }

    /// `model export DIR --to keyed [--output FILE]`: writes the document as an `NSKeyedArchiver`
    /// archive (default `DIR/document.keyedarchive`). Another format is a usage error.
    func export(directory: String, to format: String, output: String?) -> ExitCode {
        guard format == "keyed" else {
            return failed("--to: unknown export format '\(format)' (supported: keyed)", status: .usage)
        }
        do {
            let document = try ModelDocument.open(at: directory)
            let path = output ?? KeyedModelArchive.defaultPath(in: directory)
            let written = try KeyedModelArchive.export(document, toFile: path)
            return succeeded(["wrote \(document.count) models (version \(document.version)) to \(path) as a keyed archive (\(written) bytes)"],
                             warnings: document.warnings)
        } catch {
            return failed(error.description)
        }
    }

    /// `model import FILE DIR` over the bytes of FILE (read by the tool's bounded reader; `file`
    /// names it in messages): creates a document from a keyed archive made by `export`. Refuses,
    /// as `add` does, two models with the same name (nothing is created).
    func importKeyed(_ bytes: [UInt8], file: String, directory: String) -> ExitCode {
        do {
            let document = try KeyedModelArchive.importDocument(bytes, to: directory, path: file)
            return succeeded(["created \(directory) from \(file) (document version \(document.version), \(document.count) models)"], warnings: [])
        } catch {
            return failed(error.description)
        }
    }

    /// Prints `lines` on standard output and `warnings` on standard error; status 0.
    func succeeded(_ lines: [String], warnings: [String]) -> ExitCode {
        for line in lines { context.print(line) }
        for warning in warnings { context.printError("warning: " + warning) }
        return .success
    }

    /// Prints `warnings`, then `model: message`, on standard error; returns `status`.
    func failed(_ message: String, status: ExitCode = .failure, warnings: [String] = []) -> ExitCode {
        for warning in warnings { context.printError("warning: " + warning) }
        context.printError("model: " + message)
        return status
    }

    /// Opens, runs `body`, saves; reports warnings and errors.
    private func edit(_ directory: String, _ body: (ModelDocument) throws(ModelDocumentError) -> String) -> ExitCode {
        var document: ModelDocument?
        do {
            let opened = try ModelDocument.open(at: directory)
            document = opened
            let message = try body(opened)
            try opened.save()
            return succeeded([message], warnings: opened.warnings)
        } catch {
            return failed(error.description, warnings: document?.warnings ?? [])
        }
    }
}
