import Foundation
import Testing
@testable import TypedStreamTool

/// A command never writes its output over its input, however the two are spelled: the same
/// path, `./`, an absolute path, a symbolic link or a hard link. The refusal is one line and
/// exit status 64, before anything is read or written; the input is left as it was.
@Suite struct OutputAliasingTests {
    /// The ways of naming `a.typedstream` in `folder` as an output, with how each is made.
    static func aliases(of input: String, in folder: TemporaryFolder) throws -> [String] {
        let symbolic = folder.path + "/link.typedstream"
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: "a.typedstream")
        let hard = folder.path + "/hard.typedstream"
        try FileManager.default.linkItem(atPath: input, toPath: hard)
        return [input, folder.path + "/./a.typedstream", folder.path + "/sub/../a.typedstream", symbolic, hard]
    }

    @Test func convertRefusesEveryNameOfItsInput() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("a.typedstream", Samples.arrayWithBool)
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: true)
        for output in try Self.aliases(of: input, in: folder) {
            for format in ["json", "typedstream", "keyed"] {
                let result = run(["convert", "--to", format, input, "-o", output])
                #expect(result.exitCode == .usage, "\(output)")
                #expect(result.standardError == "error: refusing to write '\(output)': it is the input '\(input)'; use --in-place to replace it\n")
                #expect(result.standardOutput.isEmpty)
            }
        }
        // The input named through the link, the output by its own name.
        let viaLink = run(["convert", "--to", "json", folder.path + "/link.typedstream", "-o", input])
        #expect(viaLink.exitCode == .usage)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == Samples.arrayWithBool)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.typedstream", "hard.typedstream", "link.typedstream", "sub"])
    }

    @Test func encodeRefusesItsInput() throws {
        let folder = try TemporaryFolder()
        let json = run(["decode", "--json", "-"], stdin: Samples.arrayWithBool).outputBytes
        let input = try folder.write("a.json", json)
        for output in [input, folder.path + "/./a.json"] {
            let result = run(["encode", input, "-o", output])
            #expect(result.exitCode == .usage)
            #expect(result.standardError == "error: refusing to write '\(output)': it is the input '\(input)'\n")
        }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == json)
    }

    @Test func modelExportRefusesTheDocumentsOwnFiles() throws {
        let folder = try TemporaryFolder()
        let document = folder.path + "/doc"
        #expect(run(["model", "new", document]).exitCode == .success)
        let archive = document + "/document.typedstream"
        let before = try Data(contentsOf: URL(fileURLWithPath: archive))
        let result = run(["model", "export", document, "-o", document + "/./document.typedstream"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError == "error: refusing to write '\(document)/./document.typedstream': it is the input '\(archive)'\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
    }

    /// `convert -r DIR -o DIR` would put each result over its input: a usage error before
    /// anything is read or written.
    @Test func aBatchIntoItsOwnFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("in/a.typedstream", Samples.arrayWithBool)
        let result = run(["convert", "--to", "typedstream", "-r", folder.path + "/in", "-o", folder.path + "/in"])
        #expect(result.exitCode == .usage)
        #expect(result.standardError.hasPrefix("error: the output folder '\(folder.path)/in' is the folder being converted"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == Samples.arrayWithBool)
    }

    /// The real program, with the output spelled relative to its working folder.
    @Test func theProgramRefusesDotSlash() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OutputFailureTests.toolPath), "typedstream not built")
        let folder = try TemporaryFolder()
        try folder.write("a.typedstream", Samples.arrayWithBool)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: OutputFailureTests.toolPath)
        process.arguments = ["convert", "--to", "json", "a.typedstream", "-o", "./a.typedstream"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text == "error: refusing to write './a.typedstream': it is the input 'a.typedstream'; use --in-place to replace it\n")
    }

    /// `--in-place` on a symbolic link converts the file it leads to and keeps the link.
    @Test func inPlaceThroughASymbolicLinkKeepsTheLink() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("a.typedstream", Samples.arrayWithBool)
        let link = folder.path + "/link.typedstream"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "a.typedstream")
        let result = run(["convert", "--to", "typedstream", "--byte-order", "big", "--in-place", "-q", link])
        #expect(result.exitCode == .success, "\(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "a.typedstream")
        let converted = try [UInt8](Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(Array(converted[2..<13]) == Array("typedstream".utf8))  // big-endian signature
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.typedstream", "link.typedstream"])
    }
}
