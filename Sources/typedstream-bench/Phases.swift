@_spi(Benchmark) import TypedStream
import TypedStreamFoundation

/// What the bench measures on each input.
enum Phase: String, CaseIterable, Sendable {
    /// `TokenReader.scanToEnd()`: the wire alone, every check, no tokens kept.
    case scan
    /// ``BareScan``: the ceiling the scan is measured against — where every value ends, no
    /// tokens, tables or checks but the buffer's end.
    case bare
    /// `ArchiveIndex(bytes:)`: bytes → checked, compact object graph over the input.
    case index
    /// `ArchiveIndex.write()` of an index built beforehand: every token re-read and re-encoded.
    case indexWrite = "index-write"
    /// `ArchiveReader.read`: bytes → lossless archive graph.
    case graph
    /// `Unarchiver` with the Foundation codecs → root object.
    case typed
    /// Typed decode, then `naturalValue(of:)` of the root.
    case natural
    /// `ArchiveWriter.write` of a graph read beforehand (the read is not timed).
    case encode
    /// `Archiver` encoding the typed root decoded beforehand (the decode is not timed): the
    /// encode that matches `typed`.
    case archive
    /// Read the graph, write it back, compare with the input.
    case verify

    /// The one-line meaning, for the report.
    var summary: String {
        switch self {
        case .scan: "TokenReader.scanToEnd(): every token read and checked, none kept"
        case .bare: "BareScan (the bench's own, the ceiling for scan): finds where every value ends — no tokens, no object table, no checks but the buffer's end"
        case .index: "ArchiveIndex(bytes:): bytes → checked object graph index (values read on access)"
        case .indexWrite: "ArchiveIndex.write() (index built before timing): every token re-read and encoded anew"
        case .graph: "ArchiveReader.read (bytes → archive graph)"
        case .typed: "Unarchiver(bytes:registry:).decodeRootObject() with the Foundation codecs + Model"
        case .natural: "typed decode + naturalValue(of: root)"
        case .encode: "ArchiveWriter.write(graph) (graph read before timing)"
        case .archive: "Archiver.archivedBytes(withRootObject:) of the typed root (decoded before timing), checked equal to the input"
        case .verify: "ArchiveReader.read + ArchiveWriter.write + byte compare"
        }
    }
}

/// The archives of one input and whatever a phase needs prepared before timing.
final class Workload {
    let archives: [[UInt8]]
    private var graphs: [Archive] = []
    private var indexes: [ArchiveIndex] = []
    private var roots: [AnyObject?] = []

    init(archives: [[UInt8]]) {
        self.archives = archives
    }

    /// Does the untimed preparation `phase` needs (the graphs `encode` writes).
    func prepare(_ phase: Phase) throws {
        if phase == .encode {
            graphs = try archives.map { try ArchiveReader.read($0) }
        }
        if phase == .archive {
            var compiled = CompiledTypeStrings()
            roots = try archives.map { try Unarchiver(bytes: $0, registry: BenchRegistry.typed, compiled: &compiled).decodeRootObject() }
        }
        if phase == .indexWrite {
            var compiled = CompiledTypeStrings()
            indexes = try archives.map { try ArchiveIndex(bytes: $0, compiled: &compiled) }
        }
    }

    /// Runs `phase` once over every archive; returns a number derived from the work so none of
    /// it can be optimised away.
    func run(_ phase: Phase) throws -> Int {
        var check = 0
        // Many small archives share their type strings: each reader starts with those the
        // previous one compiled.
        var compiled = CompiledTypeStrings()
        switch phase {
        case .scan:
            for bytes in archives {
                var reader = TokenReader(bytes: bytes, compiled: compiled)
                check &+= try reader.scanToEnd().checksum
                compiled = reader.compiledTypeStrings
            }
        case .bare:
            var bareCompiled = BareScan.Compiled()
            for bytes in archives { check &+= try BareScan.scan(bytes, compiled: &bareCompiled).values }
        case .index:
            for bytes in archives { check &+= try ArchiveIndex(bytes: bytes, compiled: &compiled).slotCount }
        case .indexWrite:
            for index in indexes { check &+= try index.write().count }
        case .graph:
            for bytes in archives { check &+= try ArchiveReader.read(bytes, compiled: &compiled).groups.count }
        case .typed:
            for bytes in archives {
                let root = try Unarchiver(bytes: bytes, registry: BenchRegistry.typed, compiled: &compiled).decodeRootObject()
                check &+= root == nil ? 0 : 1
            }
        case .natural:
            for bytes in archives {
                let root = try Unarchiver(bytes: bytes, registry: BenchRegistry.typed, compiled: &compiled).decodeRootObject()
                switch naturalValue(of: root) {
                case .array(let items): check &+= items.count
                case .attributedString(let text): check &+= text.runs.count
                default: check &+= 1
                }
            }
        case .encode:
            for graph in graphs { check &+= try ArchiveWriter.write(graph).count }
        case .archive:
            for (root, bytes) in zip(roots, archives) {
                let again = try Archiver.archivedBytes(withRootObject: root)
                guard again == bytes else { throw BenchError("archive: the encoded archive differs from the input") }
                check &+= again.count
            }
        case .verify:
            for bytes in archives {
                let again = try ArchiveWriter.write(try ArchiveReader.read(bytes, compiled: &compiled))
                guard again == bytes else { throw BenchError("verify: the re-encoded archive differs from the input") }
                check &+= again.count
            }
        }
        return check
    }
}
