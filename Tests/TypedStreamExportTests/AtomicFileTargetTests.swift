import Foundation
import Testing
import TypedStreamExport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``AtomicFile`` does with the destinations that are not plain files, and with the
/// temporary files of writes that failed or were killed.
@Suite struct AtomicFileTargetTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "atomic-target-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    struct Interrupted: Error {}

    @Test func aFailureMidStreamLeavesTheOldFileAndNoTemporary() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: path) { out in
                out.append([UInt8](repeating: 0x41, count: 200_000))
                out.flush()
                throw Interrupted()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try Self.names(folder) == ["out.json"])
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try AtomicFile.write(Array("old".utf8), to: folder + "/real/target")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "real/target")
        try AtomicFile.write(Array("new".utf8), to: folder + "/link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link") == "real/target")
        #expect(try String(contentsOfFile: folder + "/real/target", encoding: .utf8) == "new")
        #expect(try Self.names(folder + "/real") == ["target"])
    }

    /// A FIFO (like a device) is written in place: it stays a FIFO and its reader gets the bytes.
    @Test func aFIFOIsWrittenDirectly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let received = Received()
        let reader = Thread {
            let descriptor = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 256)
            while descriptor >= 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.bytes += buffer[0..<count]
            }
            close(descriptor)
            received.done.signal()
        }
        reader.start()
        try AtomicFile.write(Array("through the pipe".utf8), to: fifo)
        received.done.wait()
        #expect(received.bytes == Array("through the pipe".utf8))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try Self.names(folder) == ["fifo"])
    }

    final class Received: @unchecked Sendable {
        var bytes: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aFolderIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Array("x".utf8), to: folder + "/sub") }
        do { try AtomicFile.write(Array("x".utf8), to: folder + "/sub") } catch { #expect(error.description == "cannot write '\(folder)/sub': it is a folder") }
        #expect(try Self.names(folder) == ["sub"])
    }

    /// Temporary files a killed run left for this destination (older than this process's
    /// first write) are removed by the next write; nothing else is.
    @Test func staleTemporaryFilesOfTheSameDestinationAreRemoved() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hourAgo = Date().addingTimeInterval(-3600), inAnHour = Date().addingTimeInterval(3600)
        let files: [(String, Date)] = [
            (".out.json.tmp-Ab12Z9", hourAgo),   // stale: removed
            (".out.json.tmp-Ab12Z", hourAgo),    // five letters: not ours
            (".out.json.tmp-Ab12Z9x", hourAgo),  // seven: not ours
            (".other.json.tmp-Ab12Z9", hourAgo), // another destination's
            (".out.json.tmp-Cd34Y8", inAnHour),  // newer than this process's first write
            ("out.json.tmp-Ab12Z9", hourAgo),    // not hidden
        ]
        for (name, date) in files {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)))
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: folder + "/" + name)
        }
        try AtomicFile.write(Array("new".utf8), to: folder + "/out.json")
        #expect(try Self.names(folder) == [".other.json.tmp-Ab12Z9", ".out.json.tmp-Ab12Z", ".out.json.tmp-Ab12Z9x",
                                           ".out.json.tmp-Cd34Y8", "out.json", "out.json.tmp-Ab12Z9"])
    }

    @Test func createFoldersMakesEveryLevelAndSaysWhyNot() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.createFolders(folder + "/a//b/c")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder + "/a/b/c", isDirectory: &isFolder) && isFolder.boolValue)
        try AtomicFile.write(Array("x".utf8), to: folder + "/file")
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.createFolders(folder + "/file/sub") }
        do { try AtomicFile.createFolders(folder + "/file/sub") } catch { #expect(error.description == "cannot write '\(folder)/file': a file of that name is in the way; choose another output folder") }
    }
}
