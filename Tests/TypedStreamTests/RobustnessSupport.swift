import Foundation
import TypedStream

/// Paths and file access for the robustness tests (catalogue, limits, mutations).
enum RobustnessSupport {
    /// The package root, found from this file's path (Tests/TypedStreamTests/…).
    static let packageRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// `Samples/malformed` in the package.
    static var malformedDirectory: String { packageRoot + "/Samples/malformed" }

    /// `../shared/corpus` relative to the package root, when it exists.
    static var corpusDirectory: String? {
        let path = packageRoot + "/../shared/corpus"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return path
    }

    /// The names of the entries of a directory.
    static func names(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// The bytes of a file.
    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The typedstream files of the shared corpus (everything but the manifest and readme),
    /// relative paths in sorted order; empty when the corpus is absent.
    static func corpusFiles() -> [String] {
        guard let root = corpusDirectory,
              let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            if !exists || isDirectory.boolValue || relative == "MANIFEST.tsv" || relative == "README.md" { continue }
            files.append(relative)
        }
        return files.sorted()
    }

    /// Reads every token; the error if reading fails.
    static func readAll(_ bytes: [UInt8], limits: DecodingLimits = .default) -> Result<[Token], WireError> {
        var reader = TokenReader(bytes: bytes, limits: limits)
        do { return .success(try reader.readAll()) } catch { return .failure(error) }
    }
}

extension RobustnessSupport {
    /// The process environment, for test knobs such as seeds.
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
