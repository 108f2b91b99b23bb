import Foundation
import Testing
@testable import TypedStreamTool

/// `convert` batches: output names decided for the whole batch, never two inputs on one output,
/// the output folder never read as input, one-line errors.
struct ConvertBatchTests {
    private static let strings = (try? [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/strings-array.typedstream")))) ?? []
    private static let hello = (try? [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/hello.typedstream")))) ?? []

    /// Every file under `folder`, relative to it, sorted.
    private func listing(_ folder: String) -> [String] {
        filesUnder(URL(fileURLWithPath: folder)).map { String($0.dropFirst(folder.count + 1)) }
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func sameFileNameFromTwoFoldersKeepsBoth() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("in/a/x.typedstream", Self.strings)
        let b = try folder.write("in/b/x.typedstream", Self.hello)
        let result = TypedStreamCommand.run(["convert", "--to", "json", a, b, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(result.standardOutput.contains("2 converted"))
        #expect(listing(folder.path + "/out") == ["a/x.json", "b/x.json"])
        #expect(try text(folder.path + "/out/a/x.json").contains("NSMutableArray"))
        #expect(try text(folder.path + "/out/b/x.json").contains("Hello, typedstream!"))
    }

    @Test func recursiveSameStemKeepsTheInputExtension() throws {
        let folder = try TemporaryFolder()
        try folder.write("tree/x.typedstream", Self.strings)
        try folder.write("tree/x.nib", Self.hello)
        try folder.write("tree/y.typedstream", Self.hello)
        try folder.write("tree/y.json", Array("{}".utf8))  // not an archive: does not rename y
        let result = TypedStreamCommand.run(["convert", "--to", "json", "-r", "-q", folder.path + "/tree", "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(result.standardOutput.contains("3 converted, 0 failed, 1 skipped"))
        #expect(listing(folder.path + "/out") == ["x.nib.json", "x.typedstream.json", "y.json"])
        #expect(try text(folder.path + "/out/x.nib.json").contains("Hello, typedstream!"))
    }

    @Test func sameRelativePathUnderTwoRootsIsMirrored() throws {
        let folder = try TemporaryFolder()
        try folder.write("one/sub/x.typedstream", Self.strings)
        try folder.write("two/sub/x.typedstream", Self.hello)
        let result = TypedStreamCommand.run(["convert", "--to", "keyed", "-r", "-q",
                                             folder.path + "/one", folder.path + "/two", "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(listing(folder.path + "/out") == ["one/sub/x.plist", "two/sub/x.plist"])
    }

    @Test func outputFolderInsideTheTreeIsNeverReadAsInput() throws {
        let folder = try TemporaryFolder()
        try folder.write("tree/x.typedstream", Self.strings)
        try folder.write("tree/deeper/y.typedstream", Self.hello)
        let arguments = ["convert", "--to", "typedstream", "--byte-order", "big", "-r", "-q", folder.path + "/tree", "-o", folder.path + "/tree/out"]
        for _ in 0..<2 {
            let result = TypedStreamCommand.run(arguments)
            #expect(result.exitCode == .success, "\(result.standardError)")
            #expect(result.standardOutput.contains("2 files: 2 converted, 0 failed, 0 skipped"), "\(result.standardOutput)")
        }
        #expect(listing(folder.path + "/tree/out") == ["deeper/y.typedstream", "x.typedstream"])
    }

    @Test func outputFolderThatIsTheInputFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("tree/x.typedstream", Self.strings)
        let result = TypedStreamCommand.run(["convert", "--to", "json", "-r", folder.path + "/tree", "-o", folder.path + "/tree/."])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("is the folder being converted"))
        #expect(listing(folder.path + "/tree") == ["x.typedstream"])
    }

    @Test func outputThatIsAnInputIsRefused() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("x.typedstream", Self.strings)
        let result = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "big", input, "-o", folder.path])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("is the input"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == Self.strings)
    }

    @Test func theSameFileTwiceIsAUsageErrorListingIt() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("x.typedstream", Self.strings)
        let result = TypedStreamCommand.run(["convert", "--to", "json", input, input, "-o", folder.path + "/out"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("out/x.json' ← '\(input)', '\(input)'"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test func batchIntoAnExistingFileIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.typedstream", Self.strings)
        let b = try folder.write("b.typedstream", Self.hello)
        let file = try folder.write("afile", [])
        let result = TypedStreamCommand.run(["convert", "--to", "json", a, b, "-o", file])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("is a file, but several inputs need an output folder"))
        #expect(!result.standardError.contains("Error Domain"))
    }

    @Test func outputFolderBehindAFileFailsInOneLine() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("a.typedstream", Self.strings)
        let b = try folder.write("b.typedstream", Self.hello)
        let file = try folder.write("afile", [])
        let result = TypedStreamCommand.run(["convert", "--to", "json", a, b, "-o", file + "/sub"])
        #expect(result.exitCode == .failure)
        #expect(result.standardError == "error: cannot create folder '\(file)': a file of that name is in the way; "
                + "choose another output folder (the output folder given with -o)\n")
    }

    @Test func oneInputIntoAnExistingFolder() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("x.typedstream", Self.strings)
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        let result = TypedStreamCommand.run(["convert", "--to", "keyed-xml", input, "-o", folder.path + "/out"])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(listing(folder.path + "/out") == ["x.xml.plist"])
        // A new folder, named with a final '/', works the same way.
        let slash = TypedStreamCommand.run(["convert", "--to", "json", "-", "-o", folder.path + "/new/"], standardInput: Self.hello)
        #expect(slash.exitCode == .success, "\(slash.standardError)")
        #expect(listing(folder.path + "/new") == ["stdin.json"])
    }

    @Test func severalInputsCannotGoToStandardOutput() {
        let result = TypedStreamCommand.run(["convert", "--to", "json", "a", "b", "-o", "-"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains("cannot all go to standard output"))
    }

    @Test(arguments: [
        ("x.typedstream", ConversionFormat.json, false, "x.json"),
        ("sub/x.nib", .keyedXML, false, "sub/x.xml.plist"),
        ("x.nib", .json, true, "x.nib.json"),
        ("noextension", .keyed, false, "noextension.plist"),
        ("dir.d/file", .json, false, "dir.d/file.json"),
        ("x.nib", .typedstream, true, "x.nib"),
    ])
    func outputNames(relative: String, format: ConversionFormat, keep: Bool, expected: String) {
        #expect(OutputPlan.outputName(relative, format: format, keepExtension: keep) == expected)
    }
}
