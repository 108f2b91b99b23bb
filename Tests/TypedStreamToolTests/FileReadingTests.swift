import Foundation
import Testing
@testable import TypedStreamTool

/// `FileReading` gives back every byte of a file, whatever its size against its read buffer
/// (a small file is read into a buffer of about its size, at least 4 KiB; a large one 64 KiB at a time),
/// and of a pipe, whose size it cannot know.
@Suite struct FileReadingTests {
    static let sizes = [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 200_003]

    /// Deterministic bytes of `count`, different at every position within a page.
    static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    @Test(arguments: sizes)
    func filesReadWhole(size: Int) throws {
        let folder = try TemporaryFolder()
        let expected = Self.bytes(size)
        let path = try folder.write("file-\(size).bin", expected)
        #expect(try FileReading.readFile(atPath: path) == expected)
    }

    @Test(arguments: [0, 1, 70_001])
    func pipesReadWhole(size: Int) throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let expected = Self.bytes(size)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = Thread {
            expected.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    guard let base = raw.baseAddress else { break }
                    let written = write(writeEnd, base + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        let read = try FileReading.readAll(descriptor: readEnd, path: "pipe")
        close(readEnd)
        #expect(read == expected)
    }

    @Test func aFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        #expect(throws: FileReadError.self) { try FileReading.readFile(atPath: folder.path) }
    }
}
