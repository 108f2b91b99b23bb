/// Everything one save writes, computed in advance, and the crash-safe protocol that writes it.
///
/// The archive, the settings file and the history are committed together: after a crash at any
/// moment they are all of the old generation or all of the new one. The protocol:
///
/// 1. take the folder's lock; run ``Recovery`` (finishes or discards an earlier crashed save);
///    check the settings file is still the one the document was opened from (else `conflict`);
///    remove leftovers of a killed save: side files and history thumbnails that neither the old
///    nor the new generation uses;
/// 2. write extra files (migration backups), then the thumbnails the new history needs into
///    `history-thumbnails/` (named by SHA-256), then changed side files: each to `NAME.tmp` —
///    a hard link to the file that already holds the bytes when there is one, else a written,
///    `fsync`ed copy — `rename` into place, `fsync` the folder;
/// 3. write `document.typedstream.new`, `settings.plist.new`, `history.plist.new`, `fsync` each,
///    `fsync` the folder;
/// 4. **commit point**: write `commit.journal.tmp` (digests of the three), `fsync`, `rename` to
///    `commit.journal`, `fsync` the folder;
/// 5. `rename` each `.new` over its final name, `fsync` the folder;
/// 6. remove `commit.journal`, `fsync` the folder;
/// 7. remove side files no model uses any more and history thumbnails no edit refers to.
///
/// A crash before step 4 leaves the old files and some `.new`/`.tmp` files, which recovery
/// removes; a crash after it leaves a journal, and recovery completes step 5 from it. The settings
/// file records the archive's digest, so a pair that disagrees for any other reason is detected on
/// open. Thumbnails are outside the guarantee (they are replaced one by one, atomically each).
/// A failure before the commit point (a full disk, a read-only folder) removes every file the
/// save created, so nothing it staged is left to fill the disk.
struct CommitPlan {
    /// What the settings file must be when the save starts.
    enum Expectation: Equatable {
        /// No settings file: the document is being created.
        case absent
        /// The settings file with this SHA-256 (the one the document was opened from).
        case digest(String)
    }

    var directory: String
    var expectation: Expectation
    var generation: Int
    /// The committed files (final names from ``DocumentFiles/committed``) and their bytes.
    var files: [(name: String, bytes: [UInt8])]
    /// Files written (atomically, each) before the commit, by path relative to the folder.
    var extraFiles: [(path: String, bytes: [UInt8])] = []
    /// History thumbnails to put into `history-thumbnails/`, by SHA-256.
    var storeWrites: [(name: String, source: ThumbnailSource)] = []
    /// The history thumbnails the new history refers to; the others are removed.
    var storeInUse: Set<String> = []
    /// The history thumbnails the old history refers to (kept until the commit).
    var storeOfPreviousGeneration: Set<String> = []
    /// Thumbnail side files to (re)write, by file name.
    var thumbnailWrites: [(name: String, source: ThumbnailSource)] = []
    /// Thumbnail file names still in use after the save; other `.thumbnail` files are removed.
    var thumbnailsInUse: Set<String> = []
    /// The side files the old settings record, when they record them (kept until the commit);
    /// `nil` when unknown, and then no side file is removed before the commit.
    var thumbnailsOfPreviousGeneration: Set<String>?

    /// The journal this plan commits.
    var journal: CommitJournal {
        CommitJournal(generation: generation, entries: files.map { CommitJournal.Entry(name: $0.name, bytes: $0.bytes) })
    }

    /// Runs the protocol. `checkpoint` is called with a step number before every file system
    /// change; a test throws from it to simulate a crash at that moment (no cleanup happens).
    /// Any other failure before the commit point removes the files this save created.
    /// Throws ``ModelDocumentError`` (`conflict`, `alreadyExists`, `io`, `damaged`).
    @discardableResult
    func execute(checkpoint: ((Int) throws(ModelDocumentError) -> Void)? = nil) throws(ModelDocumentError) -> RecoveryReport {
        var step = 0
        var crashed = false
        func mark() throws(ModelDocumentError) {
            step += 1
            do { try checkpoint?(step) } catch {
                crashed = true
                throw error
            }
        }
        try DurableIO.makeDirectories(directory)
        let lock = try DurableIO.lock(directory)
        defer { DurableIO.unlock(lock) }
        try mark()
        let report = try Recovery.run(directory: directory)
        var created: [String] = []
        do {
            try writeUpToTheCommit(mark, created: &created)
        } catch {
            if !crashed { Self.removeQuietly(created) }
            throw error
        }
        try finishAfterTheCommit(mark)
        return report
    }

    /// Removes `paths` (files, and folders when empty; newest first) and ignores failures: the
    /// cleanup after a failed save.
    static func removeQuietly(_ paths: [String]) {
        for path in paths.reversed() {
            if DurableIO.isDirectory(path) { DurableIO.removeEmptyFolder(path) } else { try? DurableIO.remove(path) }
        }
    }

    /// Steps 1 (after recovery) to 4. Appends to `created` every path it creates before it does.
    private func writeUpToTheCommit(_ mark: () throws(ModelDocumentError) -> Void, created: inout [String]) throws(ModelDocumentError) {
        let settingsPath = DurableIO.join(directory, DocumentFiles.settings)
        let current = try DurableIO.readIfPresent(settingsPath)
        switch (expectation, current) {
        case (.absent, nil): break
        case (.absent, .some):
            throw ModelDocumentError(.alreadyExists, path: directory, "a Model document already exists here")
        case (.digest, nil):
            throw ModelDocumentError(.conflict, path: settingsPath, "the settings file disappeared since the document was opened; nothing was written")
        case (.digest(let expected), .some(let bytes)):
            guard SHA256.hexDigest(of: bytes) == expected else {
                throw ModelDocumentError(.conflict, path: settingsPath, "another program saved the document since it was opened; nothing was written")
            }
        }

        // 1. Leftovers of a killed save: files neither generation uses.
        let thumbnails = DurableIO.join(directory, DocumentFiles.thumbnails)
        let store = DurableIO.join(directory, DocumentFiles.historyThumbnails)
        if let previous = thumbnailsOfPreviousGeneration {
            try removeUnused(in: thumbnails, keeping: previous.union(thumbnailsInUse), mark)
        }
        try removeUnused(in: store, keeping: storeOfPreviousGeneration.union(storeInUse), mark)

        // 2. Extra files, history thumbnails, side files: each atomically.
        var touchedFolders: Set<String> = []
        func makeFolder(_ folder: String) throws(ModelDocumentError) {
            if !DurableIO.isDirectory(folder) {
                created.append(folder)   // removed (when empty) after a failure
                try DurableIO.makeDirectories(folder)
            }
            touchedFolders.insert(folder)
        }
        func place(_ source: ThumbnailSource, at path: String) throws(ModelDocumentError) {
            if !DurableIO.exists(path) { created.append(path) }
            created.append(path + DocumentFiles.temporarySuffix)
            try mark()
            try source.place(at: path)
        }
        for extra in extraFiles {
            let path = DurableIO.join(directory, extra.path)
            if let slash = path.lastIndex(of: "/") { try makeFolder(String(path[..<slash])) }
            if !DurableIO.exists(path) { created.append(path) }
            created.append(path + DocumentFiles.temporarySuffix)
            try mark()
            try DurableIO.writeSynced(path + DocumentFiles.temporarySuffix, extra.bytes)
            try mark()
            try DurableIO.rename(path + DocumentFiles.temporarySuffix, path)
        }
        if !storeWrites.isEmpty { try makeFolder(store) }
        for write in storeWrites { try place(write.source, at: DurableIO.join(store, write.name)) }
        if !thumbnailWrites.isEmpty { try makeFolder(thumbnails) }
        for write in thumbnailWrites { try place(write.source, at: DurableIO.join(thumbnails, write.name)) }
        for folder in touchedFolders.sorted() { try DurableIO.syncDirectory(folder) }

        // 3. Stage.
        for file in files {
            let staged = DurableIO.join(directory, file.name + DocumentFiles.stagedSuffix)
            created.append(staged)
            try mark()
            try DurableIO.writeSynced(staged, file.bytes)
        }
        try DurableIO.syncDirectory(directory)

        // 4. Commit point.
        let journalPath = DurableIO.join(directory, DocumentFiles.journal)
        created.append(journalPath + DocumentFiles.temporarySuffix)
        try mark()
        try DurableIO.writeSynced(journalPath + DocumentFiles.temporarySuffix, journal.bytes)
        try mark()
        try DurableIO.rename(journalPath + DocumentFiles.temporarySuffix, journalPath)
        // Committed: from here on recovery rolls the save forward, so nothing may be removed.
        created.removeAll()
        try DurableIO.syncDirectory(directory)
    }

    /// Steps 5 to 7: the save is committed, so a failure here is finished by recovery.
    private func finishAfterTheCommit(_ mark: () throws(ModelDocumentError) -> Void) throws(ModelDocumentError) {
        // 5. Roll forward.
        for file in files {
            try mark()
            let final = DurableIO.join(directory, file.name)
            try DurableIO.rename(final + DocumentFiles.stagedSuffix, final)
        }
        try DurableIO.syncDirectory(directory)

        // 6. Done.
        let journalPath = DurableIO.join(directory, DocumentFiles.journal)
        try mark()
        try DurableIO.remove(journalPath)
        try DurableIO.syncDirectory(directory)

        // 7. Unused side files and history thumbnails.
        try removeUnused(in: DurableIO.join(directory, DocumentFiles.thumbnails), keeping: thumbnailsInUse, mark)
        try removeUnused(in: DurableIO.join(directory, DocumentFiles.historyThumbnails), keeping: storeInUse, mark)
    }

    /// Removes the thumbnail files of `folder` (side files ending `.thumbnail`, or history
    /// thumbnails named by a SHA-256) whose names are not in `keeping`, then flushes the folder.
    /// Best effort: a file that cannot be removed now is removed by a later save.
    private func removeUnused(in folder: String, keeping: Set<String>, _ mark: () throws(ModelDocumentError) -> Void) throws(ModelDocumentError) {
        var removed = false
        for name in (try? DurableIO.list(folder)) ?? [] where !keeping.contains(name)
            && (name.hasSuffix("." + ThumbnailName.fileExtension) || SHA256.isHexDigest(name)) {
            try mark()
            removed = (try? DurableIO.remove(DurableIO.join(folder, name))) != nil || removed
        }
        if removed { try? DurableIO.syncDirectory(folder) }
    }
}
