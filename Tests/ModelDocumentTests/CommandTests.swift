import Testing
@testable import ModelDocument

@Suite struct CommandTests {
    @Test func newListAddDeleteUndoAcrossRuns() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")

        let created = ModelCommands.new(directory: directory)
        #expect(created == CommandOutput(standardOutput: "created \(directory) (document version 2, 3 models)\n"))
        #expect(ModelCommands.new(directory: directory).exitStatus == 1)

        let listed = ModelCommands.list(directory: directory)
        #expect(listed.exitStatus == 0)
        #expect(listed.standardError.isEmpty)
        #expect(listed.standardOutput == """
            document version 2, 3 models, generation 1
            #  name         type    rect                flag  kind  para  thumbnail
            0  Sunrise      photo   0,0,320,240         1     1     0     73 bytes
            1  Harbour      photo   10.5,20.25,640,480  3     1     2     73 bytes
            2  Field notes  sketch  -4,0.125,100,75.5   0     -2    7     73 bytes

            """)

        let thumbnail = folder.sub("thumb.png")
        try writeBytes(thumbnail, [1, 2, 3, 4])
        let added = ModelCommands.add(directory: directory, name: "../Dune", type: "photo", rect: "1,2,3,4", flag: "4294967295", kind: "-7", para: "9", thumbnail: thumbnail)
        #expect(added == CommandOutput(standardOutput: "added '../Dune' (model 3)\n"))
        let document = try ModelDocument.open(at: directory)
        #expect(document.records.last == ModelRecord(name: "../Dune", type: "photo", rect: ModelRect(x: 1, y: 2, width: 3, height: 4),
                                                    flag: UInt32.max, kind: -7, para: 9, thumbnail: [1, 2, 3, 4]))

        #expect(ModelCommands.delete(directory: directory, name: "Sunrise").standardOutput == "deleted 'Sunrise'\n")
        #expect(ModelCommands.delete(directory: directory, name: "Sunrise").exitStatus == 1)
        #expect(ModelCommands.undo(directory: directory).standardOutput == "undid delete 'Sunrise'\n")
        #expect(ModelCommands.undo(directory: directory).standardOutput == "undid add '../Dune'\n")
        #expect(ModelCommands.redo(directory: directory).standardOutput == "redid add '../Dune'\n")
        #expect(ModelCommands.undo(directory: directory).exitStatus == 0)
        let nothing = ModelCommands.undo(directory: directory)
        #expect(nothing.exitStatus == 1)
        #expect(nothing.standardError.contains("nothing to undo"))
        #expect(try ModelDocument.open(at: directory).records == ModelDocument.placeholderRecords)
    }

    @Test(arguments: [
        ([String?]([nil, nil, nil, nil, nil, nil]), "--name: is required"),
        (["x", "1,2,3", nil, nil, nil, nil], "--rect: expected x,y,w,h (four numbers), got '1,2,3'"),
        (["x", nil, "-1", nil, nil, nil], "--flag: expected a whole number 0…4294967295, got '-1'"),
        (["x", nil, nil, "2147483648", nil, nil], "--kind: expected a whole number -2147483648…2147483647, got '2147483648'"),
        (["x", nil, nil, nil, "p", nil], "--para: expected a whole number -2147483648…2147483647, got 'p'"),
        (["", nil, nil, nil, nil, nil], "--name: must not be empty"),
        (["x", "1,2,3,1e39", nil, nil, nil, nil], "--rect: height '1e39' is not a finite 32-bit float (magnitude at most 3.4028235e+38)"),
        (["x", "-1e39,0,0,0", nil, nil, nil, nil], "--rect: x '-1e39' is not a finite 32-bit float (magnitude at most 3.4028235e+38)"),
        (["x", "0,nan,0,0", nil, nil, nil, nil], "--rect: y 'nan' is not a finite 32-bit float (magnitude at most 3.4028235e+38)"),
        (["x", "0,0,inf,0", nil, nil, nil, nil], "--rect: width 'inf' is not a finite 32-bit float (magnitude at most 3.4028235e+38)"),
        (["x", "0,0,0,1e400", nil, nil, nil, nil], "--rect: height '1e400' is not a finite 32-bit float (magnitude at most 3.4028235e+38)"),
        (["x", "0,0,0,\u{1B}", nil, nil, nil, nil], "--rect: expected x,y,w,h (four numbers), got '0,0,0,\\u{1b}'"),
    ])
    func addUsageErrors(values: [String?], message: String) {
        let output = ModelCommands.add(directory: "/nonexistent", name: values[0], rect: values[1], flag: values[2], kind: values[3], para: values[4], thumbnail: values[5])
        #expect(output == CommandOutput(standardError: "model: \(message)\n", exitStatus: 64))
    }

    @Test func paraInAVersionOneDocumentPointsAtMigrate() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: VersioningTests.v1Records, version: .v1)
        let refused = ModelCommands.add(directory: directory, name: "P", para: "3")
        #expect(refused.exitStatus == 1)
        #expect(refused.standardError.contains("model migrate"))
        #expect(ModelCommands.add(directory: directory, name: "P").exitStatus == 0)

        let migrated = ModelCommands.migrate(directory: directory)
        #expect(migrated.standardOutput == "migrated \(directory) from version 1 to 2 (3 models; old files kept in backups/)\n")
        #expect(ModelCommands.migrate(directory: directory).standardOutput == "\(directory) is already at version 2; nothing to migrate\n")
        #expect(ModelCommands.add(directory: directory, name: "Q", para: "3").exitStatus == 0)
    }

    @Test func exportToKeyedAndImportBack() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory)
        #expect(ModelCommands.export(directory: directory, to: "json") == CommandOutput(standardError: "model: --to: unknown export format 'json' (supported: keyed)\n", exitStatus: 64))
        let exported = ModelCommands.export(directory: directory, to: "keyed")
        #expect(exported.exitStatus == 0)
        let keyedPath = directory + "/" + KeyedModelArchive.defaultFileName
        #expect(exported.standardOutput.hasPrefix("wrote 3 models (version 2) to \(keyedPath) as a keyed archive"))
        let imported = ModelCommands.importKeyed(file: keyedPath, directory: folder.sub("copy"))
        #expect(imported.exitStatus == 0)
        #expect(try readBytes(folder.sub("copy/document.typedstream")) == readBytes(directory + "/document.typedstream"))
    }

    @Test func missingThumbnailWarningsGoToStandardError() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory)
        try DurableIO.remove(directory + "/thumbnails/" + ThumbnailName.fileName(for: "Sunrise")!)
        let listed = ModelCommands.list(directory: directory)
        #expect(listed.exitStatus == 0)
        #expect(listed.standardError == "warning: thumbnail of model 'Sunrise' not found (thumbnails/%53unrise.thumbnail); its image is empty\n")
        #expect(listed.standardOutput.contains("0  Sunrise      photo   0,0,320,240         1     1     0     -\n"))
        #expect(ModelCommands.list(directory: folder.sub("none")).exitStatus == 1)
    }

    @Test func namesWithControlCharactersAreEscapedInListings() {
        #expect(DisplayText.quoted("a\u{0}b\nc") == "a\\u{0}b\\u{a}c")
        #expect(DisplayText.quoted("\u{7F}\u{9B}\u{A0}é") == "\\u{7f}\\u{9b}\u{A0}é")
        #expect(DisplayText.quoted(nil) == "(nil)")
        #expect(DisplayText.quoted("") == "\"\"")
    }

    @Test func echoedNamesAreEscaped() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let directory = folder.sub("doc")
        _ = ModelCommands.new(directory: directory, empty: true)
        let name = "t\u{1B}]0;pwned\u{7}\u{9B}x"
        let shown = "'t\\u{1b}]0;pwned\\u{7}\\u{9b}x'"
        #expect(ModelCommands.add(directory: directory, name: name) == CommandOutput(standardOutput: "added \(shown) (model 0)\n"))
        #expect(ModelCommands.add(directory: directory, name: name).standardError == "model: \(directory): model 0 is already named \(shown) (thumbnails are found by name)\n")
        #expect(ModelCommands.delete(directory: directory, name: name) == CommandOutput(standardOutput: "deleted \(shown)\n"))
        #expect(ModelCommands.delete(directory: directory, name: name).standardError == "model: \(directory): no model is named \(shown)\n")
        #expect(ModelCommands.undo(directory: directory) == CommandOutput(standardOutput: "undid delete \(shown)\n"))
        #expect(ModelCommands.redo(directory: directory) == CommandOutput(standardOutput: "redid delete \(shown)\n"))
    }

    @Test func importRefusesTwoModelsWithOneNameAsAddDoes() throws {
        let folder = TemporaryFolder("commands")
        defer { folder.cleanUp() }
        let keyed = try KeyedModelArchive.encode([
            ModelRecord(name: "Twin", thumbnail: [1]), ModelRecord(name: "Other"), ModelRecord(name: "Twin", thumbnail: [2]),
        ], version: .v2)
        let file = folder.sub("twins.keyedarchive")
        try writeBytes(file, keyed)
        let directory = folder.sub("doc")
        let output = ModelCommands.importKeyed(file: file, directory: directory)
        #expect(output == CommandOutput(standardError: "model: \(file): models 0 and 2 are both named 'Twin'; a document's names must be unique, as 'model add' requires (thumbnails are found by name), so nothing was imported\n", exitStatus: 1))
        #expect(!DurableIO.exists(directory))
        #expect(throws: ModelDocumentError(.duplicateName, "")) {
            try ModelDocument.create(at: directory, records: [ModelRecord(name: "A"), ModelRecord(name: "A")])
        }
        #expect(!DurableIO.exists(directory))
    }

    @Test func aFiniteRectAtTheEdgeOfFloatIsKept() throws {
        let request = try ModelAddRequest(name: "x", rect: "-3.4028235e38, 1e-3, 0x1p4, 3.4028235e38")
        #expect(request.record.rect == ModelRect(x: -Float.greatestFiniteMagnitude, y: 0.001, width: 16, height: Float.greatestFiniteMagnitude))
    }
}
