import Foundation
import Testing
@testable import TypedStreamTool

/// `FileWalker` lists a folder tree as `verify -r` and `convert -r` take it: files sorted by name
/// at every level with their sizes, hidden entries left out, symbolic links to files followed,
/// and everything else reported as skipped with its reason.
@Suite struct FileWalkerTests {
    @Test func filesInOrderWithSizes() throws {
        let folder = try TemporaryFolder()
        try folder.write("b.bin", [1, 2, 3])
        try folder.write("a/z.bin", [])
        try folder.write("a/y/x.bin", Array(repeating: 7, count: 70_000))
        try folder.write("c.bin", [9])
        let listing = FileWalker.walk(folder.path)
        #expect(listing.files.map(\.path) == ["a/y/x.bin", "a/z.bin", "b.bin", "c.bin"].map { folder.path + "/" + $0 })
        #expect(listing.files.map(\.size) == [70_000, 0, 3, 1])
        #expect(listing.skipped.isEmpty)
    }

    @Test func trailingSlashGivesTheSamePaths() throws {
        let folder = try TemporaryFolder()
        try folder.write("one.bin", [1])
        #expect(FileWalker.walk(folder.path + "/").files.map(\.path) == [folder.path + "/one.bin"])
    }

    @Test func hiddenEntriesLeftOutSilently() throws {
        let folder = try TemporaryFolder()
        try folder.write(".hidden", [1])
        try folder.write(".git/objects/file", [2])
        try folder.write("seen.bin", [3])
        let listing = FileWalker.walk(folder.path)
        #expect(listing.files.map(\.path) == [folder.path + "/seen.bin"])
        #expect(listing.skipped.isEmpty)
    }

    @Test func linksPipesAndUnreadableFolders() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("real/file.bin", [1, 2])
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.path + "/link-to-file", withDestinationPath: target)
        try manager.createSymbolicLink(atPath: folder.path + "/link-to-folder", withDestinationPath: folder.path + "/real")
        try manager.createSymbolicLink(atPath: folder.path + "/link-broken", withDestinationPath: folder.path + "/nowhere")
        #expect(mkfifo(folder.path + "/pipe", 0o600) == 0)
        let listing = FileWalker.walk(folder.path)
        #expect(listing.files.map(\.path) == ["link-to-file", "real/file.bin"].map { folder.path + "/" + $0 })
        #expect(listing.files.map(\.size) == [2, 2])
        #expect(listing.skipped.map(\.path) == ["link-broken", "link-to-folder", "pipe"].map { folder.path + "/" + $0 })
        #expect(listing.skipped.map(\.reason) == ["broken symbolic link", "symbolic link to a folder, not followed", "not a regular file"])
    }

    @Test func namesThatAreNotUTF8AreSkippedWithTheReason() throws {
        let folder = try TemporaryFolder()
        try folder.write("fine.bin", [1])
        // "caf\xE9.bin": Latin-1, not UTF-8.
        var name = Array((folder.path + "/caf").utf8).map { CChar(bitPattern: $0) }
        name += [CChar(bitPattern: 0xE9)] + Array(".bin".utf8).map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(name, O_CREAT | O_WRONLY, 0o600)
        #expect(descriptor >= 0)
        close(descriptor)
        let listing = FileWalker.walk(folder.path)
        #expect(listing.files.map(\.path) == [folder.path + "/fine.bin"])
        #expect(listing.skipped.map(\.path) == [folder.path + "/caf\u{FFFD}.bin"])
        #expect(listing.skipped.map(\.reason) == ["the file name is not UTF-8, which this tool cannot open"])
    }

    @Test func missingFolderIsSkippedWithTheSystemsReason() {
        let path = NSTemporaryDirectory() + "typedstream-no-such-folder-" + UUID().uuidString
        let listing = FileWalker.walk(path)
        #expect(listing.files.isEmpty)
        #expect(listing.skipped.map(\.path) == [path])
        #expect(listing.skipped.first?.reason == "cannot list the folder: No such file or directory")
    }
}
