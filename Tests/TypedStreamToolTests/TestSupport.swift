import Foundation
@testable import TypedStreamTool
import TestSupport

/// Hand-made archives and helpers shared by the tool tests.
enum Samples {
    /// `@[@YES, @NO]` as NSArchiver writes it (93 bytes; the worked example of the format notes).
    static let arrayWithBool: [UInt8] = {
        var bytes: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        bytes += [0x84, 0x01, 0x40]                                   // type "@"
        bytes += [0x84]                                               // new object #0
        bytes += [0x84, 0x84, 0x07] + Array("NSArray".utf8) + [0x00]  // class #1
        bytes += [0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00] // class #2
        bytes += [0x85]                                               // end of chain
        bytes += [0x84, 0x01, 0x69, 0x02]                             // "i" 2
        bytes += [0x92, 0x84]                                         // "@" new object #3
        bytes += [0x84, 0x84, 0x08] + Array("NSNumber".utf8) + [0x00] // class #4
        bytes += [0x84, 0x84, 0x07] + Array("NSValue".utf8) + [0x00]  // class #5
        bytes += [0x94]                                               // → class #2
        bytes += [0x84, 0x01, 0x2A, 0x84, 0x84, 0x01, 0x63]           // "*" new C string #6 "c"
        bytes += [0x99, 0x01]                                         // "c" 1
        bytes += [0x86]                                               // end #3
        bytes += [0x92, 0x84, 0x96]                                   // "@" new object #7, class → #4
        bytes += [0x98, 0x98]                                         // "*" → C string #6
        bytes += [0x99, 0x00]                                         // "c" 0
        bytes += [0x86, 0x86]                                         // end #7, end #0
        return bytes
    }()

    /// A typedstream header alone: streamer 4, little-endian, system version 1000.
    static let appleHeader: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
}

/// The package root (``PackageRoot``).
let packageRoot = PackageRoot.url

/// The shared corpus folder (``SharedCorpus``), or `nil` when absent.
func corpusFolder() -> URL? { SharedCorpus.folderIfAvailable }

/// Every file under `folder`, sorted by path.
func filesUnder(_ folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var paths: [String] = []
    while let relative = enumerator?.nextObject() as? String {
        let path = folder.path + "/" + relative
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            paths.append(path)
        }
    }
    return paths.sorted()
}

/// A fresh temporary folder, removed when the returned object goes away.
final class TemporaryFolder {
    /// The folder's path.
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "typedstream-tool-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` (sub-folders are created) and returns the full path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let full = path + "/" + name
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs the program in-process.
func run(_ arguments: [String], stdin: [UInt8] = [], terminal: Bool = false) -> CommandResult {
    TypedStreamCommand.run(arguments, standardInput: stdin, errorIsTerminal: terminal)
}

/// Runs the program in-process on `bytes` as its input file (`-`, standard input): its output
/// as text and its exit status.
func run(_ arguments: [String], _ bytes: [UInt8]) -> (String, ExitCode) {
    let result = TypedStreamCommand.run(arguments + ["-"], standardInput: bytes)
    return (result.standardOutput, result.exitCode)
}
