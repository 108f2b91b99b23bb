import Foundation
import Testing
@testable import ModelDocument
@testable import TypedStreamTool
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `typedstream model …` printed and how it ended, compared whole.
struct ModelPrinted: Equatable, CustomStringConvertible {
    var output = ""
    var error = ""
    var status: ExitCode = .success

    var description: String { "status \(status), stdout \(output.debugDescription), stderr \(error.debugDescription)" }
}

/// Runs `typedstream model ARGUMENTS…` in-process.
func model(_ arguments: String...) -> ModelPrinted {
    let result = TypedStreamCommand.run(["model"] + arguments)
    return ModelPrinted(output: result.standardOutput, error: result.standardError, status: result.exitCode)
}

/// Runs `typedstream model add DIRECTORY` with the options that are not `nil`.
func modelAdd(_ directory: String, name: String?, type: String? = nil, rect: String? = nil, flag: String? = nil,
              kind: String? = nil, para: String? = nil, thumbnail: String? = nil) -> ModelPrinted {
    var arguments = ["model", "add", directory]
    for (option, value) in [("name", name), ("type", type), ("rect", rect), ("flag", flag), ("kind", kind), ("para", para), ("thumbnail", thumbnail)] {
        if let value { arguments += ["--\(option)", value] }
    }
    let result = TypedStreamCommand.run(arguments)
    return ModelPrinted(output: result.standardOutput, error: result.standardError, status: result.exitCode)
}

/// The `model` verbs' output, word for word: what they print, the warnings, the one-line
/// errors and the statuses (the documents themselves are tested in ModelDocumentTests).
@Suite struct ModelVerbTests {
    @Test func newListAddDeleteUndoAcrossRuns() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"

        #expect(model("new", directory) == ModelPrinted(output: "created \(directory) (document version 2, 3 models)\n"))
        #expect(model("new", directory).status == .failure)

        #expect(model("list", directory) == ModelPrinted(output: """
            document version 2, 3 models, generation 1
            #  name         type    rect                flag  kind  para  thumbnail
            0  Sunrise      photo   0,0,320,240         1     1     0     73 bytes
            1  Harbour      photo   10.5,20.25,640,480  3     1     2     73 bytes
            2  Field notes  sketch  -4,0.125,100,75.5   0     -2    7     73 bytes

            """))

        let thumbnail = try folder.write("thumb.png", [1, 2, 3, 4])
        let added = modelAdd(directory, name: "../Dune", type: "photo", rect: "1,2,3,4", flag: "4294967295", kind: "-7", para: "9", thumbnail: thumbnail)
        #expect(added == ModelPrinted(output: "added '../Dune' (model 3)\n"))
        let document = try ModelDocument.open(at: directory)
        #expect(document.records.last == ModelRecord(name: "../Dune", type: "photo", rect: ModelRect(x: 1, y: 2, width: 3, height: 4),
                                                    flag: UInt32.max, kind: -7, para: 9, thumbnail: [1, 2, 3, 4]))

        #expect(model("delete", directory, "Sunrise") == ModelPrinted(output: "deleted 'Sunrise'\n"))
        #expect(model("delete", directory, "Sunrise") == ModelPrinted(error: "model: \(directory): no model is named 'Sunrise'\n", status: .failure))
        #expect(model("undo", directory) == ModelPrinted(output: "undid delete 'Sunrise'\n"))
        #expect(model("undo", directory) == ModelPrinted(output: "undid add '../Dune'\n"))
        #expect(model("redo", directory) == ModelPrinted(output: "redid add '../Dune'\n"))
        #expect(model("undo", directory).status == .success)
        let nothing = model("undo", directory)
        #expect(nothing.status == .failure)
        #expect(nothing.error.contains("nothing to undo"))
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
        let output = modelAdd("/nonexistent", name: values[0], rect: values[1], flag: values[2], kind: values[3], para: values[4], thumbnail: values[5])
        #expect(output == ModelPrinted(error: "model: \(message)\n", status: .usage))
    }

    @Test func aFiniteRectAtTheEdgeOfFloatIsKept() throws {
        let options = try ModelAddOptions(name: "x", rect: "-3.4028235e38, 1e-3, 0x1p4, 3.4028235e38")
        #expect(options.record.rect == ModelRect(x: -Float.greatestFiniteMagnitude, y: 0.001, width: 16, height: Float.greatestFiniteMagnitude))
    }

    @Test func paraInAVersionOneDocumentPointsAtMigrate() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = try ModelDocument.create(at: directory, records: [ModelRecord(name: "A"), ModelRecord(name: "B")], version: .v1)
        let refused = modelAdd(directory, name: "P", para: "3")
        #expect(refused.status == .failure)
        #expect(refused.error.contains("model migrate"))
        #expect(modelAdd(directory, name: "P").status == .success)

        #expect(model("migrate", directory) == ModelPrinted(output: "migrated \(directory) from version 1 to 2 (3 models; old files kept in backups/)\n"))
        #expect(model("migrate", directory) == ModelPrinted(output: "\(directory) is already at version 2; nothing to migrate\n"))
        #expect(modelAdd(directory, name: "Q", para: "3").status == .success)
    }

    @Test func aNewerDraftIsNotMigrated() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/draft"
        _ = try ModelDocument.create(at: directory, records: [ModelRecord(name: "R", reserved: 42)], version: .v3Draft)
        #expect(model("migrate", directory) == ModelPrinted(output: "\(directory) is at version 3 (draft), newer than 2; nothing to migrate\n"))
    }

    @Test func everyVerbRefusesANewerDocumentAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/future"
        _ = try ModelDocument.create(at: directory)
        try folder.write("future/" + DocumentFiles.settings, SettingsValue.xmlBytes(["version": .integer(4)]))
        let before = filesUnder(URL(fileURLWithPath: directory)).map { ($0, FileManager.default.contents(atPath: $0)) }
        let outputs = [
            model("list", directory), modelAdd(directory, name: "X"), model("delete", directory, "Sunrise"),
            model("undo", directory), model("migrate", directory), model("export", directory, "--to", "keyed"), model("new", directory),
        ]
        for output in outputs {
            #expect(output.status == .failure)
            #expect(output.output.isEmpty)
        }
        #expect(outputs[0].error.contains("version 4 is newer than this program understands"))
        let after = filesUnder(URL(fileURLWithPath: directory)).map { ($0, FileManager.default.contents(atPath: $0)) }
        #expect(after.map(\.0) == before.map(\.0))
        #expect(after.map(\.1) == before.map(\.1))
    }

    @Test func exportToKeyedAndImportBack() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = model("new", directory)
        #expect(model("export", directory, "--to", "json") == ModelPrinted(error: "model: --to: unknown export format 'json' (supported: keyed)\n", status: .usage))
        let exported = model("export", directory, "--to", "keyed")
        #expect(exported.status == .success)
        let keyedPath = directory + "/" + KeyedModelArchive.defaultFileName
        let size = try #require(FileManager.default.contents(atPath: keyedPath)).count
        #expect(exported.output == "wrote 3 models (version 2) to \(keyedPath) as a keyed archive (\(size) bytes)\n")
        let copy = folder.path + "/copy"
        #expect(model("import", keyedPath, copy) == ModelPrinted(output: "created \(copy) from \(keyedPath) (document version 2, 3 models)\n"))
        #expect(FileManager.default.contents(atPath: copy + "/document.typedstream") == FileManager.default.contents(atPath: directory + "/document.typedstream"))
    }

    @Test func importRefusesTwoModelsWithOneNameAsAddDoes() throws {
        let folder = try TemporaryFolder()
        let keyed = try KeyedModelArchive.encode([
            ModelRecord(name: "Twin", thumbnail: [1]), ModelRecord(name: "Other"), ModelRecord(name: "Twin", thumbnail: [2]),
        ], version: .v2)
        let file = try folder.write("twins.keyedarchive", keyed)
        let directory = folder.path + "/doc"
        #expect(model("import", file, directory) == ModelPrinted(error: "model: \(file): models 0 and 2 are both named 'Twin'; a document's names must be unique, as 'model add' requires (thumbnails are found by name), so nothing was imported\n", status: .failure))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func warningsGoToStandardError() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = model("new", directory)
        try FileManager.default.removeItem(atPath: directory + "/thumbnails/" + ThumbnailName.fileName(for: "Sunrise")!)
        let listed = model("list", directory)
        #expect(listed.status == .success)
        #expect(listed.error == "warning: thumbnail of model 'Sunrise' not found (thumbnails/%53unrise.thumbnail); its image is empty\n")
        #expect(listed.output.contains("0  Sunrise      photo   0,0,320,240         1     1     0     -\n"))
        #expect(model("list", folder.path + "/none").status == .failure)

        // An edit needs the undo history, and says one line when it ignores it.
        let other = folder.path + "/other"
        _ = model("new", other)
        try folder.write("other/" + DocumentFiles.history, Array("not a history".utf8))
        let added = modelAdd(other, name: "x")
        #expect(added.status == .success)
        #expect(added.output == "added 'x' (model 3)\n")
        #expect(added.error.hasPrefix("warning: undo history ignored: not a property list"), "\(added.error)")
        #expect(added.error.split(separator: "\n").count == 1)
    }

    @Test func aModelWithoutAThumbnailIsSilent() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = model("new", directory, "--empty")
        #expect(modelAdd(directory, name: "bare") == ModelPrinted(output: "added 'bare' (model 0)\n"))
        #expect(model("list", directory).error == "")
        #expect(model("delete", directory, "bare") == ModelPrinted(output: "deleted 'bare'\n"))
        #expect(model("undo", directory) == ModelPrinted(output: "undid delete 'bare'\n"))
    }

    @Test func echoedNamesAreEscaped() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = model("new", directory, "--empty")
        let name = "t\u{1B}]0;pwned\u{7}\u{9B}x"
        let shown = "'t\\u{1b}]0;pwned\\u{7}\\u{9b}x'"
        #expect(modelAdd(directory, name: name) == ModelPrinted(output: "added \(shown) (model 0)\n"))
        #expect(modelAdd(directory, name: name) == ModelPrinted(error: "model: \(directory): model 0 is already named \(shown) (thumbnails are found by name)\n", status: .failure))
        #expect(model("delete", directory, name) == ModelPrinted(output: "deleted \(shown)\n"))
        #expect(model("delete", directory, name) == ModelPrinted(error: "model: \(directory): no model is named \(shown)\n", status: .failure))
        #expect(model("undo", directory) == ModelPrinted(output: "undid delete \(shown)\n"))
        #expect(model("redo", directory) == ModelPrinted(output: "redid delete \(shown)\n"))
    }

    @Test func aSettingsFileWithoutItsChecksumIsOneLine() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = try ModelDocument.create(at: directory)
        let path = directory + "/" + DocumentFiles.settings
        var settings = try DocumentSettings(plist: Array(try #require(FileManager.default.contents(atPath: path))))
        settings.archiveSHA256 = nil
        try folder.write("doc/" + DocumentFiles.settings, settings.plistBytes())
        #expect(model("list", directory) == ModelPrinted(error: "model: \(path): \(ModelDocument.missingChecksumReason(version: .v2))\n", status: .failure))
        #expect(modelAdd(directory, name: "x").status == .failure)
    }

    @Test func fileErrorsAreOneLineNamingThePath() throws {
        #expect(modelAdd("/nonexistent-dir", name: "x", thumbnail: "/nonexistent-file") == ModelPrinted(error: "model: /nonexistent-dir: no such folder\n", status: .failure))

        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        _ = model("new", directory, "--empty")
        let missing = folder.path + "/missing.png"
        #expect(modelAdd(directory, name: "x", thumbnail: missing) == ModelPrinted(error: "model: cannot read '\(missing)': No such file or directory\n", status: .failure))

        // A folder where the side file must go makes its rename fail.
        let blocked = directory + "/thumbnails/" + ThumbnailName.fileName(for: "x")!
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
        let picture = try folder.write("p.bin", [1, 2, 3])
        let failed = modelAdd(directory, name: "x", thumbnail: picture)
        #expect(failed.status == .failure)
        #expect(failed.error.hasPrefix("model: cannot write '\(blocked)': "), "\(failed.error)")
        #expect(failed.error.split(separator: "\n").count == 1)
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only folders"))
    func aReadOnlyFolderGivesOneLine() throws {
        let folder = try TemporaryFolder()
        let directory = folder.path + "/doc"
        defer { chmod(directory, 0o755) }
        _ = model("new", directory)
        #expect(chmod(directory, 0o555) == 0)
        #expect(modelAdd(directory, name: "x") == ModelPrinted(error: "model: cannot write '\(directory)/document.typedstream.new': Permission denied\n", status: .failure))
    }
}
