import Foundation
import TypedStream
@testable import TypedStreamFoundation

/// Test helper: decodes whole archives through the class registry and writes them back, and
/// counts how the objects of the AppKit and NeXTSTEP classes were decoded.
enum AppKitCorpus {
    /// The classes this test suite is about, with the Swift type each must decode to.
    static let codecs: [String: AnyObject.Type] = [
        "NSColor": ColorObject.self, "NSFont": FontObject.self, "List": ListObject.self,
        "HashTable": HashTableObject.self, "Storage": StorageObject.self, "StreamTable": StreamTableObject.self,
        "Font": NeXTFontObject.self,
    ]

    /// The result of one decode → encode pass.
    struct Pass {
        var archive: Archive
        var decoder: Unarchiver
        var output: [UInt8]
        /// Class name → number of objects decoded to the expected Swift type.
        var typed: [String: Int] = [:]
        /// Class name → number of objects that stayed generic or decoded to another type.
        var untyped: [String: Int] = [:]
        /// Nested archives found in byte arrays (StreamTable entries, NSData payloads).
        var nested: [[UInt8]] = []
    }

    /// Decodes every top-level group of `bytes` with `registry` (objects typed where registered)
    /// and re-encodes them with an `Archiver` using the archive's header.
    static func pass(_ bytes: [UInt8], registry: ClassRegistry = .foundation) throws -> Pass {
        let archive = try ArchiveReader.read(bytes)
        let decoder = Unarchiver(archive: archive, registry: registry)
        let encoder = Archiver(header: archive.header)
        while decoder.hasMoreGroups {
            let group = try decoder.decodeGroup()
            var objects: [ObjectIdentifier: AnyObject] = [:]
            for value in group.values { try collect(value, decoder, &objects) }
            try encoder.encodeGroup(group, objects: objects)
        }
        var result = Pass(archive: archive, decoder: decoder, output: try encoder.encodedBytes())
        var seen = Set<ObjectIdentifier>()
        for group in archive.groups { for value in group.values { try census(value, decoder, &seen, &result) } }
        return result
    }

    private static func collect(_ value: ArchivedValue, _ decoder: some ObjectDecoder, _ objects: inout [ObjectIdentifier: AnyObject]) throws {
        switch value {
        case .object(let entry?, _): objects[ObjectIdentifier(entry)] = try decoder.object(for: entry)
        case .array(let values), .structure(let values): for v in values { try collect(v, decoder, &objects) }
        default: break
        }
    }

    private static func census(_ value: ArchivedValue, _ decoder: some ObjectDecoder, _ seen: inout Set<ObjectIdentifier>, _ result: inout Pass) throws {
        switch value {
        case .object(let entry?, _):
            guard seen.insert(ObjectIdentifier(entry)).inserted else { return }
            if let expected = codecs[entry.className] {
                let instance = try decoder.object(for: entry)
                if type(of: instance) == expected { result.typed[entry.className, default: 0] += 1 }
                else { result.untyped[entry.className, default: 0] += 1 }
            }
            for group in entry.groups { for v in group.values { try census(v, decoder, &seen, &result) } }
        case .array(let values), .structure(let values):
            for v in values { try census(v, decoder, &seen, &result) }
        case .bytes(let payload) where isArchive(payload):
            result.nested.append(Array(payload))
        default:
            break
        }
    }

    /// Whether `bytes` start with a typedstream header.
    static func isArchive(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count > 13, let first = bytes.first, first == 3 || first == 4 else { return false }
        let signature = Array(bytes.dropFirst(2).prefix(11))
        return signature == Array("typedstream".utf8) || signature == Array("streamtyped".utf8)
    }

    /// Every readable `*.typedstream` file of the corpus with its bytes (malformed ones left out),
    /// or nil when the corpus is absent.
    static func files() -> [(name: String, bytes: [UInt8])]? {
        guard let corpus = CorpusFontPlists.corpusDirectory else { return nil }
        var result: [(String, [UInt8])] = []
        for url in CorpusFontPlists.archiveFiles(in: corpus) where !url.lastPathComponent.contains("malformed") {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let relative = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
            result.append((relative, [UInt8](data)))
        }
        return result
    }
}
