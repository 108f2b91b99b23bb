import Testing
@testable import ModelDocument

@Suite struct SettingsAndJournalTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256Vectors(input: String, digest: String) {
        #expect(SHA256.hexDigest(of: Array(input.utf8)) == digest)
    }

    @Test func sha256OfAMillionAs() {
        #expect(SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func settingsRoundTripAndKeepUnknownKeys() throws {
        var settings = DocumentSettings(version: 2, generation: 7)
        settings.archiveFile = DocumentFiles.archive
        settings.archiveLength = 12
        settings.archiveSHA256 = String(repeating: "a", count: 64)
        settings.modelCount = 3
        settings.otherEntries = ["reservedForLater": .dictionary(["flag": .bool(true), "list": .array([.integer(1), .string("x"), .real(0.5)])])]
        let bytes = try settings.plistBytes()
        let parsed = try DocumentSettings(plist: bytes)
        #expect(parsed == settings)
        #expect(try parsed.plistBytes() == bytes)
        #expect(try parsed.documentVersion() == .v2)
    }

    @Test func legacySettingsNeedOnlyAVersion() throws {
        let bytes = try SettingsValue.xmlBytes(["version": .string("1")])
        let settings = try DocumentSettings(plist: bytes)
        #expect(try settings.documentVersion() == .v1)
        #expect(settings.archiveSHA256 == nil)
        #expect(settings.generation == 0)
        #expect(settings.isObjectiveCForm)
        #expect(try !DocumentSettings(plist: SettingsValue.xmlBytes(["version": .integer(2), "format": .string("ModelDocument")])).isObjectiveCForm)
    }

    @Test func badSettingsAreRefused() throws {
        #expect(throws: ModelDocumentError(.malformedSettings, "")) { try DocumentSettings(plist: Array("not a plist".utf8)) }
        #expect(throws: ModelDocumentError(.malformedSettings, "")) { try DocumentSettings(plist: SettingsValue.xmlBytes(["format": .string("x")])) }
        #expect(throws: ModelDocumentError(.invalidVersion, "")) { try DocumentSettings(plist: SettingsValue.xmlBytes(["version": .real(1.5)])) }
        #expect(throws: ModelDocumentError(.invalidVersion, "")) { try DocumentSettings(version: 0).documentVersion() }
        #expect(throws: ModelDocumentError(.newerVersion, "")) { try DocumentSettings(version: 4).documentVersion() }
    }

    @Test func journalRoundTrip() throws {
        let journal = CommitJournal(generation: 9, entries: [
            CommitJournal.Entry(name: DocumentFiles.archive, bytes: [1, 2, 3]),
            CommitJournal.Entry(name: DocumentFiles.settings, bytes: []),
        ])
        #expect(try CommitJournal(parsing: journal.bytes) == journal)
        #expect(journal.entries[0].matches([1, 2, 3]))
        #expect(!journal.entries[0].matches([1, 2, 4]))
    }

    @Test func everyTruncatedJournalIsRefused() {
        let bytes = CommitJournal(generation: 3, entries: [CommitJournal.Entry(name: DocumentFiles.archive, bytes: [0])]).bytes
        for length in 0..<bytes.count {
            #expect(throws: ModelDocumentError(.damaged, "")) { try CommitJournal(parsing: Array(bytes[..<length])) }
        }
    }

    @Test func journalsNamingOtherFilesAreRefused() {
        let digest = String(repeating: "0", count: 64)
        for line in ["file ../evil 1 \(digest)", "file thumbnails/x 1 \(digest)", "file document.typedstream -1 \(digest)",
                     "file document.typedstream 1 XYZ", "file settings.plist 1 \(digest)\nfile settings.plist 1 \(digest)"] {
            let text = CommitJournal.magic + "\ngeneration 1\n" + line + "\nend\n"
            #expect(throws: ModelDocumentError(.damaged, "")) { try CommitJournal(parsing: Array(text.utf8)) }
        }
    }

    @Test func aSettingsFileWithoutItsChecksumIsAnIntegrityError() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory)
        let path = directory + "/" + DocumentFiles.settings
        var settings = try DocumentSettings(plist: readBytes(path))
        settings.archiveSHA256 = nil
        try writeBytes(path, settings.plistBytes())
        let before = treeSnapshot(directory)
        #expect(throws: ModelDocumentError(.damaged, "")) { try ModelDocument.open(at: directory) }
        #expect { try ModelDocument.open(at: directory) } throws: { error in
            let description = (error as? ModelDocumentError)?.description ?? ""
            return description == "\(path): \(ModelDocument.missingChecksumReason(version: .v2))"
                && description.contains("restore settings.plist from a backup")
        }
        #expect(throws: ModelDocumentError(.damaged, "")) { try edit(directory) { try $0.add(ModelRecord(name: "x")) } }
        #expect(treeSnapshot(directory) == before)
        // Not checking is still possible on request.
        var options = ModelDocument.OpenOptions()
        options.verifyChecksum = false
        #expect(try ModelDocument.open(at: directory, options: options).count == 3)

        // The recovery the message describes: the Objective-C app's form, then a save.
        try writeBytes(path, SettingsValue.xmlBytes(["version": .integer(2)]))
        try edit(directory) { try $0.add(ModelRecord(name: "x")) }
        #expect(try DocumentSettings(plist: readBytes(path)).archiveSHA256 != nil)
        #expect(try ModelDocument.open(at: directory).count == 4)
    }

    @Test func onlyTheExactObjectiveCFormGoesWithoutAChecksum() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        try writeLegacyDocument(directory, archive: handArchiveV2, version: 2)
        #expect(try ModelDocument.open(at: directory).count > 0)
        for extra: [String: SettingsValue] in [["generation": .integer(3)], ["format": .string("ModelDocument")], ["archiveLength": .integer(1)], ["other": .string("x")]] {
            try writeLegacyDocument(directory, archive: handArchiveV2, version: 2, extraSettings: extra)
            #expect(throws: ModelDocumentError(.damaged, ""), "\(extra)") { try ModelDocument.open(at: directory) }
        }
    }
}
