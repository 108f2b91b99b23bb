import Foundation

/// The real archives written by Apple and NeXT software, kept outside the repository: the folder
/// `shared/corpus` beside the package (`../shared/corpus` from its root), or the folder named by
/// the environment variable `TYPEDSTREAM_CORPUS`.
///
/// Tests that need it carry the condition trait `.enabled(if: SharedCorpus.isAvailable, …)`, so
/// a run without it lists them as skipped. `TYPEDSTREAM_CORPUS=/nonexistent swift test` shows
/// what a fresh clone runs.
public enum SharedCorpus {
    /// The environment variable that overrides the corpus location.
    public static let environmentVariable = "TYPEDSTREAM_CORPUS"

    /// The corpus folder, whether or not it exists.
    public static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path).standardizedFileURL
        }
        return PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/corpus").standardizedFileURL
    }()

    /// Whether ``folder`` exists and is a folder.
    public static let isAvailable: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }()

    /// Why corpus tests are skipped, for their condition traits.
    public static let missingReason = "the real-archive corpus is not at \(folder.path) (put it at ../shared/corpus or set \(environmentVariable))"

    /// The corpus folder when it exists, else `nil`.
    public static var folderIfAvailable: URL? { isAvailable ? folder : nil }

    /// A file or folder inside the corpus.
    public static func url(_ relativePath: String) -> URL { folder.appendingPathComponent(relativePath) }

    /// The bytes of a file inside the corpus.
    public static func bytes(_ relativePath: String) throws -> [UInt8] { Array(try Data(contentsOf: url(relativePath))) }
}
