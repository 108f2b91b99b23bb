import Foundation
import Testing
@testable import TypedStreamTool

struct ModelCommandTests {
    @Test func newAddDeleteUndoThroughTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(TypedStreamCommand.run(["model", "new", folder, "--empty"]).exitCode == .success)
        let added = TypedStreamCommand.run(["model", "add", folder, "--name", "card", "--type", "t", "--rect", "1,2,3,4",
                                            "--flag", "4294967295", "--kind", "-2", "--para", "5"])
        #expect(added.exitCode == .success, "\(added.standardError)")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/document.typedstream"))
        #expect(TypedStreamCommand.run(["model", "delete", folder, "card"]).exitCode == .success)
        #expect(TypedStreamCommand.run(["model", "undo", folder]).exitCode == .success)
        let after = try Data(contentsOf: URL(fileURLWithPath: folder + "/document.typedstream"))
        #expect(after == before)
        let listing = TypedStreamCommand.run(["model", "list", folder])
        #expect(listing.standardOutput.contains("4294967295"))
        // The archive is a plain typedstream: verify and decode read it.
        #expect(TypedStreamCommand.run(["verify", folder + "/document.typedstream"]).exitCode == .success)
        let tree = TypedStreamCommand.run(["decode", folder + "/document.typedstream"]).standardOutput
        #expect(tree.contains("Model v0 : NSObject v0"))
        #expect(tree.contains("\"{?=ffff}\" {"))
    }

    @Test(arguments: [
        (["model"], "missing argument <VERB>"),
        (["model", "frob", "x"], "unknown verb 'frob'"),
        (["model", "delete", "x"], "'model delete' needs <DIR> <NAME>"),
        (["model", "list", "x", "y"], "unexpected argument 'y'"),
        (["model", "list", "x", "--para", "1"], "'--para' applies only to 'model add'"),
        (["model", "add", "x", "--to", "keyed"], "'--to' applies only to 'model export'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = TypedStreamCommand.run(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func theCommandLineRefusesInfiniteRectsAndEscapesEchoedNames() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(TypedStreamCommand.run(["model", "new", folder, "--empty"]).exitCode == .success)
        let infinite = TypedStreamCommand.run(["model", "add", folder, "--name", "r", "--rect", "0,0,0,1e39"])
        #expect(infinite.exitCode == .usage)
        #expect(infinite.standardError == "model: --rect: height '1e39' is not a finite 32-bit float (magnitude at most 3.4028235e+38)\n")
        let added = TypedStreamCommand.run(["model", "add", folder, "--name", "a\u{1B}]0;title\u{7}"])
        #expect(added.exitCode == .success)
        #expect(added.standardOutput == "added 'a\\u{1b}]0;title\\u{7}' (model 0)\n")
        #expect(added.standardError == "")
        let undone = TypedStreamCommand.run(["model", "undo", folder])
        #expect(undone.standardOutput == "undid add 'a\\u{1b}]0;title\\u{7}'\n")
    }
}
