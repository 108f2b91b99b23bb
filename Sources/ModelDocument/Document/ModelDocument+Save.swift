extension ModelDocument {
    /// A save worked out in advance: the commit plan and the state to adopt once it succeeded.
    struct PreparedSave {
        var plan: CommitPlan
        var settings: DocumentSettings
        var archive: [UInt8]
        var settingsBytes: [UInt8]
    }

    /// Every model the undo history holds (a model may also be in the document).
    var historyModels: [Model] {
        (history.undoStack + history.redoStack).flatMap { $0.before + $0.after }
    }

    /// Computes every byte a save writes. Reads and hashes only the thumbnails that enter the
    /// history store now (a new or deleted model's); the others are moved by name. Throws
    /// ``ModelDocumentError`` `notRepresentable` when a value does not fit the version, `io`
    /// when such a thumbnail cannot be read.
    func prepareSave() throws(ModelDocumentError) -> PreparedSave {
        loadHistory()
        let archive = try archiveBytes()
        let digest = SHA256.hexDigest(of: archive)
        let store = path(DocumentFiles.historyThumbnails)
        let thumbnails = path(DocumentFiles.thumbnails)

        // The history's thumbnails, once each by content.
        var stored: [String: ThumbnailSource] = [:]
        for model in historyModels {
            guard var source = model.thumbnailSource else { continue }
            let sha = try source.digest()
            model.thumbnailSource = source
            if stored[sha] == nil { stored[sha] = source }
        }
        var storeWrites: [(name: String, source: ThumbnailSource)] = []
        for (sha, source) in stored.sorted(by: { $0.key < $1.key })
        where DurableIO.fileSize(DurableIO.join(store, sha)) != source.length {
            storeWrites.append((sha, source))
        }

        // The side files of the models in the document.
        var recorded: Set<String> = []
        var thumbnailWrites: [(name: String, source: ThumbnailSource)] = []
        for model in models {
            guard let fileName = ThumbnailName.fileName(for: model.name), let source = model.thumbnailSource,
                  !recorded.contains(fileName) else { continue }
            recorded.insert(fileName)
            if source.filePath == DurableIO.join(thumbnails, fileName) { continue }
            if let sha = source.sha256, stored[sha] != nil {
                // In the store by the time side files are written: link to it, never copy twice.
                thumbnailWrites.append((fileName, ThumbnailSource(file: DurableIO.join(store, sha), length: source.length, sha256: sha)))
            } else {
                thumbnailWrites.append((fileName, source))
            }
        }

        var next = settings
        next.version = version.rawValue
        next.generation = settings.generation + 1
        next.format = DocumentSettings.formatIdentifier
        next.writer = DocumentSettings.writerIdentifier
        next.archiveFile = DocumentFiles.archive
        next.archiveLength = archive.count
        next.archiveSHA256 = digest
        next.modelCount = models.count
        next.thumbnailFiles = recorded.union(unreadableThumbnails).sorted()
        let settingsBytes = try next.plistBytes()
        let historyBytes = try HistoryFile.encode(history, models: models, version: version, archiveSHA256: digest)

        var plan = CommitPlan(directory: directory, expectation: expectation, generation: next.generation,
                              files: [(DocumentFiles.archive, archive), (DocumentFiles.settings, settingsBytes), (DocumentFiles.history, historyBytes)])
        plan.extraFiles = pendingExtraFiles
        plan.storeWrites = storeWrites
        plan.storeInUse = Set(stored.keys)
        plan.storeOfPreviousGeneration = committedHistoryThumbnails
        plan.thumbnailWrites = thumbnailWrites
        plan.thumbnailsInUse = unreadableThumbnails.union(recorded)
        plan.thumbnailsOfPreviousGeneration = settings.thumbnailFiles.map(Set.init)
        return PreparedSave(plan: plan, settings: next, archive: archive, settingsBytes: settingsBytes)
    }

    /// Adopts the state of a save that completed: models now find their thumbnails in their side
    /// files, and the history's in the store (memory copies are let go).
    func finishSave(_ prepared: PreparedSave) {
        settings = prepared.settings
        expectation = .digest(SHA256.hexDigest(of: prepared.settingsBytes))
        currentArchive = prepared.archive
        currentSettings = prepared.settingsBytes
        pendingExtraFiles = []
        hasUnsavedChanges = false
        committedHistoryThumbnails = prepared.plan.storeInUse
        let store = path(DocumentFiles.historyThumbnails)
        for model in historyModels {
            guard let source = model.thumbnailSource, let sha = source.sha256 else { continue }
            model.thumbnailSource = ThumbnailSource(file: DurableIO.join(store, sha), length: source.length, sha256: sha)
        }
        let thumbnails = path(DocumentFiles.thumbnails)
        for model in models {
            guard let fileName = ThumbnailName.fileName(for: model.name), let source = model.thumbnailSource else { continue }
            model.thumbnailSource = ThumbnailSource(file: DurableIO.join(thumbnails, fileName), length: source.length, sha256: source.sha256)
        }
    }

    /// Writes the archive, the settings file (generation + 1, the archive's checksum) and the undo
    /// history as one atomic commit, with the thumbnails that changed. After a crash at any moment
    /// the next ``open(at:options:)`` finds either the old or the new generation, whole; after a
    /// failure (a full disk, a read-only folder) nothing this save wrote is left behind.
    ///
    /// Throws ``ModelDocumentError``: `notRepresentable`, `conflict` (another program saved since
    /// this document was opened; nothing written), `alreadyExists`, `io`, `damaged`.
    public func save() throws(ModelDocumentError) {
        let prepared = try prepareSave()
        let report = try prepared.plan.execute()
        warnings += report.messages
        finishSave(prepared)
    }
}
