import Foundation
import TypedStream
import TestSupport

/// Test helper: finds the corpus and pulls the property-list payloads out of its NSFont objects.
enum CorpusFontPlists {
    /// One payload: the archive it came from, where the raw bytes start, and the bytes.
    struct Sample {
        var file: String
        var offset: Int
        var bytes: [UInt8]
        /// Whether the archive around it is big-endian (`typedstream` rather than `streamtyped`).
        var archiveIsBigEndian: Bool
    }

    /// The shared corpus folder (``SharedCorpus``), or nil when it is absent.
    static var corpusDirectory: URL? { SharedCorpus.folderIfAvailable }

    /// Every `*.typedstream` file below the corpus, sorted by path.
    static func archiveFiles(in corpus: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "typedstream" }
            .sorted { $0.path < $1.path }
    }

    /// Reads tokens until the first wire error (damaged files still give their early fonts) and
    /// returns the raw bytes of every data object (`"i"` length group followed by a `"[Nc]"`
    /// group of that many bytes) written directly inside an NSFont object.
    static func samples(fromArchive bytes: [UInt8], file: String) -> [Sample] {
        let bigEndian = bytes.count > 2 && bytes[2] == UInt8(ascii: "t")
        var reader = TokenReader(bytes: bytes)
        var classNames: [Int: String] = [:]
        // For each open object: its class name (nil until its first class link is read).
        var openObjects: [(className: String?, classKnown: Bool)] = []
        var recent: [TokenKind] = []
        var found: [Sample] = []
        while true {
            let token: Token?
            do { token = try reader.next() } catch { break }
            guard let token else { break }
            switch token.kind {
            case .object(.new):
                openObjects.append((nil, false))
            case .classLink(let link):
                if case .new(let index, let name, _) = link { classNames[index] = name.string }
                if let last = openObjects.indices.last, !openObjects[last].classKnown {
                    switch link {
                    case .new(_, let name, _): openObjects[last] = (name.string, true)
                    case .reference(let index, _): openObjects[last] = (classNames[index], true)
                    case .null: openObjects[last] = (nil, true)
                    }
                }
            case .endOfObject:
                if !openObjects.isEmpty { openObjects.removeLast() }
            case .rawBytes(let slice):
                if openObjects.last?.className == "NSFont", recent.count >= 3,
                   case .typeString(let lengthType) = recent[recent.count - 3], lengthType.string == "i",
                   case .integer(let length) = recent[recent.count - 2], length.value == Int64(slice.count),
                   case .typeString(let arrayType) = recent[recent.count - 1], arrayType.string.hasPrefix("[") {
                    found.append(Sample(file: file, offset: token.start, bytes: Array(slice), archiveIsBigEndian: bigEndian))
                }
            default:
                break
            }
            recent.append(token.kind)
            if recent.count > 3 { recent.removeFirst() }
        }
        return found
    }

    /// Every NSFont payload in the corpus, or nil when the corpus is absent.
    static func all() -> [Sample]? {
        guard let corpus = corpusDirectory else { return nil }
        var result: [Sample] = []
        for url in archiveFiles(in: corpus) {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            result += samples(fromArchive: [UInt8](data), file: url.lastPathComponent)
        }
        return result
    }
}
