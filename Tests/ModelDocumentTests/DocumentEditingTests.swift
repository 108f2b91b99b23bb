import Testing
import TypedStream
import TypedStreamFoundation
@testable import ModelDocument

@Suite struct DocumentEditingTests {
    @Test func firstRunCreatesThePlaceholderDocument() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let created = try ModelDocument.openOrCreate(at: directory)
        #expect(created.wasCreated)
        #expect(created.records == ModelDocument.placeholderRecords)
        #expect(created.version == .current)
        #expect(created.settings.generation == 1)

        let opened = try ModelDocument.openOrCreate(at: directory)
        #expect(!opened.wasCreated)
        #expect(opened.records == ModelDocument.placeholderRecords)
        #expect(opened.warnings.isEmpty)
        let settings = try DocumentSettings(plist: readBytes(directory + "/settings.plist"))
        let archive = try readBytes(directory + "/document.typedstream")
        #expect(settings.version == 2)
        #expect(settings.format == "ModelDocument")
        #expect(settings.writer == DocumentSettings.writerIdentifier)
        #expect(settings.archiveSHA256 == SHA256.hexDigest(of: archive))
        #expect(settings.archiveLength == archive.count)
        #expect(settings.modelCount == 3)
        #expect(try DurableIO.list(directory + "/thumbnails").count == 3)
        #expect(try DurableIO.list(directory).sorted() == ["document.typedstream", "history.plist", "settings.plist", "thumbnails"])
    }

    @Test func addUpdateDeleteUndoRedo() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let document = try ModelDocument.create(at: folder.sub("doc"))
        let original = try document.archiveBytes()

        try document.add(ModelRecord(name: "New", type: "t", rect: ModelRect(x: 1, y: 2, width: 3, height: 4), flag: 5, kind: 6, para: 7))
        let afterAdd = try document.archiveBytes()
        #expect(document.count == 4)
        var changed = document.records[1]
        changed.flag = 99
        try document.update(at: 1, to: changed)
        #expect(document.records[1].flag == 99)
        try document.delete(named: "Sunrise")
        #expect(document.index(named: "Sunrise") == nil)

        #expect(document.undo() == "delete 'Sunrise'")
        #expect(document.undo() == "update 'Harbour'")
        #expect(try document.archiveBytes() == afterAdd)
        #expect(document.undo() == "add 'New'")
        #expect(try document.archiveBytes() == original)
        #expect(document.undo() == nil)
        #expect(document.redo() == "add 'New'")
        #expect(try document.archiveBytes() == afterAdd)
        // A new edit drops the redo stack.
        try document.delete(at: 0)
        #expect(!document.canRedo)
    }

    @Test func editsAreChecked() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let document = try ModelDocument.create(at: folder.sub("doc"))
        #expect(throws: ModelDocumentError(.duplicateName, "")) { try document.add(ModelRecord(name: "Sunrise")) }
        #expect(throws: ModelDocumentError(.noSuchModel, "")) { try document.delete(named: "nobody") }
        #expect(throws: ModelDocumentError(.noSuchModel, "")) { try document.delete(at: 3) }
        #expect(throws: ModelDocumentError(.noSuchModel, "")) { try document.update(at: -1, to: ModelRecord()) }
        #expect(throws: ModelDocumentError(.notRepresentable, "")) { try document.add(ModelRecord(name: "r", reserved: 1)) }
        // Renaming to its own name is fine.
        try document.update(at: 0, to: document.records[0])
    }

    @Test func deleteThenUndoAcrossRunsRestoresTheExactBytes() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let before = try readBytes(directory + "/document.typedstream")
        let thumbnailsBefore = treeSnapshot(directory + "/thumbnails")

        let first = try ModelDocument.open(at: directory)
        try first.delete(named: "Harbour")
        try first.save()
        #expect(try readBytes(directory + "/document.typedstream") != before)
        #expect(treeSnapshot(directory + "/thumbnails").count == 2)

        let second = try ModelDocument.open(at: directory)
        #expect(second.undoLabel == "delete 'Harbour'")
        #expect(second.undo() != nil)
        try second.save()
        #expect(try readBytes(directory + "/document.typedstream") == before)
        #expect(treeSnapshot(directory + "/thumbnails") == thumbnailsBefore)

        let third = try ModelDocument.open(at: directory)
        #expect(third.redo() == "delete 'Harbour'")
        try third.save()
        let fourth = try ModelDocument.open(at: directory)
        #expect(fourth.index(named: "Harbour") == nil)
        #expect(fourth.undo() != nil)
        #expect(try fourth.archiveBytes() == before)
    }

    /// An archive as the Objective-C app writes it when records share constant strings: the
    /// second and third Models' type is a reference to the first one's `@"photo"`.
    static func sharedStringArchive() throws -> [UInt8] {
        let photo = StringObject("photo")
        let models = ["A", "B", "C"].map { name -> Model in
            let model = Model(ModelRecord(name: name))
            model.typeObject = photo
            return model
        }
        return try ModelArchive.encodeDocument(models, version: .v2)
    }

    @Test func undoAcrossRunsKeepsSharedStringsShared() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("legacy")
        let archive = try Self.sharedStringArchive()
        try writeLegacyDocument(directory, archive: archive, version: 2)

        let first = try ModelDocument.open(at: directory)
        #expect(first.models[1].typeObject === first.models[0].typeObject)
        try first.save()   // unchanged: same bytes, sharing kept
        #expect(try readBytes(directory + "/document.typedstream") == archive)

        for victim in ["A", "B", "C"] {
            let deleting = try ModelDocument.open(at: directory)
            try deleting.delete(named: victim)
            try deleting.save()
            let undoing = try ModelDocument.open(at: directory)
            #expect(undoing.undo() != nil)
            try undoing.save()
            #expect(try readBytes(directory + "/document.typedstream") == archive, "delete \(victim) then undo")
        }
    }

    @Test func missingThumbnailIsAWarning() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        try DurableIO.remove(directory + "/thumbnails/" + ThumbnailName.fileName(for: "Harbour")!)
        let document = try ModelDocument.open(at: directory)
        #expect(document.records[1].thumbnail == nil)
        #expect(document.warnings.count == 1)
        #expect(document.warnings.first?.contains("Harbour") == true)
        #expect(document.records[0].thumbnail == ModelDocument.placeholderRecords[0].thumbnail)
    }

    @Test func changedArchiveIsDetected() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let path = directory + "/document.typedstream"
        var bytes = try readBytes(path)
        bytes[bytes.count - 3] ^= 1
        try writeBytes(path, bytes)
        #expect(throws: ModelDocumentError(.damaged, "")) { try ModelDocument.open(at: directory) }
    }

    @Test func concurrentSavesConflict() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let a = try ModelDocument.open(at: directory)
        let b = try ModelDocument.open(at: directory)
        try a.delete(at: 0)
        try a.save()
        let saved = treeSnapshot(directory)
        try b.delete(at: 1)
        #expect(throws: ModelDocumentError(.conflict, "")) { try b.save() }
        #expect(treeSnapshot(directory) == saved)
        #expect(throws: ModelDocumentError(.alreadyExists, "")) { try ModelDocument.create(at: directory) }
    }

    @Test func notADocument() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(throws: ModelDocumentError(.notADocument, "")) { try ModelDocument.open(at: folder.sub("missing")) }
        #expect(throws: ModelDocumentError(.notADocument, "")) { try ModelDocument.open(at: folder.path) }
        try writeBytes(folder.sub("document.typedstream"), handArchiveV2)
        #expect(throws: ModelDocumentError(.notADocument, "")) { try ModelDocument.open(at: folder.path) }
    }

    @Test func aHistoryForAnotherArchiveIsIgnored() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        try document.delete(at: 0)
        try document.save()
        let history = try readBytes(directory + "/history.plist")
        // Put the archive and settings of another document next to this history.
        try writeLegacyDocument(directory, archive: handArchiveV2, version: 2)
        try writeBytes(directory + "/history.plist", history)
        let reopened = try ModelDocument.open(at: directory)
        #expect(!reopened.canUndo)
        #expect(reopened.warnings.contains { $0.contains("undo history ignored") })
    }

    @Test func unknownSettingsKeysSurviveASave() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        var written = try DocumentSettings(plist: readBytes(directory + "/settings.plist"))
        written.otherEntries["reserved1"] = .string("keep me")
        try writeBytes(directory + "/settings.plist", written.plistBytes())
        let document = try ModelDocument.open(at: directory)
        try document.delete(at: 0)
        try document.save()
        let settings = try DocumentSettings(plist: readBytes(directory + "/settings.plist"))
        #expect(settings.otherEntries["reserved1"] == .string("keep me"))
        #expect(settings.generation == 2)
    }
}
