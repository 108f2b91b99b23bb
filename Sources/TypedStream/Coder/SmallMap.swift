/// A map that searches its first few entries in order and hashes only beyond them.
///
/// An encoder's tables of type strings and class names hold a handful of keys for a message
/// body: comparing a key with a few others costs less than hashing it, and a dictionary made
/// per encoder allocated and grew its storage each time (a fifth of encoding one body).
struct SmallMap<Key: Hashable, Value> {
    /// The first ``searchedCount`` entries, in the order they came.
    private var searched: [(key: Key, value: Value)] = []
    /// Every entry after them.
    private var hashed: [Key: Value] = [:]

    /// How many entries are searched before the rest are hashed.
    static var searchedCount: Int { 16 }

    /// An empty map.
    init() {}

    /// The value for `key`, if there is one.
    subscript(key: Key) -> Value? {
        for entry in searched where entry.key == key { return entry.value }
        return hashed.isEmpty ? nil : hashed[key]
    }

    /// Adds `value` for `key`, which the map does not hold yet.
    mutating func insert(_ value: Value, for key: Key) {
        if searched.count < Self.searchedCount {
            searched.append((key, value))
        } else {
            hashed[key] = value
        }
    }
}
