/// One of N stable parts of a run, `--shard I/N`: shards are numbered from 1 ("shard I of N"),
/// and a key — a record's id, a batch file's relative path — belongs to shard I when
/// `FNV-1a-64(key's bytes) mod N = I − 1`. The hash is fixed (64-bit FNV-1a: offset basis
/// `0xcbf29ce484222325`, prime `0x100000001b3`, over the key's UTF-8 bytes), never Swift's seeded
/// `Hasher`, so every version of the program on every platform splits the same input the same
/// way, and N processes or machines that run shards 1…N between them see every key exactly once.
///
/// ```swift
/// let shard = Shard(argument: "2/4")!      // the second of four
/// shard.contains(Array("1234".utf8)[...])  // whether record 1234 is this shard's
/// ```
struct Shard: Sendable, Hashable, ArgumentValue {
    /// Which shard, from 1 to ``count``.
    let number: Int
    /// How many shards the run is split into.
    let count: Int

    /// Shard `number` of `count`, or `nil` unless `1 ≤ number ≤ count`.
    init?(number: Int, of count: Int) {
        guard count >= 1, (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
    }

    /// Parses `I/N`: two decimal numbers with `1 ≤ I ≤ N` (no sign, no spaces).
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let number = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(number: number, of: count)
    }

    /// What `--shard` takes, for the usage error.
    static var expectation: String { "I/N, two whole numbers with 1 ≤ I ≤ N (shards are numbered from 1: 1/3, 2/3, 3/3)" }

    /// `I/N`.
    var text: String { "\(number)/\(count)" }

    /// 64-bit FNV-1a of `bytes`.
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The shard (from 1) of `count` that the key `bytes` belongs to.
    static func number<Bytes: Sequence<UInt8>>(of bytes: Bytes, count: Int) -> Int {
        Int(hash(bytes) % UInt64(count)) + 1
    }

    /// Whether the key `bytes` belongs to this shard.
    func contains<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        Self.number(of: bytes, count: count) == number
    }

    /// The items of a batch that belong to this shard, in their order: each is keyed by
    /// ``BatchItem/shardKey``.
    func select(_ items: [BatchItem]) -> [BatchItem] {
        items.filter { contains($0.shardKey.utf8) }
    }
}

extension BatchItem {
    /// What `--shard` hashes for this file: its path under the folder argument it was found in
    /// (`sub/x.typedstream` for `corpus/sub/x.typedstream` of `-r corpus`, so machines that
    /// mount the folder in different places split it alike), or the path as given for a FILE
    /// argument (`-` for standard input).
    var shardKey: String {
        guard let root, path != root else { return path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
