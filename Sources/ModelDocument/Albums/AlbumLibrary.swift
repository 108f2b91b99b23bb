import Foundation

/// A library of ``Album`` records in one keyed archive file, `albums.bin` (`NSKeyedArchiver`,
/// binary property list; root object an `NSArray` of `Album`), with delete, undo and redo.
///
/// ```swift
/// let library = try AlbumLibrary.openOrCreate(at: "/tmp/albums.bin")  // five albums on first run
/// try library.delete(titled: "Kind of Blue")
/// library.undo()
/// try library.save()                                                  // atomic replace
/// ```
///
/// Undo history lives in memory only (the file holds just the albums, as an Objective-C app
/// reading `albums.bin` expects).
public final class AlbumLibrary {
    /// `"albums.bin"`.
    public static let fileName = "albums.bin"

    private struct Change {
        var label: String
        var index: Int
        var album: Album
        var isInsertion: Bool
    }

    /// The file.
    public let path: String
    /// The albums, in order.
    public private(set) var albums: [Album]
    /// Whether there are changes not yet saved.
    public private(set) var hasUnsavedChanges = false
    private var undoStack: [Change] = []
    private var redoStack: [Change] = []

    init(path: String, albums: [Album]) {
        self.path = path
        self.albums = albums
    }

    /// The placeholder library of a first run: five albums.
    public static func placeholderAlbums() -> [Album] {
        [
            Album(title: "Kind of Blue", artist: "Miles Davis", genre: "Jazz", coverURL: "https://example.com/covers/kind-of-blue.jpg", year: "1959"),
            Album(title: "Abbey Road", artist: "The Beatles", genre: "Rock", coverURL: "https://example.com/covers/abbey-road.jpg", year: "1969"),
            Album(title: "Blue", artist: "Joni Mitchell", genre: "Folk", coverURL: "https://example.com/covers/blue.jpg", year: "1971"),
            Album(title: "Random Access Memories", artist: "Daft Punk", genre: nil, coverURL: "https://example.com/covers/ram.jpg", year: "2013"),
            Album(title: "The Köln Concert", artist: "Keith Jarrett", genre: "Jazz", coverURL: "https://example.com/covers/koln.jpg", year: "1975"),
        ]
    }

    /// Opens `albums.bin` at `path`. Throws ``ModelDocumentError`` `io` or `keyedArchive`.
    public static func open(at path: String) throws(ModelDocumentError) -> AlbumLibrary {
        AlbumLibrary(path: path, albums: try albums(fromArchive: DurableIO.read(path), path: path))
    }

    /// Opens `path`, or creates it with the five placeholder albums when it does not exist.
    public static func openOrCreate(at path: String) throws(ModelDocumentError) -> AlbumLibrary {
        if DurableIO.exists(path) { return try open(at: path) }
        let library = AlbumLibrary(path: path, albums: placeholderAlbums())
        try library.save()
        return library
    }

    /// The keyed archive of `albums` (root object an `NSArray`).
    public static func archive(_ albums: [Album], path: String? = nil) throws(ModelDocumentError) -> [UInt8] {
        try AlbumArchiving.archive(albums as NSArray, path: path)
    }

    /// The albums of a keyed archive, read and checked by our own bounded readers
    /// (``KeyedArchiveReader``), never by Foundation's `NSKeyedUnarchiver`. Throws
    /// ``ModelDocumentError`` `keyedArchive`.
    public static func albums(fromArchive bytes: [UInt8], path: String? = nil) throws(ModelDocumentError) -> [Album] {
        let reader = try KeyedArchiveReader(bytes, path: path)
        var albums: [Album] = []
        for element in try reader.arrayElements(reader.root(), of: Album.className) {
            albums.append(try Album.fields(from: reader.values(of: element)))
        }
        return albums
    }

    /// Appends `album`.
    public func add(_ album: Album) {
        apply(Change(label: "add '\(album.title)'", index: albums.count, album: album, isInsertion: true), recording: true)
    }

    /// Removes the album at `index`. Throws ``ModelDocumentError`` `noSuchModel`.
    @discardableResult
    public func delete(at index: Int) throws(ModelDocumentError) -> Album {
        guard albums.indices.contains(index) else {
            throw ModelDocumentError(.noSuchModel, path: path, "no album at index \(index)")
        }
        let album = albums[index]
        apply(Change(label: "delete '\(album.title)'", index: index, album: album, isInsertion: false), recording: true)
        return album
    }

    /// Removes the first album titled `title`. Throws `noSuchModel`.
    @discardableResult
    public func delete(titled title: String) throws(ModelDocumentError) -> Album {
        guard let index = albums.firstIndex(where: { $0.title == title }) else {
            throw ModelDocumentError(.noSuchModel, path: path, "no album is titled '\(title)'")
        }
        return try delete(at: index)
    }

    private func apply(_ change: Change, recording: Bool) {
        if change.isInsertion { albums.insert(change.album, at: change.index) } else { albums.remove(at: change.index) }
        if recording {
            undoStack.append(change)
            redoStack.removeAll()
        }
        hasUnsavedChanges = true
    }

    /// Undoes the last change; returns its label, or `nil` when there is none.
    @discardableResult
    public func undo() -> String? {
        guard let change = undoStack.popLast() else { return nil }
        var inverse = change
        inverse.isInsertion.toggle()
        apply(inverse, recording: false)
        redoStack.append(change)
        return change.label
    }

    /// Redoes the last undone change; returns its label, or `nil` when there is none.
    @discardableResult
    public func redo() -> String? {
        guard let change = redoStack.popLast() else { return nil }
        apply(change, recording: false)
        undoStack.append(change)
        return change.label
    }

    /// Writes `albums.bin` atomically. Throws ``ModelDocumentError`` `keyedArchive` or `io`.
    public func save() throws(ModelDocumentError) {
        try DurableIO.writeAtomically(Self.archive(albums, path: path), to: path)
        hasUnsavedChanges = false
    }
}

