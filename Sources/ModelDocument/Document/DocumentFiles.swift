/// The names of the files inside a Model document folder.
///
/// ```text
/// MyDocument/
///   document.typedstream   the archive: NSMutableArray of Model, root object (NSArchiver)
///   settings.plist         XML property list: version, format, writer, generation, archive checksum …
///   history.plist          undo/redo history, tied to the archive by its checksum
///   thumbnails/            one side file per model, named by ThumbnailName
///   history-thumbnails/    the thumbnails the undo history needs, one file per content, named
///                          by its SHA-256 (hard-linked to the side file where the file system allows)
///   backups/               copies made by `migrate` before it rewrites the document
///   commit.journal         only during a save, between the commit point and the last rename
///   *.new, *.tmp           only during a save (staged files); removed or rolled forward on open
/// ```
///
/// Opens and saves take an exclusive `flock(2)` on the folder itself, so two programs never
/// interleave a save with a recovery.
public enum DocumentFiles {
    /// `document.typedstream`: the archive.
    public static let archive = "document.typedstream"
    /// `settings.plist`: the settings file holding the version number.
    public static let settings = "settings.plist"
    /// `history.plist`: the undo/redo history.
    public static let history = "history.plist"
    /// `thumbnails`: the folder of thumbnail side files.
    public static let thumbnails = "thumbnails"
    /// `history-thumbnails`: the undo history's thumbnails, each stored once under its SHA-256
    /// (lowercase hex); the ones no edit refers to are removed when a save trims the history.
    public static let historyThumbnails = "history-thumbnails"
    /// `backups`: copies of the archive and settings made before a migration.
    public static let backups = "backups"
    /// `commit.journal`: the commit record of a save in progress (see ``CommitJournal``).
    public static let journal = "commit.journal"
    /// Suffix of a staged file, written before the commit point and renamed after it.
    public static let stagedSuffix = ".new"
    /// Suffix of a temporary file, renamed into place when complete.
    public static let temporarySuffix = ".tmp"
    /// The files committed together by every save, in the order they are renamed.
    public static let committed = [archive, settings, history]
}
