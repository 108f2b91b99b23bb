/// What ``Recovery/run(directory:)`` found and did.
public struct RecoveryReport: Hashable, Sendable {
    /// The generation a committed but unfinished save was rolled forward to, if any.
    public var rolledForward: Int?
    /// Leftover files of an uncommitted save that were removed (rolled back), relative to the folder.
    public var removed: [String] = []

    /// Creates an empty report.
    public init() {}

    /// Whether nothing had to be done.
    public var isEmpty: Bool { rolledForward == nil && removed.isEmpty }

    /// Warnings for the user, one per action.
    public var messages: [String] {
        var out: [String] = []
        if let rolledForward { out.append("recovered an interrupted save: completed generation \(rolledForward)") }
        if !removed.isEmpty { out.append("discarded an interrupted save: removed \(removed.joined(separator: ", "))") }
        return out
    }
}

/// Brings a document folder back to a consistent state after a crash, following the commit
/// protocol of ``CommitPlan``:
///
/// * `commit.journal` present → the save had passed its commit point: every staged `*.new` file
///   the journal lists is checked against its digest and renamed into place (roll forward); files
///   already renamed must match their digests. Then the journal is removed.
/// * no journal → the save had not committed: staged `*.new` and `*.tmp` files are removed
///   (roll back); the previous generation is intact.
///
/// Idempotent, so a crash during recovery is recovered by the next run. The caller holds the lock.
public enum Recovery {
    /// Runs recovery in `directory`. Throws ``ModelDocumentError`` `damaged` when a journal is
    /// unreadable or a file does not match it (nothing is then changed), `io` on file errors.
    public static func run(directory: String) throws(ModelDocumentError) -> RecoveryReport {
        var report = RecoveryReport()
        let journalPath = DurableIO.join(directory, DocumentFiles.journal)
        let journalTemp = journalPath + DocumentFiles.temporarySuffix
        if DurableIO.exists(journalTemp) {
            try DurableIO.remove(journalTemp)
            report.removed.append(DocumentFiles.journal + DocumentFiles.temporarySuffix)
        }
        if let journalBytes = try DurableIO.readIfPresent(journalPath) {
            let journal = try CommitJournal(parsing: journalBytes, path: journalPath)
            // Check everything before renaming anything.
            var renames: [(String, String)] = []
            for entry in journal.entries {
                let final = DurableIO.join(directory, entry.name)
                let staged = final + DocumentFiles.stagedSuffix
                if let bytes = try DurableIO.readIfPresent(staged) {
                    guard entry.matches(bytes) else {
                        throw ModelDocumentError(.damaged, path: staged, "staged file does not match the commit journal (generation \(journal.generation))")
                    }
                    renames.append((staged, final))
                } else {
                    guard let bytes = try DurableIO.readIfPresent(final), entry.matches(bytes) else {
                        throw ModelDocumentError(.damaged, path: final, "file does not match the commit journal (generation \(journal.generation)) and no staged copy exists")
                    }
                }
            }
            for (staged, final) in renames { try DurableIO.rename(staged, final) }
            try DurableIO.syncDirectory(directory)
            try DurableIO.remove(journalPath)
            try DurableIO.syncDirectory(directory)
            report.rolledForward = journal.generation
        } else {
            for name in DocumentFiles.committed {
                let staged = DurableIO.join(directory, name + DocumentFiles.stagedSuffix)
                if DurableIO.exists(staged) {
                    try DurableIO.remove(staged)
                    report.removed.append(name + DocumentFiles.stagedSuffix)
                }
            }
        }
        for folder in [DocumentFiles.thumbnails, DocumentFiles.historyThumbnails, DocumentFiles.backups] {
            let path = DurableIO.join(directory, folder)
            for name in try DurableIO.list(path) where name.hasSuffix(DocumentFiles.temporarySuffix) {
                try DurableIO.remove(DurableIO.join(path, name))
                report.removed.append(folder + "/" + name)
            }
        }
        if !report.removed.isEmpty { try DurableIO.syncDirectory(directory) }
        return report
    }
}
