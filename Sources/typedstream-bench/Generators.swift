import TypedStream
import TypedStreamFoundation

/// Builds the bench inputs with our own `Archiver`, deterministically: the same seed, kind and
/// size always give the same bytes.
enum Generators {
    /// How many elements the size calibration archives (large enough to average out).
    static func calibrationCount(_ kind: InputKind) -> Int {
        kind == .data ? 4 : 512
    }

    /// One archive of `kind` (not `.blobs`) of about `targetBytes` bytes: the root array's
    /// element count comes from the size of a small calibration archive drawn from the same
    /// sequence, so the first elements of both are the same.
    static func archive(_ kind: InputKind, targetBytes: Int, seed: UInt64) throws -> [UInt8] {
        let calibration = calibrationCount(kind)
        let sample = try archive(kind, count: calibration, seed: seed)
        let perElement = Double(sample.count) / Double(calibration)
        let count = max(1, Int((Double(targetBytes) / perElement).rounded()))
        return count == calibration ? sample : try archive(kind, count: count, seed: seed)
    }

    /// One archive of `kind` whose root array holds `count` elements.
    static func archive(_ kind: InputKind, count: Int, seed: UInt64) throws -> [UInt8] {
        var random = SeededRandom(seed: seed, stream: kind.stream)
        var elements: [AnyObject?] = []
        elements.reserveCapacity(count)
        switch kind {
        case .strings: try fill(&elements, count, StringFactory(), &random)
        case .dicts: try fill(&elements, count, DictionaryFactory(), &random)
        case .attributed, .blobs: try fill(&elements, count, MessageFactory(), &random)
        case .data: try fill(&elements, count, DataFactory(), &random)
        case .models: try fill(&elements, count, ModelFactory(), &random)
        }
        return try Archiver.archivedBytes(withRootObject: ArrayObject(elements, mutable: kind == .models))
    }

    private static func fill(_ elements: inout [AnyObject?], _ count: Int, _ factory: some ItemFactory, _ random: inout SeededRandom) throws {
        var factory = factory
        for _ in 0..<count { elements.append(try factory.make(&random)) }
    }

    /// `count` separate archives, each one iMessage-like attributed string of 100–400 bytes
    /// (messages whose archive falls outside that range are skipped).
    static func blobs(count: Int, seed: UInt64) throws -> [[UInt8]] {
        var random = SeededRandom(seed: seed, stream: InputKind.blobs.stream)
        var factory = MessageFactory()
        var result: [[UInt8]] = []
        result.reserveCapacity(count)
        while result.count < count {
            let bytes = try Archiver.archivedBytes(withRootObject: factory.make(&random))
            if (100...400).contains(bytes.count) { result.append(bytes) }
        }
        return result
    }

    /// The number of literal objects in `bytes` (object-table slots holding an object).
    static func objectCount(_ bytes: [UInt8]) throws -> Int {
        var reader = TokenReader(bytes: bytes)
        while try reader.next() != nil {}
        return reader.objectSlots.reduce(0) { $0 + ($1 == .object ? 1 : 0) }
    }

    /// FNV-1a 64 of `bytes`, for the self-check's digests.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
