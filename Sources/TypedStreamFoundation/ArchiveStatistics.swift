import TypedStream

/// How much of an archive the registered class codecs understand: every object of the graph is
/// decoded and counted as *typed* (a registered codec read it) or *generic* (kept as a
/// ``GenericObject`` because its class is unknown or its version is not understood).
///
/// ```swift
/// let stats = try ArchiveStatistics.compute(archive: archive, registry: .foundation)
/// print("\(stats.typed)/\(stats.objects) typed (\(Int(stats.typedShare * 100)) %)")
/// ```
public struct ArchiveStatistics: Sendable {
    /// The counts for one class name.
    public struct ClassCount: Hashable, Sendable {
        /// Objects of this class decoded by a registered codec.
        public var typed = 0
        /// Objects of this class kept generic.
        public var generic = 0

        /// Creates counts.
        public init(typed: Int = 0, generic: Int = 0) {
            self.typed = typed
            self.generic = generic
        }
    }

    /// Distinct objects in the graph (each object-table entry once).
    public var objects = 0
    /// Objects decoded by a registered codec.
    public var typed = 0
    /// Objects kept generic.
    public var generic = 0
    /// The counts per class name (the object's own class).
    public var perClass: [String: ClassCount] = [:]
    /// The unarchiver's warnings (for example an unsupported class version).
    public var warnings: [String] = []

    /// Creates empty statistics.
    public init() {}

    /// `typed / objects`, or 1 for an archive without objects.
    public var typedShare: Double { objects == 0 ? 1 : Double(typed) / Double(objects) }

    /// Decodes every object of `archive` with `registry` and counts typed and generic ones.
    /// Throws ``CoderError`` when a codec fails on an object (other than an unsupported
    /// version, which keeps the object generic and adds a warning).
    public static func compute(archive: Archive, registry: ClassRegistry = .foundation, options: Unarchiver.Options = Unarchiver.Options()) throws(CoderError) -> ArchiveStatistics {
        let decoder = Unarchiver(archive: archive, registry: registry, options: options)
        var statistics = ArchiveStatistics()
        var seen: Set<ObjectIdentifier> = []
        // An explicit stack: the graph can be deeper than the Swift stack is tall.
        var pending: [ArchivedValue] = archive.groups.reversed().flatMap { $0.values.reversed() }
        while let value = pending.popLast() {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { continue }
                let instance = try decoder.object(for: entry)
                let isGeneric = instance is GenericObject
                statistics.objects += 1
                if isGeneric { statistics.generic += 1 } else { statistics.typed += 1 }
                statistics.perClass[entry.className, default: ClassCount()].typed += isGeneric ? 0 : 1
                statistics.perClass[entry.className, default: ClassCount()].generic += isGeneric ? 1 : 0
                pending.append(contentsOf: entry.groups.reversed().flatMap { $0.values.reversed() })
            case .array(let values), .structure(let values):
                pending.append(contentsOf: values.reversed())
            default:
                break
            }
        }
        statistics.warnings = decoder.warnings
        return statistics
    }

    /// Reads `bytes` and computes the statistics. Throws ``CoderError`` (`malformed` for bad bytes).
    public static func compute(bytes: [UInt8], registry: ClassRegistry = .foundation, options: Unarchiver.Options = Unarchiver.Options()) throws(CoderError) -> ArchiveStatistics {
        try compute(decoding: Unarchiver(bytes: bytes, registry: registry, options: options))
    }

    /// Decodes every top-level group `decoder` has left and computes the statistics of the
    /// objects it decoded. The decoded objects stay with `decoder` (a caller about to end its
    /// process can keep them rather than free them). Throws ``CoderError`` from the codecs.
    public static func compute(decoding decoder: Unarchiver) throws(CoderError) -> ArchiveStatistics {
        // Counted by the decoder as it makes them; the items themselves need not be kept.
        while try decoder.decodeNextTopLevelItem() != nil {}
        var statistics = ArchiveStatistics()
        // Counted per class by the decoder; a name is made once per class.
        for count in decoder.decodedObjectCounts() {
            let text = String(decoding: count.className, as: UTF8.self)
            statistics.perClass[text, default: ClassCount()].typed += count.decoded - count.generic
            statistics.perClass[text, default: ClassCount()].generic += count.generic
        }
        for count in statistics.perClass.values {
            statistics.typed += count.typed
            statistics.generic += count.generic
        }
        statistics.objects = statistics.typed + statistics.generic
        statistics.warnings = decoder.warnings
        return statistics
    }
}
