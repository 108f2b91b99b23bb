import Testing
@testable import ModelDocument

/// Document text made safe for a terminal, and the library calls behind `model export` and
/// `model import` (their printed output is tested with the command line, in TypedStreamToolTests).
@Suite struct DisplayTextTests {
    @Test func namesWithControlCharactersAreEscapedInListings() {
        #expect(DisplayText.quoted("a\u{0}b\nc") == "a\\u{0}b\\u{a}c")
        #expect(DisplayText.quoted("\u{7F}\u{9B}\u{A0}é") == "\\u{7f}\\u{9b}\u{A0}é")
        #expect(DisplayText.quoted(nil) == "(nil)")
        #expect(DisplayText.quoted("") == "\"\"")
        #expect(DisplayText.name("t\u{1B}]0;pwned\u{7}") == "'t\\u{1b}]0;pwned\\u{7}'")
        #expect(DisplayText.name(nil) == "nil")
    }

    @Test func exportToAKeyedFileAndImportBack() throws {
        let folder = TemporaryFolder("keyed-file")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        let document = try ModelDocument.create(at: directory)
        let path = KeyedModelArchive.defaultPath(in: directory)
        #expect(path == directory + "/document.keyedarchive")
        #expect(KeyedModelArchive.defaultPath(in: directory + "/") == path)
        let written = try KeyedModelArchive.export(document, toFile: path)
        let bytes = try readBytes(path)
        #expect(written == bytes.count)
        #expect(bytes == (try KeyedModelArchive.export(document)))
        let copy = try KeyedModelArchive.importDocument(bytes, to: folder.sub("copy"), path: path)
        #expect(copy.records == document.records)
        #expect(try readBytes(folder.sub("copy/document.typedstream")) == readBytes(directory + "/document.typedstream"))
        #expect(throws: ModelDocumentError(.io, "")) { try KeyedModelArchive.export(document, toFile: folder.sub("no/such/folder/x")) }
    }

    @Test func importRefusesTwoModelsWithOneNameAsAddDoes() throws {
        let folder = TemporaryFolder("keyed-file")
        defer { folder.cleanUp() }
        let keyed = try KeyedModelArchive.encode([
            ModelRecord(name: "Twin", thumbnail: [1]), ModelRecord(name: "Other"), ModelRecord(name: "Twin", thumbnail: [2]),
        ], version: .v2)
        let directory = folder.sub("doc")
        #expect(throws: ModelDocumentError(.duplicateName, "")) { try KeyedModelArchive.importDocument(keyed, to: directory, path: "twins") }
        #expect(!DurableIO.exists(directory))
        #expect(throws: ModelDocumentError(.duplicateName, "")) {
            try ModelDocument.create(at: directory, records: [ModelRecord(name: "A"), ModelRecord(name: "A")])
        }
        #expect(!DurableIO.exists(directory))
    }

    @Test func aThumbnailIsReadFromItsFile() throws {
        let folder = TemporaryFolder("keyed-file")
        defer { folder.cleanUp() }
        try writeBytes(folder.sub("p.bin"), [1, 2, 3])
        var record = ModelRecord(name: "p")
        try record.readThumbnail(fromFile: folder.sub("p.bin"))
        #expect(record.thumbnail == [1, 2, 3])
        let missing = folder.sub("missing.png")
        #expect { try record.readThumbnail(fromFile: missing) } throws: { error in
            (error as? ModelDocumentError)?.description == "cannot read '\(missing)': No such file or directory"
        }
    }
}
