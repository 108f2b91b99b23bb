import Foundation
import Testing
@testable import ModelDocument
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thumbnails in the undo history are stored once, by content; nothing reads or copies an
/// image it does not need; a failed save leaves nothing behind.
@Suite struct ThumbnailStoreTests {
    static func store(_ directory: String) -> String { directory + "/" + DocumentFiles.historyThumbnails }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    static func image(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test func theHistoryNamesThumbnailsByDigestAndHoldsNoImageBytes() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: [])
        let big = Self.image(1 << 20, seed: 1)
        let picture = folder.sub("big.bin")
        try writeBytes(picture, big)
        for name in ["a", "b", "c"] {
            try edit(directory) { try $0.add(record(name, thumbnail: picture)) }
        }
        let digest = SHA256.hexDigest(of: big)
        // One stored copy for three edits that hold the same image.
        #expect(try DurableIO.list(Self.store(directory)) == [digest])
        let history = try readBytes(directory + "/" + DocumentFiles.history)
        #expect(history.count < 8192, "history.plist has \(history.count) bytes")
        // The side files are the stored file, linked, not copies.
        let side = directory + "/thumbnails/" + ThumbnailName.fileName(for: "a")!
        #expect(Self.inode(side) == Self.inode(Self.store(directory) + "/" + digest))
        #expect(try readBytes(side) == big)
    }

    @Test func deleteAndUndoAcrossRunsMoveTheImageWithoutCopies() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let side = directory + "/thumbnails/" + ThumbnailName.fileName(for: "Harbour")!
        let original = Self.inode(side)

        try edit(directory) { try $0.delete(named: "Harbour") }
        #expect(!DurableIO.exists(side))
        let stored = Self.store(directory) + "/" + SHA256.hexDigest(of: PlaceholderImages.blue)
        #expect(Self.inode(stored) == original, "the deleted image was copied, not linked")

        try edit(directory) { #expect($0.undo() == "delete 'Harbour'") }
        #expect(Self.inode(side) == original, "undo copied the image")
        #expect(try readBytes(side) == PlaceholderImages.blue)
        #expect(try ModelDocument.open(at: directory).records == ModelDocument.placeholderRecords)
    }

    @Test func openingReadsNoThumbnail() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        try document.delete(named: "Sunrise")
        try document.save()
        let opened = try ModelDocument.open(at: directory)
        for model in opened.models + opened.historyModels {
            #expect(model.thumbnailSource?.filePath != nil, "\(model.name ?? "nil") was read on open")
        }
        #expect(opened.models.map(\.thumbnailLength) == [73, 73])
    }

    @Test func listReadsNeitherTheHistoryNorTheImages() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        try edit(directory) { try $0.delete(named: "Sunrise") }
        try writeBytes(directory + "/" + DocumentFiles.history, Array("not a history".utf8))
        let document = try ModelDocument.open(at: directory)
        #expect(document.warnings == [])
        #expect(document.models.allSatisfy { $0.thumbnailSource?.filePath != nil })
        // An edit needs the history, and says it is ignored.
        let warnings = try edit(directory) { try $0.add(ModelRecord(name: "x")) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("undo history ignored: not a property list") == true, "\(warnings)")
    }

    @Test func unreferencedStoredThumbnailsAreRemovedWhenTheHistoryDropsThem() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        try edit(directory) { try $0.delete(named: "Sunrise") }
        try edit(directory) { #expect($0.undo() != nil) }
        #expect(try DurableIO.list(Self.store(directory)).count == 1)   // the redo still needs it
        try edit(directory) { try $0.add(ModelRecord(name: "plain")) }   // drops the redo
        #expect(try DurableIO.list(Self.store(directory)).isEmpty)

        // Trimming the history to its limit drops the oldest edits' thumbnails too.
        let document = try ModelDocument.open(at: directory)
        try document.delete(named: "Harbour")
        for index in 0..<EditHistory.limit { try document.add(ModelRecord(name: "n\(index)")) }
        try document.save()
        #expect(try DurableIO.list(Self.store(directory)).isEmpty)
    }

    @Test func aFormatOneHistoryWithInlineThumbnailsIsStillRead() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        try document.delete(named: "Sunrise")
        try document.save()
        // Rewrite the history as format 1 wrote it: the image inside the record.
        var root = try SettingsValue.parseDictionary(readBytes(directory + "/history.plist"), path: nil, code: .malformedHistory)
        guard case .array(var undo)? = root["undo"], case .dictionary(var edit) = undo[0],
              case .array(var before)? = edit["before"], case .dictionary(var record) = before[0] else {
            Issue.record("unexpected history shape")
            return
        }
        record["thumbnailSHA256"] = nil
        record["thumbnailLength"] = nil
        record["thumbnail"] = .data(PlaceholderImages.orange)
        before[0] = .dictionary(record)
        edit["before"] = .array(before)
        undo[0] = .dictionary(edit)
        root["undo"] = .array(undo)
        root["formatVersion"] = .integer(1)
        try writeBytes(directory + "/history.plist", SettingsValue.xmlBytes(root))
        try FileManager.default.removeItem(atPath: Self.store(directory))

        let reopened = try ModelDocument.open(at: directory)
        #expect(reopened.warnings.isEmpty)
        #expect(reopened.undo() == "delete 'Sunrise'")
        try reopened.save()
        #expect(try ModelDocument.open(at: directory).records == ModelDocument.placeholderRecords)
    }

    @Test func aMissingStoredThumbnailIgnoresTheHistoryWithAWarning() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        try edit(directory) { try $0.delete(named: "Sunrise") }
        try FileManager.default.removeItem(atPath: Self.store(directory))
        let opened = try ModelDocument.open(at: directory)
        #expect(!opened.canUndo)
        #expect(opened.warnings == ["undo history ignored: the thumbnail history-thumbnails/\(SHA256.hexDigest(of: PlaceholderImages.orange)) of an undo entry is missing or has not 73 bytes"])
    }

    @Test func aModelWithoutAThumbnailIsSilentAndAMissingRecordedOneWarns() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: [])
        #expect(try edit(directory) { try $0.add(ModelRecord(name: "bare")) } == [])
        let opened = try ModelDocument.open(at: directory)
        #expect(opened.warnings == [])
        #expect(opened.models.map(\.thumbnailLength) == [nil])
        #expect(try edit(directory) { try $0.delete(named: "bare") } == [])
        var label: String?
        #expect(try edit(directory) { label = $0.undo() } == [])
        #expect(label == "delete 'bare'")

        // A recorded thumbnail whose file is missing warns.
        _ = try ModelDocument.create(at: folder.sub("full"))
        try FileManager.default.removeItem(atPath: folder.sub("full/thumbnails/") + ThumbnailName.fileName(for: "Sunrise")!)
        #expect(try ModelDocument.open(at: folder.sub("full")).warnings
                == ["thumbnail of model 'Sunrise' not found (thumbnails/%53unrise.thumbnail); its image is empty"])
    }

    @Test func aFailedSaveLeavesNothingBehind() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: [])
        // A folder where the side file must go makes its rename fail after the stored copy and
        // the temporary file were written.
        let blocked = directory + "/thumbnails/" + ThumbnailName.fileName(for: "x")!
        try DurableIO.makeDirectories(blocked)
        let before = treeSnapshot(directory)
        let picture = folder.sub("p.bin")
        try writeBytes(picture, [1, 2, 3])
        #expect { try edit(directory) { try $0.add(record("x", thumbnail: picture)) } } throws: { error in
            (error as? ModelDocumentError)?.description.hasPrefix("cannot write '\(blocked)': ") == true
        }
        #expect(treeSnapshot(directory) == before)
        #expect(!DurableIO.exists(Self.store(directory)))
        #expect(try DurableIO.list(directory + "/thumbnails") == [ThumbnailName.fileName(for: "x")!])
        try FileManager.default.removeItem(atPath: blocked)
        try edit(directory) { try $0.add(record("x", thumbnail: picture)) }
    }

    @Test func leftoversOfAKilledSaveDoNotBreakLaterAdds() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let thumbnails = directory + "/thumbnails/"
        let stray = ThumbnailName.fileName(for: "never committed")!
        try writeBytes(thumbnails + stray, [7])
        try writeBytes(thumbnails + ThumbnailName.fileName(for: "y")! + ".tmp", [7, 7])
        try DurableIO.makeDirectories(Self.store(directory))
        try writeBytes(Self.store(directory) + "/" + String(repeating: "0", count: 64), [1])
        try writeBytes(Self.store(directory) + "/" + String(repeating: "1", count: 64) + ".tmp", [1])
        try writeBytes(directory + "/document.typedstream.new", [0])

        let picture = folder.sub("p.bin")
        try writeBytes(picture, [4, 5])
        try edit(directory) { try $0.add(record("y", thumbnail: picture)) }
        #expect(try DurableIO.list(thumbnails).sorted() == ["%46ield%20notes.thumbnail", "%48arbour.thumbnail", "%53unrise.thumbnail", "y.thumbnail"])
        #expect(try DurableIO.list(Self.store(directory)) == [SHA256.hexDigest(of: [4, 5])])
        #expect(!DurableIO.exists(directory + "/document.typedstream.new"))
    }

    @Test func fileErrorsAreOneLineNamingThePath() {
        #expect(DurableIO.failure("write", "/d/settings.plist.new", EACCES).description == "cannot write '/d/settings.plist.new': Permission denied")
        #expect(DurableIO.failure("create the folder", "/d", EROFS).description == "cannot create the folder '/d': Read-only file system")
        #expect { try ModelDocument.open(at: "/nonexistent-dir") } throws: { error in
            (error as? ModelDocumentError)?.description == "/nonexistent-dir: no such folder"
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only folders"))
    func aReadOnlyFolderGivesOneLine() throws {
        let folder = TemporaryFolder("store")
        defer {
            chmod(folder.sub("doc"), 0o755)
            folder.cleanUp()
        }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        #expect(chmod(directory, 0o555) == 0)
        #expect { try edit(directory) { try $0.add(ModelRecord(name: "x")) } } throws: { error in
            (error as? ModelDocumentError)?.description == "cannot write '\(directory)/document.typedstream.new': Permission denied"
        }
    }

    @Test func aMissingThumbnailFileToAddIsOneLine() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: [])
        let missing = folder.sub("missing.png")
        #expect { try edit(directory) { try $0.add(record("x", thumbnail: missing)) } } throws: { error in
            (error as? ModelDocumentError)?.description == "cannot read '\(missing)': No such file or directory"
        }
        #expect(try ModelDocument.open(at: directory).count == 0)
    }
}
