import Foundation
import Testing
@testable import ModelDocument

/// The album library: Foundation's `NSKeyedArchiver` writes it, our bounded keyed reader reads it.
@Suite struct AlbumTests {
    @Test func placeholderAlbumLibraryDeleteUndoAndReopen() throws {
        let folder = TemporaryFolder("albums")
        defer { folder.cleanUp() }
        let path = folder.sub(AlbumLibrary.fileName)
        let library = try AlbumLibrary.openOrCreate(at: path)
        #expect(library.albums.count == 5)
        #expect(library.albums == AlbumLibrary.placeholderAlbums())
        let original = try readBytes(path)
        #expect(original.starts(with: Array("bplist00".utf8)))

        try library.delete(titled: "Abbey Road")
        #expect(library.albums.count == 4)
        try library.save()
        #expect(try AlbumLibrary.open(at: path).albums.count == 4)

        #expect(library.undo() == "delete 'Abbey Road'")
        #expect(library.albums == AlbumLibrary.placeholderAlbums())
        try library.save()
        // Keyed archives are not byte-stable (dictionary order), so compare what they hold.
        #expect(try AlbumLibrary.albums(fromArchive: readBytes(path)) == AlbumLibrary.albums(fromArchive: original))
        #expect(library.redo() == "delete 'Abbey Road'")
        #expect(library.undo() != nil)
        #expect(library.undo() == nil)
        #expect(throws: ModelDocumentError(.noSuchModel, "")) { try library.delete(titled: "nothing") }

        let reopened = try AlbumLibrary.open(at: path)
        #expect(reopened.albums == AlbumLibrary.placeholderAlbums())
        #expect(reopened.albums[3].genre == nil)
        #expect(reopened.albums[4].title == "The Köln Concert")
    }

    @Test func albumKeysAreTheDocumentedOnes() throws {
        let bytes = try AlbumLibrary.archive([Album(title: "T", artist: "A", genre: nil, coverURL: "u", year: "1999")])
        let plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any]
        let objects = plist?["$objects"] as? [Any] ?? []
        let album = objects.compactMap { $0 as? [String: Any] }.first { $0["title"] != nil }
        #expect(Set(album?.keys.map { $0 } ?? []) == ["$class", "title", "artist", "coverURL", "year"])
        let classNames = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
        #expect(classNames.contains("Album"))
    }

    @Test func garbageIsNotAnAlbumLibrary() {
        #expect(throws: ModelDocumentError(.keyedArchive, "")) { try AlbumLibrary.albums(fromArchive: Array("nope".utf8)) }
        #expect(throws: ModelDocumentError(.keyedArchive, "")) { try AlbumLibrary.albums(fromArchive: handArchiveV2) }
    }
}
