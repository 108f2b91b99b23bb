import Foundation
import TestSupport

/// The shared real-world corpus (``SharedCorpus``) and the package's own
/// `Samples/` folder, read from disk; nothing is copied into the repository.
enum Corpus {
    /// One file: its path relative to its folder and its bytes.
    struct File: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        var description: String { name }
        /// Kept malformed on purpose (`*-malformed*`).
        var isMalformed: Bool { name.contains("-malformed") }
        /// A GNUstep archive, a foreign format.
        var isGNUstep: Bool { name.hasPrefix("gnustep-format/") }
    }

    /// Every corpus file (`*.typedstream` and `*.gsarchive`), sorted by name; `nil` when the
    /// corpus is missing (tests that need it carry `.needsCorpus`).
    static let files: [File]? = {
        guard let folder = SharedCorpus.folderIfAvailable else { return nil }
        return load(folder, extensions: ["typedstream", "gsarchive"])
    }()

    /// Files under `Samples/` in the package, if that folder exists (any extension).
    static let samples: [File] = {
        let samples = PackageRoot.samples
        guard FileManager.default.fileExists(atPath: samples.path) else { return [] }
        return load(samples, extensions: nil)
    }()

    private static func load(_ root: URL, extensions: Set<String>?) -> [File] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [File] = []
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            if let extensions, !extensions.contains(url.pathExtension) { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let path = url.standardizedFileURL.path
            let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent
            found.append(File(name: name, bytes: [UInt8](data)))
        }
        return found.sorted { $0.name < $1.name }
    }
}
