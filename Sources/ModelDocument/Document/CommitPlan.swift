/// Everything one save writes, computed in advance, and the crash-safe protocol that writes it.
///
/// The archive, the settings file and the history are committed together: after a crash at any
/// moment they are all of the old generation or all of the new one. The protocol:
///
/// 1. take the folder's lock; run ``Recovery`` (finishes or discards an earlier crashed save);
///    check the settings file is still the one the document was opened from (else `conflict`);
/// 2. write extra files (migration backups) and changed thumbnails: each to `NAME.tmp`,
///    `fsync`, `rename` into place, `fsync` the folder;
/// 3. write `document.typedstream.new`, `settings.plist.new`, `history.plist.new`, `fsync` each,
///    `fsync` the folder;
/// 4. **commit point**: write `commit.journal.tmp` (digests of the three), `fsync`, `rename` to
///    `commit.journal`, `fsync` the folder;
/// 5. `rename` each `.new` over its final name, `fsync` the folder;
/// 6. remove `commit.journal`, `fsync` the folder;
/// 7. remove thumbnails no model uses any more.
///
/// A crash before step 4 leaves the old files and some `.new`/`.tmp` files, which recovery
/// removes; a crash after it leaves a journal, and recovery completes step 5 from it. The settings
/// file records the archive's digest, so a pair that disagrees for any other reason is detected on
/// open. Thumbnails are outside the guarantee (they are replaced one by one, atomically each).
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
    /// Thumbnail side files to (re)write, by file name.
    var thumbnailWrites: [(name: String, bytes: [UInt8])] = []
    /// Thumbnail file names still in use after the save; other `.thumbnail` files are removed.
    var thumbnailsInUse: Set<String> = []

    /// The journal this plan commits.
    var journal: CommitJournal {
        CommitJournal(generation: generation, entries: files.map { CommitJournal.Entry(name: $0.name, bytes: $0.bytes) })
    }

    /// Runs the protocol. `checkpoint` is called with a step number before every file system
    /// change; a test throws from it to simulate a crash at that moment (no cleanup happens).
    /// Throws ``ModelDocumentError`` (`conflict`, `alreadyExists`, `io`, `damaged`).
    @discardableResult
    func execute(checkpoint: ((Int) throws(ModelDocumentError) -> Void)? = nil) throws(ModelDocumentError) -> RecoveryReport {
        var step = 0
        func mark() throws(ModelDocumentError) {
            step += 1
            try checkpoint?(step)
        }
        try DurableIO.makeDirectories(directory)
        let lock = try DurableIO.lock(directory)
        defer { DurableIO.unlock(lock) }
        try mark()
        let report = try Recovery.run(directory: directory)

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

        // 2. Extra files and thumbnails, each atomically.
        var touchedFolders: Set<String> = []
        for extra in extraFiles {
            let path = DurableIO.join(directory, extra.path)
            if let slash = path.lastIndex(of: "/") {
                let folder = String(path[..<slash])
                try DurableIO.makeDirectories(folder)
                touchedFolders.insert(folder)
            }
            try mark()
            try DurableIO.writeSynced(path + DocumentFiles.temporarySuffix, extra.bytes)
            try mark()
            try DurableIO.rename(path + DocumentFiles.temporarySuffix, path)
        }
        let thumbnails = DurableIO.join(directory, DocumentFiles.thumbnails)
        if !thumbnailWrites.isEmpty {
            try DurableIO.makeDirectories(thumbnails)
            touchedFolders.insert(thumbnails)
        }
        for write in thumbnailWrites {
            let path = DurableIO.join(thumbnails, write.name)
            try mark()
            try DurableIO.writeSynced(path + DocumentFiles.temporarySuffix, write.bytes)
            try mark()
            try DurableIO.rename(path + DocumentFiles.temporarySuffix, path)
        }
        for folder in touchedFolders.sorted() { try DurableIO.syncDirectory(folder) }

        // 3. Stage.
        for file in files {
            try mark()
            try DurableIO.writeSynced(DurableIO.join(directory, file.name + DocumentFiles.stagedSuffix), file.bytes)
        }
        try DurableIO.syncDirectory(directory)

        // 4. Commit point.
        let journalPath = DurableIO.join(directory, DocumentFiles.journal)
        try mark()
        try DurableIO.writeSynced(journalPath + DocumentFiles.temporarySuffix, journal.bytes)
        try mark()
        try DurableIO.rename(journalPath + DocumentFiles.temporarySuffix, journalPath)
        try DurableIO.syncDirectory(directory)

        // 5. Roll forward.
        for file in files {
            try mark()
            let final = DurableIO.join(directory, file.name)
            try DurableIO.rename(final + DocumentFiles.stagedSuffix, final)
        }
        try DurableIO.syncDirectory(directory)

        // 6. Done.
        try mark()
        try DurableIO.remove(journalPath)
        try DurableIO.syncDirectory(directory)

        // 7. Unused thumbnails.
        var removedThumbnail = false
        for name in try DurableIO.list(thumbnails)
        where name.hasSuffix("." + ThumbnailName.fileExtension) && !thumbnailsInUse.contains(name) {
            try mark()
            try DurableIO.remove(DurableIO.join(thumbnails, name))
            removedThumbnail = true
        }
        if removedThumbnail { try DurableIO.syncDirectory(thumbnails) }
        return report
    }
}
