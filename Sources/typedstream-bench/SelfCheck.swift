import ModelDocument
import TypedStream
import TypedStreamFoundation

/// `--self-check`: every generator twice at a small size — same bytes, a byte-identical round
/// trip through the graph, a typed decode, the bare scan finding the objects the token scan
/// finds (and throwing, never reading past the end, on every prefix of a blob) — and a digest
/// per kind (compared across processes by the tests, which catches anything that depends on
/// hashing or addresses).
enum SelfCheck {
    /// Prints one line per kind; returns whether everything held.
    static func run(seed: UInt64) -> Bool {
        var allGood = true
        print("self-check seed \(seed)")
        for kind in InputKind.allCases {
            do {
                let first: [[UInt8]], second: [[UInt8]]
                if kind == .blobs {
                    first = try Generators.blobs(count: 200, seed: seed)
                    second = try Generators.blobs(count: 200, seed: seed)
                } else {
                    first = [try Generators.archive(kind, targetBytes: 64_000, seed: seed)]
                    second = [try Generators.archive(kind, targetBytes: 64_000, seed: seed)]
                }
                guard first == second else { throw BenchError("two generations differ") }
                var objects = 0
                for bytes in first {
                    let graph = try ArchiveReader.read(bytes)
                    guard try ArchiveWriter.write(graph) == bytes else { throw BenchError("graph round trip differs") }
                    guard try Unarchiver(bytes: bytes, registry: BenchRegistry.typed).decodeRootObject() != nil else {
                        throw BenchError("typed decode gave nil")
                    }
                    objects += try Generators.objectCount(bytes)
                    try checkBareScan(bytes, everyPrefix: kind == .blobs && bytes == first.first)
                    if kind == .models { try checkModelGroups(graph) }
                }
                let total = first.reduce(0) { $0 + $1.count }
                if kind == .blobs, let outside = first.first(where: { !(100...400).contains($0.count) }) {
                    throw BenchError("a blob of \(outside.count) bytes")
                }
                let digest = Generators.digest(first.flatMap { $0 })
                print("self-check \(kind.rawValue) archives=\(first.count) bytes=\(total) objects=\(objects) fnv1a=\(String(digest, radix: 16)) ok")
            } catch {
                allGood = false
                print("self-check \(kind.rawValue) FAILED: \(error)")
            }
        }
        return allGood
    }

    /// The bare scan reads `bytes` to the end and finds the objects the token scan finds; with
    /// `everyPrefix`, every shorter prefix makes it throw or stop, without reading past the end.
    private static func checkBareScan(_ bytes: [UInt8], everyPrefix: Bool) throws {
        var reader = TokenReader(bytes: bytes)
        let summary = try reader.scanToEnd()
        let bare = try BareScan.scan(bytes)
        guard bare.objects == summary.objects else {
            throw BenchError("the bare scan found \(bare.objects) objects, the token scan \(summary.objects)")
        }
        if everyPrefix {
            for length in 0..<bytes.count { _ = try? BareScan.scan(Array(bytes[..<length])) }
        }
    }

    /// Every element of the models root is a `Model` v0 : `NSObject` v0 with the groups of the
    /// current document version.
    private static func checkModelGroups(_ graph: Archive) throws {
        guard case .object(let root?, _) = graph.groups.first?.values.first else { throw BenchError("no root object") }
        guard root.className == "NSMutableArray" else { throw BenchError("root is \(root.className)") }
        for group in root.groups.dropFirst() {
            guard case .object(let model?, _) = group.values.first else { throw BenchError("nil element") }
            let chain = model.archivedClass.chain.map { "\($0.nameText) v\($0.version)" }
            guard chain == ["Model v0", "NSObject v0"] else { throw BenchError("Model chain \(chain)") }
            let types = model.groups.map(\.typeText)
            guard types == DocumentVersion.current.groupTypes else { throw BenchError("Model groups \(types)") }
        }
    }
}
