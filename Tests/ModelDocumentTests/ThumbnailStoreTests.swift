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
        _ = ModelCommands.new(directory: directory, empty: true)
        let big = Self.image(1 << 20, seed: 1)
        let picture = folder.sub("big.bin")
        try writeBytes(picture, big)
        for name in ["a", "b", "c"] {
            #expect(ModelCommands.add(directory: directory, name: name, thumbnail: picture).exitStatus == 0)
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

        #expect(ModelCommands.delete(directory: directory, name: "Harbour").exitStatus == 0)
        #expect(!DurableIO.exists(side))
        let stored = Self.store(directory) + "/" + SHA256.hexDigest(of: PlaceholderImages.blue)
        #expect(Self.inode(stored) == original, "the deleted image was copied, not linked")

        #expect(ModelCommands.undo(directory: directory) == CommandOutput(standardOutput: "undid delete 'Harbour'\n"))
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
        _ = ModelCommands.new(directory: directory)
        #expect(ModelCommands.delete(directory: directory, name: "Sunrise").exitStatus == 0)
        try writeBytes(directory + "/" + DocumentFiles.history, Array("not a history".utf8))
        let listed = ModelCommands.list(directory: directory)
        #expect(listed.exitStatus == 0)
        #expect(listed.standardError == "")
        let document = try ModelDocument.open(at: directory)
        #expect(document.models.allSatisfy { $0.thumbnailSource?.filePath != nil })
        // An edit needs the history, and says it is ignored.
        let added = ModelCommands.add(directory: directory, name: "x")
        #expect(added.exitStatus == 0)
        #expect(added.standardError.hasPrefix("warning: undo history ignored: not a property list"), "\(added.standardError)")
        #expect(added.standardError.split(separator: "\n").count == 1)
    }

    @Test func unreferencedStoredThumbnailsAreRemovedWhenTheHistoryDropsThem() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        #expect(ModelCommands.delete(directory: directory, name: "Sunrise").exitStatus == 0)
        #expect(ModelCommands.undo(directory: directory).exitStatus == 0)
        #expect(try DurableIO.list(Self.store(directory)).count == 1)   // the redo still needs it
        #expect(ModelCommands.add(directory: directory, name: "plain").exitStatus == 0)   // drops the redo
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
        #expect(ModelCommands.delete(directory: directory, name: "Sunrise").exitStatus == 0)
        try FileManager.default.removeItem(atPath: Self.store(directory))
        let opened = try ModelDocument.open(at: directory)
        #expect(!opened.canUndo)
        #expect(opened.warnings == ["undo history ignored: the thumbnail history-thumbnails/\(SHA256.hexDigest(of: PlaceholderImages.orange)) of an undo entry is missing or has not 73 bytes"])
    }

    @Test func aModelWithoutAThumbnailIsSilentAndAMissingRecordedOneWarns() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory, empty: true)
        #expect(ModelCommands.add(directory: directory, name: "bare") == CommandOutput(standardOutput: "added 'bare' (model 0)\n"))
        let listed = ModelCommands.list(directory: directory)
        #expect(listed.standardError == "")
        #expect(ModelCommands.delete(directory: directory, name: "bare") == CommandOutput(standardOutput: "deleted 'bare'\n"))
        #expect(ModelCommands.undo(directory: directory) == CommandOutput(standardOutput: "undid delete 'bare'\n"))
    }

    @Test func aFailedSaveLeavesNothingBehind() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory, empty: true)
        // A folder where the side file must go makes its rename fail after the stored copy and
        // the temporary file were written.
        let blocked = directory + "/thumbnails/" + ThumbnailName.fileName(for: "x")!
        try DurableIO.makeDirectories(blocked)
        let before = treeSnapshot(directory)
        let picture = folder.sub("p.bin")
        try writeBytes(picture, [1, 2, 3])
        let failed = ModelCommands.add(directory: directory, name: "x", thumbnail: picture)
        #expect(failed.exitStatus == 1)
        #expect(failed.standardError.hasPrefix("model: cannot write '\(blocked)': "), "\(failed.standardError)")
        #expect(failed.standardError.split(separator: "\n").count == 1)
        #expect(treeSnapshot(directory) == before)
        #expect(!DurableIO.exists(Self.store(directory)))
        #expect(try DurableIO.list(directory + "/thumbnails") == [ThumbnailName.fileName(for: "x")!])
        try FileManager.default.removeItem(atPath: blocked)
        #expect(ModelCommands.add(directory: directory, name: "x", thumbnail: picture).exitStatus == 0)
    }

    @Test func leftoversOfAKilledSaveDoNotBreakLaterAdds() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory)
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
        let added = ModelCommands.add(directory: directory, name: "y", thumbnail: picture)
        #expect(added.exitStatus == 0, "\(added.standardError)")
        #expect(try DurableIO.list(thumbnails).sorted() == ["%46ield%20notes.thumbnail", "%48arbour.thumbnail", "%53unrise.thumbnail", "y.thumbnail"])
        #expect(try DurableIO.list(Self.store(directory)) == [SHA256.hexDigest(of: [4, 5])])
        #expect(!DurableIO.exists(directory + "/document.typedstream.new"))
    }

    @Test func fileErrorsAreOneLineNamingThePath() {
        #expect(DurableIO.failure("write", "/d/settings.plist.new", EACCES).description == "cannot write '/d/settings.plist.new': Permission denied")
        #expect(DurableIO.failure("create the folder", "/d", EROFS).description == "cannot create the folder '/d': Read-only file system")
        let output = ModelCommands.add(directory: "/nonexistent-dir", name: "x", thumbnail: "/nonexistent-file")
        #expect(output == CommandOutput(standardError: "model: /nonexistent-dir: no such folder\n", exitStatus: 1))
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only folders"))
    func aReadOnlyFolderGivesOneLine() throws {
        let folder = TemporaryFolder("store")
        defer {
            chmod(folder.sub("doc"), 0o755)
            folder.cleanUp()
        }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory)
        #expect(chmod(directory, 0o555) == 0)
        let output = ModelCommands.add(directory: directory, name: "x")
        #expect(output == CommandOutput(standardError: "model: cannot write '\(directory)/document.typedstream.new': Permission denied\n", exitStatus: 1))
    }

    @Test func aMissingThumbnailFileToAddIsOneLine() throws {
        let folder = TemporaryFolder("store")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory, empty: true)
        let missing = folder.sub("missing.png")
        #expect(ModelCommands.add(directory: directory, name: "x", thumbnail: missing)
                == CommandOutput(standardError: "model: cannot read '\(missing)': No such file or directory\n", exitStatus: 1))
    }
}
