import TypedStream
import TypedStreamFoundation

/// What the bench measures on each input.
enum Phase: String, CaseIterable, Sendable {
    /// `TokenReader.next()` until the end: the wire alone.
    case scan
    /// `ArchiveReader.read`: bytes → lossless archive graph.
    case graph
    /// `Unarchiver` with the Foundation codecs → root object.
    case typed
    /// Typed decode, then `naturalValue(of:)` of the root.
    case natural
    /// `ArchiveWriter.write` of a graph read beforehand (the read is not timed).
    case encode
    /// Read the graph, write it back, compare with the input.
    case verify

    /// The one-line meaning, for the report.
    var summary: String {
        switch self {
        case .scan: "TokenReader.next() loop over the bytes"
        case .graph: "ArchiveReader.read (bytes → archive graph)"
        case .typed: "Unarchiver(bytes:registry:).decodeRootObject() with the Foundation codecs + Model"
        case .natural: "typed decode + naturalValue(of: root)"
        case .encode: "ArchiveWriter.write(graph) (graph read before timing)"
        case .verify: "ArchiveReader.read + ArchiveWriter.write + byte compare"
        }
    }
}

/// The archives of one input and whatever a phase needs prepared before timing.
final class Workload {
    let archives: [[UInt8]]
    private var graphs: [Archive] = []

    init(archives: [[UInt8]]) {
        self.archives = archives
    }

    /// Does the untimed preparation `phase` needs (the graphs `encode` writes).
    func prepare(_ phase: Phase) throws {
        if phase == .encode {
            graphs = try archives.map { try ArchiveReader.read($0) }
        }
    }

    /// Runs `phase` once over every archive; returns a number derived from the work so none of
    /// it can be optimised away.
    func run(_ phase: Phase) throws -> Int {
        var check = 0
        switch phase {
        case .scan:
            for bytes in archives {
                var reader = TokenReader(bytes: bytes)
                check &+= try reader.scanToEnd().checksum
            }
        case .graph:
            for bytes in archives { check &+= try ArchiveReader.read(bytes).groups.count }
        case .typed:
            for bytes in archives {
                let root = try Unarchiver(bytes: bytes, registry: BenchRegistry.typed).decodeRootObject()
                check &+= root == nil ? 0 : 1
            }
        case .natural:
            for bytes in archives {
                let root = try Unarchiver(bytes: bytes, registry: BenchRegistry.typed).decodeRootObject()
                switch naturalValue(of: root) {
                case .array(let items): check &+= items.count
                case .attributedString(let text): check &+= text.runs.count
                default: check &+= 1
                }
            }
        case .encode:
            for graph in graphs { check &+= try ArchiveWriter.write(graph).count }
        case .verify:
            for bytes in archives {
                let again = try ArchiveWriter.write(try ArchiveReader.read(bytes))
                guard again == bytes else { throw BenchError("verify: the re-encoded archive differs from the input") }
                check &+= again.count
            }
        }
        return check
    }
}
