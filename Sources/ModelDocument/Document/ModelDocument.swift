import TypedStream
import TypedStreamFoundation

/// A Model document on disk, opened for editing: the library facade behind `model new/list/add/
/// delete/undo/migrate`.
///
/// ```swift
/// let document = try ModelDocument.openOrCreate(at: "/tmp/MyModels")   // placeholder on first run
/// try document.add(ModelRecord(name: "Dune", type: "photo", flag: 1))
/// try document.delete(named: "Sunrise")
/// document.undo()                                                      // Sunrise is back, bytes and all
/// try document.save()                                                  // atomic; history kept
/// ```
///
/// Edits change memory only; ``save()`` writes the archive, the settings file and the undo
/// history as one atomic commit (see ``DocumentFiles`` for the layout and ``CommitPlan`` for the
/// protocol). ``open(at:options:)`` finishes or discards a save a crash interrupted.
public final class ModelDocument {
    /// Options for ``open(at:options:)``.
    public struct OpenOptions: Sendable {
        /// Refuse an archive whose SHA-256 or length differs from the settings file's record of
        /// it, and a settings file with no record of it (unless in the Objective-C app's form, see
        /// ``DocumentSettings``). Default `true`.
        public var verifyChecksum = true
        /// Creates the default options.
        public init() {}
    }

    /// The document folder.
    public let directory: String
    /// The document version (from the settings file; changed by ``migrate(to:)``).
    public private(set) var version: DocumentVersion
    /// The settings as last read or written.
    public internal(set) var settings: DocumentSettings
    /// Things worth telling the user: missing thumbnails, a recovered save, an ignored history.
    public internal(set) var warnings: [String] = []
    /// What opening had to repair after a crash.
    public private(set) var recovery = RecoveryReport()
    /// The records, in archive order. Treat them as read-only: change them with ``update(at:to:)``
    /// so the change can be undone.
    public private(set) var models: [Model]
    /// Whether there are edits not yet saved.
    public internal(set) var hasUnsavedChanges = false
    /// Whether ``openOrCreate(at:)`` created this document just now.
    public private(set) var wasCreated = false

    var rootChain: [ArchiveClassLink]
    /// The undo history. Read from `history.plist` on first use, so commands that never need it
    /// (`list`, `export`) do not pay for its length.
    var history: EditHistory {
        get {
            loadHistory()
            return loadedHistory
        }
        set {
            loadHistory()
            loadedHistory = newValue
        }
    }
    private var loadedHistory = EditHistory()
    /// What the history file must be decoded against: the models, version and archive digest
    /// of the moment the document was opened; `nil` once loaded.
    private var pendingHistory: (models: [Model], version: DocumentVersion, archiveSHA256: String)?
    var expectation: CommitPlan.Expectation
    /// Thumbnail files that exist but could not be read: never removed by a save.
    var unreadableThumbnails: Set<String> = []
    /// The files of `history-thumbnails/` the history on disk refers to (as last read or saved).
    var committedHistoryThumbnails: Set<String> = []
    /// Files a migration writes before its commit (backups).
    var pendingExtraFiles: [(path: String, bytes: [UInt8])] = []
    /// The archive and settings bytes as last read or written.
    var currentArchive: [UInt8] = []
    var currentSettings: [UInt8] = []

    init(directory: String, version: DocumentVersion, settings: DocumentSettings, models: [Model],
         rootChain: [ArchiveClassLink], expectation: CommitPlan.Expectation) {
        self.directory = directory
        self.version = version
        self.settings = settings
        self.models = models
        self.rootChain = rootChain
        self.expectation = expectation
    }

    func path(_ name: String) -> String { DurableIO.join(directory, name) }

    // MARK: - Open and create

    /// Opens the document in `directory`: recovers an interrupted save, reads the settings file,
    /// refuses a version newer than ``DocumentVersion/newestUnderstood``, checks the archive
    /// against the settings, decodes it with that version's layout, and finds the thumbnails (without reading them: see ``Model/thumbnail``). A model without
    /// a thumbnail is normal; a thumbnail the settings record but whose file is missing is a
    /// warning, never a failure. The undo history is read when first needed (an edit, undo,
    /// redo or save); one that cannot be used is then ignored with a warning.
    ///
    /// Throws ``ModelDocumentError``: `notADocument`, `newerVersion`, `invalidVersion`,
    /// `malformedSettings`, `damaged` (also for a settings file without the archive's checksum),
    /// `malformedArchive`, `io`.
    public static func open(at directory: String, options: OpenOptions = OpenOptions()) throws(ModelDocumentError) -> ModelDocument {
        guard DurableIO.isDirectory(directory) else {
            throw ModelDocumentError(.notADocument, path: directory, "no such folder")
        }
        let lock = try DurableIO.lock(directory)
        defer { DurableIO.unlock(lock) }
        let report = try Recovery.run(directory: directory)

        let settingsPath = DurableIO.join(directory, DocumentFiles.settings)
        let archivePath = DurableIO.join(directory, DocumentFiles.archive)
        guard let settingsBytes = try DurableIO.readIfPresent(settingsPath) else {
            if DurableIO.exists(archivePath) {
                throw ModelDocumentError(.notADocument, path: settingsPath, "the settings file is missing, so the document version cannot be told")
            }
            throw ModelDocumentError(.notADocument, path: directory, "no Model document here (no \(DocumentFiles.settings))")
        }
        let settings = try DocumentSettings(plist: settingsBytes, path: settingsPath)
        let version = try settings.documentVersion(path: settingsPath)
        guard let archiveBytes = try DurableIO.readIfPresent(archivePath) else {
            throw ModelDocumentError(.damaged, path: archivePath, "the archive is missing")
        }
        let digest = SHA256.hexDigest(of: archiveBytes)
        if options.verifyChecksum {
            if settings.archiveSHA256 == nil, !settings.isObjectiveCForm {
                throw ModelDocumentError(.damaged, path: settingsPath, Self.missingChecksumReason(version: version))
            }
            if let expected = settings.archiveSHA256, expected != digest {
                throw ModelDocumentError(.damaged, path: archivePath, "the archive's SHA-256 \(digest) is not the \(expected) the settings file records; it was changed outside this program")
            }
            if let length = settings.archiveLength, length != archiveBytes.count {
                throw ModelDocumentError(.damaged, path: archivePath, "the archive has \(archiveBytes.count) bytes, the settings file records \(length)")
            }
        }
        let contents: ModelArchive.Contents
        do { contents = try ModelArchive.decodeDocument(archiveBytes, version: version) } catch {
            throw ModelDocumentError(error, path: archivePath)
        }
        let document = ModelDocument(directory: directory, version: version, settings: settings, models: contents.models,
                                     rootChain: contents.rootChain, expectation: .digest(SHA256.hexDigest(of: settingsBytes)))
        document.currentArchive = archiveBytes
        document.currentSettings = settingsBytes
        document.recovery = report
        document.warnings += report.messages
        if let count = settings.modelCount, count != contents.models.count {
            document.warnings.append("the settings file records \(count) models, the archive holds \(contents.models.count)")
        }
        document.pendingHistory = (contents.models, version, digest)
        document.loadThumbnails()
        return document
    }

    /// Creates a new document in `directory` (made if missing) holding `records`, and saves it.
    /// Throws ``ModelDocumentError`` `alreadyExists` when a document is there, `notRepresentable`
    /// when a record does not fit `version`, `io`.
    public static func create(at directory: String, records: [ModelRecord] = placeholderRecords,
                              version: DocumentVersion = .current) throws(ModelDocumentError) -> ModelDocument {
        try checkUniqueNames(records, path: directory, action: "created")
        for record in records {
            let lost = record.fieldsLost(in: version)
            guard lost.isEmpty else {
                throw ModelDocumentError(.notRepresentable, "document version \(version) cannot hold \(lost.joined(separator: ", ")) of \(DisplayText.name(record.name))")
            }
        }
        if DurableIO.exists(DurableIO.join(directory, DocumentFiles.settings)) || DurableIO.exists(DurableIO.join(directory, DocumentFiles.archive)) {
            throw ModelDocumentError(.alreadyExists, path: directory, "a Model document already exists here")
        }
        let document = ModelDocument(directory: directory, version: version, settings: DocumentSettings(version: version.rawValue),
                                     models: records.map { Model($0, layout: version) },
                                     rootChain: ArrayObject.mutableChain, expectation: .absent)
        try document.save()
        return document
    }

    /// Opens the document in `directory`, or creates the placeholder document (a few sample
    /// Models) when there is none yet — the first run. Throws as ``open(at:options:)`` and
    /// ``create(at:records:version:)``.
    public static func openOrCreate(at directory: String, options: OpenOptions = OpenOptions()) throws(ModelDocumentError) -> ModelDocument {
        let exists = DurableIO.exists(DurableIO.join(directory, DocumentFiles.settings))
            || DurableIO.exists(DurableIO.join(directory, DocumentFiles.archive))
            || DurableIO.exists(DurableIO.join(directory, DocumentFiles.journal))
        if exists { return try open(at: directory, options: options) }
        let document = try create(at: directory)
        document.wasCreated = true
        return document
    }

    /// Finds each model's side file without reading it (one `stat` each): the bytes are read
    /// only when asked for. Warns about a recorded thumbnail whose file is missing, and about one
    /// that cannot be read.
    private func loadThumbnails() {
        let folder = path(DocumentFiles.thumbnails)
        let recorded = Set(settings.thumbnailFiles ?? [])
        for model in models {
            model.thumbnailSource = nil
            guard let fileName = ThumbnailName.fileName(for: model.name) else { continue }
            let filePath = DurableIO.join(folder, fileName)
            if let length = DurableIO.fileSize(filePath) {
                if DurableIO.isReadable(filePath) {
                    model.thumbnailSource = ThumbnailSource(file: filePath, length: length)
                } else {
                    unreadableThumbnails.insert(fileName)
                    warnings.append("thumbnail of model \(DisplayText.name(model.name)) cannot be read (\(DocumentFiles.thumbnails)/\(fileName)); its image is empty")
                }
            } else if recorded.contains(fileName) {
                warnings.append("thumbnail of model \(DisplayText.name(model.name)) not found (\(DocumentFiles.thumbnails)/\(fileName)); its image is empty")
            }
        }
    }

    /// The reason given for a settings file without the archive's checksum: what is wrong, and
    /// how to recover, on one line.
    static func missingChecksumReason(version: DocumentVersion) -> String {
        "no \(DocumentSettings.Key.archiveSHA256) entry, so \(DocumentFiles.archive) cannot be checked; "
            + "to recover, restore \(DocumentFiles.settings) from a backup, or, if you trust the archive, "
            + "make \(DocumentFiles.settings) a property list holding only <key>version</key><integer>\(version.rawValue)</integer> "
            + "(the Objective-C app's form) and the next save records a new checksum"
    }

    /// Refuses records of which two share a non-empty name: thumbnails are found by name, so one
    /// image would be lost. Throws ``ModelDocumentError`` `duplicateName`.
    static func checkUniqueNames(_ records: [ModelRecord], path: String?, action: String) throws(ModelDocumentError) {
        var first: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            guard let name = record.name, !name.isEmpty else { continue }
            if let earlier = first[name] {
                throw ModelDocumentError(.duplicateName, path: path, "models \(earlier) and \(index) are both named \(DisplayText.name(name)); "
                    + "a document's names must be unique, as 'model add' requires (thumbnails are found by name), so nothing was \(action)")
            }
            first[name] = index
        }
    }

    /// Reads the undo history if it has not been read yet. A history that cannot be used (of
    /// another archive, malformed, naming a missing thumbnail) is ignored with a warning.
    func loadHistory() {
        guard let pending = pendingHistory else { return }
        pendingHistory = nil
        do {
            if let historyBytes = try DurableIO.readIfPresent(path(DocumentFiles.history)) {
                loadedHistory = try HistoryFile.decode(historyBytes, models: pending.models, version: pending.version,
                                                       archiveSHA256: pending.archiveSHA256, store: path(DocumentFiles.historyThumbnails))
                committedHistoryThumbnails = historyThumbnailDigests()
            }
        } catch {
            warnings.append("undo history ignored: \(error.reason)")
        }
    }

    /// The digests of every thumbnail the undo history refers to.
    func historyThumbnailDigests() -> Set<String> {
        var digests: Set<String> = []
        for edit in history.undoStack + history.redoStack {
            for model in edit.before + edit.after {
                if let digest = model.thumbnailSource?.sha256 { digests.insert(digest) }
            }
        }
        return digests
    }

    // MARK: - Reading

    /// The records' values, in order.
    public var records: [ModelRecord] { models.map(\.record) }

    /// How many records the document holds.
    public var count: Int { models.count }

    /// The index of the first model named `name`.
    public func index(named name: String) -> Int? { models.firstIndex { $0.name == name } }

    /// The archive bytes the models would be saved as now. Throws ``ModelDocumentError``
    /// `notRepresentable` when a value does not fit the version.
    public func archiveBytes() throws(ModelDocumentError) -> [UInt8] {
        do { return try ModelArchive.encodeDocument(models, version: version, rootChain: rootChain) } catch {
            throw ModelDocumentError(error, path: path(DocumentFiles.archive), code: .notRepresentable)
        }
    }

    // MARK: - Editing

    private func check(_ record: ModelRecord, replacing index: Int?) throws(ModelDocumentError) {
        let lost = record.fieldsLost(in: version)
        guard lost.isEmpty else {
            let hint = version < .current ? "; run `model migrate` to move the document to version \(DocumentVersion.current)" : ""
            throw ModelDocumentError(.notRepresentable, path: directory, "document version \(version) has no place for \(lost.joined(separator: ", "))\(hint)")
        }
        if let name = record.name, !name.isEmpty,
           let clash = models.indices.first(where: { $0 != index && models[$0].name == name }) {
            throw ModelDocumentError(.duplicateName, path: directory, "model \(clash) is already named \(DisplayText.name(name)) (thumbnails are found by name)")
        }
    }

    private func checkIndex(_ index: Int, allowEnd: Bool = false) throws(ModelDocumentError) {
        guard index >= 0, index < models.count || (allowEnd && index == models.count) else {
            throw ModelDocumentError(.noSuchModel, path: directory, "no model at index \(index) (the document holds \(models.count))")
        }
    }

    private func perform(_ edit: Edit) {
        _ = edit.apply(to: &models)
        history.record(edit)
        hasUnsavedChanges = true
    }

    private static func display(_ name: String?) -> String { DisplayText.name(name) }

    /// Appends a new model. Throws ``ModelDocumentError`` `notRepresentable` (e.g. `para` in a
    /// version 1 document) or `duplicateName`.
    public func add(_ record: ModelRecord) throws(ModelDocumentError) {
        try insert(record, at: models.count)
    }

    /// Inserts a new model at `index`. Throws as ``add(_:)``, or `noSuchModel` for a bad index.
    public func insert(_ record: ModelRecord, at index: Int) throws(ModelDocumentError) {
        try checkIndex(index, allowEnd: true)
        try check(record, replacing: nil)
        perform(Edit(label: "add \(Self.display(record.name))", index: index, before: [], after: [Model(record, layout: version)]))
    }

    /// Replaces the values of the model at `index` (a new Model takes its place, so undo puts the
    /// old one back exactly). Throws as ``insert(_:at:)``.
    public func update(at index: Int, to record: ModelRecord) throws(ModelDocumentError) {
        try checkIndex(index)
        try check(record, replacing: index)
        let updated = models[index].copy()
        updated.apply(record)
        perform(Edit(label: "update \(Self.display(record.name))", index: index, before: [models[index]], after: [updated]))
    }

    /// Removes the model at `index` and returns its values. Throws `noSuchModel`.
    @discardableResult
    public func delete(at index: Int) throws(ModelDocumentError) -> ModelRecord {
        try checkIndex(index)
        let removed = models[index]
        perform(Edit(label: "delete \(Self.display(removed.name))", index: index, before: [removed], after: []))
        return removed.record
    }

    /// Removes the first model named `name`. Throws `noSuchModel`.
    @discardableResult
    public func delete(named name: String) throws(ModelDocumentError) -> ModelRecord {
        guard let index = index(named: name) else {
            throw ModelDocumentError(.noSuchModel, path: directory, "no model is named \(DisplayText.name(name))")
        }
        return try delete(at: index)
    }

    /// Whether there is an edit to undo.
    public var canUndo: Bool { !history.undoStack.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !history.redoStack.isEmpty }
    /// What ``undo()`` would undo ("delete 'Sunrise'").
    public var undoLabel: String? { history.undoStack.last?.label }
    /// What ``redo()`` would redo.
    public var redoLabel: String? { history.redoStack.last?.label }

    /// Undoes the last edit and returns its label, or `nil` when there is nothing to undo.
    @discardableResult
    public func undo() -> String? {
        guard let edit = history.undoStack.last, edit.revert(&models) else { return nil }
        history.undoStack.removeLast()
        history.redoStack.append(edit)
        hasUnsavedChanges = true
        return edit.label
    }

    /// Redoes the last undone edit and returns its label, or `nil` when there is nothing to redo.
    @discardableResult
    public func redo() -> String? {
        guard let edit = history.redoStack.last, edit.apply(to: &models) else { return nil }
        history.redoStack.removeLast()
        history.undoStack.append(edit)
        hasUnsavedChanges = true
        return edit.label
    }

    // MARK: - Migration

    /// Moves the document to `target` (default: the current version) and saves it, after writing
    /// copies of the old archive and settings file to `backups/`. Returns `false` when the
    /// document already is at `target`. Undo history is kept (its records move along).
    /// Throws ``ModelDocumentError`` `notRepresentable` for a move to an older version, and as
    /// ``save()``.
    @discardableResult
    public func migrate(to target: DocumentVersion = .current) throws(ModelDocumentError) -> Bool {
        guard target != version else { return false }
        guard target > version else {
            throw ModelDocumentError(.notRepresentable, path: directory, "cannot migrate from version \(version) down to \(target)")
        }
        let old = version
        let stem = "\(DocumentFiles.backups)/v\(old.rawValue)-generation\(settings.generation)"
        let backups: [(path: String, bytes: [UInt8])] = [
            (stem + "-" + DocumentFiles.archive, currentArchive),
            (stem + "-" + DocumentFiles.settings, currentSettings),
        ]
        let savedExtras = pendingExtraFiles
        pendingExtraFiles += backups
        version = target
        do { try save() } catch {
            version = old
            pendingExtraFiles = savedExtras
            throw error
        }
        return true
    }
}
