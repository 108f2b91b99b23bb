import Foundation
import TypedStream
import TestSupport

/// Paths and file access for the robustness tests (catalogue, limits, mutations).
enum RobustnessSupport {
    /// `Samples/malformed` in the package.
    static var malformedDirectory: String { PackageRoot.path + "/Samples/malformed" }

    /// The shared corpus folder (``SharedCorpus``), when it exists.
    static var corpusDirectory: String? { SharedCorpus.folderIfAvailable?.path }

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
