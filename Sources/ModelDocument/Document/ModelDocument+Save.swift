extension ModelDocument {
    /// A save worked out in advance: the commit plan and the state to adopt once it succeeded.
    struct PreparedSave {
        var plan: CommitPlan
        var settings: DocumentSettings
        var archive: [UInt8]
        var settingsBytes: [UInt8]
        var thumbnailDigests: [String: String]
    }

    /// Computes every byte a save writes. Throws ``ModelDocumentError`` `notRepresentable` when a
    /// value does not fit the version.
    func prepareSave() throws(ModelDocumentError) -> PreparedSave {
        let archive = try archiveBytes()
        let digest = SHA256.hexDigest(of: archive)
        var next = settings
        next.version = version.rawValue
        next.generation = settings.generation + 1
        next.format = DocumentSettings.formatIdentifier
        next.writer = DocumentSettings.writerIdentifier
        next.archiveFile = DocumentFiles.archive
        next.archiveLength = archive.count
        next.archiveSHA256 = digest
        next.modelCount = models.count
        let settingsBytes = try next.plistBytes()
        let historyBytes = try HistoryFile.encode(history, models: models, version: version, archiveSHA256: digest)

        var plan = CommitPlan(directory: directory, expectation: expectation, generation: next.generation,
                              files: [(DocumentFiles.archive, archive), (DocumentFiles.settings, settingsBytes), (DocumentFiles.history, historyBytes)])
        plan.extraFiles = pendingExtraFiles
        var digests: [String: String] = [:]
        for model in models {
            guard let fileName = ThumbnailName.fileName(for: model.name), let bytes = model.thumbnail,
                  digests[fileName] == nil else { continue }
            let thumbnailDigest = SHA256.hexDigest(of: bytes)
            digests[fileName] = thumbnailDigest
            if thumbnailDigests[fileName] != thumbnailDigest { plan.thumbnailWrites.append((fileName, bytes)) }
        }
        plan.thumbnailsInUse = unreadableThumbnails.union(digests.keys)
        return PreparedSave(plan: plan, settings: next, archive: archive, settingsBytes: settingsBytes, thumbnailDigests: digests)
    }

    /// Adopts the state of a save that completed.
    func finishSave(_ prepared: PreparedSave) {
        settings = prepared.settings
        expectation = .digest(SHA256.hexDigest(of: prepared.settingsBytes))
        currentArchive = prepared.archive
        currentSettings = prepared.settingsBytes
        thumbnailDigests = prepared.thumbnailDigests
        pendingExtraFiles = []
        hasUnsavedChanges = false
    }

    /// Writes the archive, the settings file (generation + 1, the archive's checksum) and the undo
    /// history as one atomic commit, then the thumbnails that changed. After a crash at any moment
    /// the next ``open(at:options:)`` finds either the old or the new generation, whole.
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
