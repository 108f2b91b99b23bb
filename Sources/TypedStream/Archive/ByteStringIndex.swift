/// An index of byte strings by content: for each distinct text, the first slot (a number the
/// caller gives, such as a shared-string slot) filed with it. One array of buckets, each the
/// text's hash and its slot, probed in order; a text is hashed once, its bytes at a time, with
/// the standard library's per-process seeded hasher (so crafted input cannot make lookups
/// collide), and compared with a filed text only when their hashes agree. Growing the table
/// moves buckets by their stored hash without reading a text again.
///
/// A `Dictionary` keyed by `ArraySlice<UInt8>` hashes byte by byte, again at every growth, and
/// holds 40 bytes per entry; this holds 8 per bucket at most half full.
///
/// ```swift
/// var texts: [ArraySlice<UInt8>] = []
/// var index = ByteStringIndex()
/// for word in ["a", "b", "a"] {
///     let text = ArraySlice(word.utf8)
///     let first = index.firstSlot(of: text, filing: texts.count) { texts[$0] }
///     texts.append(text)   // first: 0, 1, 0
/// }
/// ```
public struct ByteStringIndex: Sendable {
    /// Zero for an empty bucket, else the text's 32-bit hash above its slot plus one.
    private var buckets: [UInt64] = []
    /// How many texts are filed.
    public private(set) var count = 0

    /// An empty index.
    public init() {}

    /// The slot filed for a text equal to `text`, if any. `textOf` gives the text of a filed slot.
    public func slot(of text: ArraySlice<UInt8>, textOf: (Int) -> ArraySlice<UInt8>) -> Int? {
        guard count > 0 else { return nil }
        return probe(text, hash: Self.hash(text), textOf: textOf).filed
    }

    /// The slot filed for a text equal to `text`; if there is none, files `slot` for it and
    /// returns `slot`. `textOf` gives the text of a filed slot. Slots are below 2³² − 1 (each is
    /// an entry the caller holds in memory).
    public mutating func firstSlot(of text: ArraySlice<UInt8>, filing slot: Int, textOf: (Int) -> ArraySlice<UInt8>) -> Int {
        if (count + 1) * 2 > buckets.count { grow() }
        let hash = Self.hash(text)
        let found = probe(text, hash: hash, textOf: textOf)
        if let filed = found.filed { return filed }
        precondition(slot >= 0 && slot < Int(UInt32.max), "ByteStringIndex: slot \(slot) out of range")
        buckets[found.bucket] = UInt64(hash) << 32 | UInt64(slot + 1)
        count += 1
        return slot
    }

    /// Follows the buckets from `hash`'s own (there are some, with at least one empty): the
    /// slot filed for `text`, or the empty bucket where it would go.
    private func probe(_ text: ArraySlice<UInt8>, hash: UInt32, textOf: (Int) -> ArraySlice<UInt8>) -> (filed: Int?, bucket: Int) {
        let mask = buckets.count - 1
        var bucket = Int(hash) & mask
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return (nil, bucket) }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                let filed = Int(entry & 0xFFFF_FFFF) - 1
                if textOf(filed) == text { return (filed, bucket) }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Doubles the buckets (16 at first), moving each filed text by its stored hash.
    private mutating func grow() {
        let old = buckets
        buckets = [UInt64](repeating: 0, count: max(16, old.count * 2))
        let mask = buckets.count - 1
        for entry in old where entry != 0 {
            var bucket = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = entry
        }
    }

    /// The seeded hash of `text`'s bytes, folded to 32 bits.
    private static func hash(_ text: ArraySlice<UInt8>) -> UInt32 {
        var hasher = Hasher()
        text.withUnsafeBytes { hasher.combine(bytes: $0) }
        let full = UInt64(UInt(bitPattern: hasher.finalize()))
        return UInt32(truncatingIfNeeded: full ^ (full >> 32))
    }
}
