import Testing
@testable import ModelDocument

@Suite struct VersioningTests {
    static let v1Records = [
        ModelRecord(name: "One", type: "a", rect: ModelRect(x: 1, y: 2, width: 3, height: 4), flag: 1, kind: 2),
        ModelRecord(name: "Two", type: nil, rect: ModelRect(x: 0.5, y: 0, width: 0, height: 0), flag: 0, kind: -1, thumbnail: [9, 9]),
    ]

    @Test func migrateVersionOneToTwo() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let created = try ModelDocument.create(at: directory, records: Self.v1Records, version: .v1)
        try created.delete(at: 0)
        try created.save()
        let oldArchive = try readBytes(directory + "/document.typedstream")
        let oldSettings = try readBytes(directory + "/settings.plist")

        let document = try ModelDocument.open(at: directory)
        #expect(document.version == .v1)
        #expect(throws: ModelDocumentError(.notRepresentable, "")) { try document.add(ModelRecord(name: "P", para: 1)) }
        #expect(try document.migrate())
        #expect(!(try document.migrate()))

        let migrated = try ModelDocument.open(at: directory)
        #expect(migrated.version == .v2)
        #expect(migrated.records == [Self.v1Records[1]])
        let contents = try ModelArchive.decodeDocument(readBytes(directory + "/document.typedstream"), version: .v2)
        #expect(contents.models.map(\.record.para) == [0])
        // The old files are kept.
        let backups = try DurableIO.list(directory + "/backups")
        #expect(backups == ["v1-generation2-document.typedstream", "v1-generation2-settings.plist"])
        #expect(try readBytes(directory + "/backups/" + backups[0]) == oldArchive)
        #expect(try readBytes(directory + "/backups/" + backups[1]) == oldSettings)
        // Undo survives the migration, and now para is possible.
        #expect(migrated.undo() == "delete 'One'")
        #expect(migrated.records == Self.v1Records)
        try migrated.add(ModelRecord(name: "P", para: 1))
        try migrated.save()
        #expect(try ModelDocument.open(at: directory).records.last?.para == 1)
    }

    @Test func versionOneDocumentAsTheObjectiveCAppWroteIt() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("legacy")
        let archive = try ModelArchive.encodeDocument(Self.v1Records.map { Model($0) }, version: .v1)
        try writeLegacyDocument(directory, archive: archive, version: 1)
        let document = try ModelDocument.open(at: directory)
        #expect(document.version == .v1)
        #expect(document.records.map(\.name) == ["One", "Two"])
        #expect(document.warnings.isEmpty)   // no thumbnails: normal, and nothing recorded one
        // A version 1 document read as version 2 is an error with an offset, not garbage.
        try writeLegacyDocument(directory, archive: archive, version: 2)
        #expect { try ModelDocument.open(at: directory) } throws: { error in
            (error as? ModelDocumentError)?.code == .malformedArchive && (error as? ModelDocumentError)?.offset != nil
        }
    }

    @Test func versionThreeDraftKeepsTheReservedGroup() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("draft")
        let records = [ModelRecord(name: "R", flag: 1, kind: 2, para: 3, reserved: 42)]
        _ = try ModelDocument.create(at: directory, records: records, version: .v3Draft)
        let document = try ModelDocument.open(at: directory)
        #expect(document.version == .v3Draft)
        #expect(document.records == records)
        #expect(!(try document.migrate(to: .v3Draft)))
        #expect(throws: ModelDocumentError(.notRepresentable, "")) { try document.migrate(to: .v2) }
        #expect(try ModelDocument.open(at: directory).version == .v3Draft)
    }

    @Test func newerVersionIsRefusedAndNothingChanges() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("future")
        try writeLegacyDocument(directory, archive: handArchiveV2, version: 4, extraSettings: ["newField": .string("x")])
        try DurableIO.makeDirectories(directory + "/thumbnails")
        try writeBytes(directory + "/thumbnails/" + ThumbnailName.fileName(for: "Sunrise")!, [1, 2, 3])
        let before = treeSnapshot(directory)

        #expect(throws: ModelDocumentError(.newerVersion, "")) { try ModelDocument.open(at: directory) }
        #expect(throws: ModelDocumentError(.newerVersion, "")) { try ModelDocument.openOrCreate(at: directory) }
        #expect(throws: ModelDocumentError(.alreadyExists, "")) { try ModelDocument.create(at: directory) }
        #expect { try ModelDocument.open(at: directory) } throws: { error in
            "\(error)".contains("version 4 is newer than this program understands")
        }
        #expect(throws: ModelDocumentError(.newerVersion, "")) { try edit(directory) { try $0.add(ModelRecord(name: "X")) } }
        #expect(treeSnapshot(directory) == before)
    }
}
