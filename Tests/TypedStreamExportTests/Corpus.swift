import Foundation
import TypedStream
import TestSupport

/// Access to the shared real-archive corpus (``SharedCorpus``), which is never copied into the
/// repository.
enum Corpus {
    /// The corpus folder, or `nil` when it is absent.
    static var folder: URL? { SharedCorpus.folderIfAvailable }

    /// Every typedstream file of the corpus (GNUstep archives and the deliberately malformed
    /// files excluded), as (relative path, bytes), sorted by path.
    static func wellFormedFiles() -> [(name: String, bytes: [UInt8])] {
        guard let folder else { return [] }
        var result: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        for case let relative as String in walker {
            guard relative.hasSuffix(".typedstream"), !relative.contains("malformed"), !relative.hasPrefix("gnustep-format") else { continue }
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(relative).path) else { continue }
            result.append((relative, [UInt8](data)))
        }
        return result.sorted { $0.0 < $1.0 }
    }
}
