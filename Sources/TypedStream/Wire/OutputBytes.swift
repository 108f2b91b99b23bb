/// The growing byte buffer a ``TokenWriter`` writes into: a value with the copy semantics of an
/// array, whose stores are inlined into the writer.
///
/// `Array.append` calls the standard library out of line for every piece of a token (a head
/// byte, a length, a text: each a uniqueness test and a capacity test, and a copy for the
/// text), which makes writing cost about twice what reading costs. Here a writer makes room once
/// per token (``reserve(_:)``: one uniqueness test, one capacity test) and then stores bytes
/// straight into the memory.
///
/// Copies share their memory until one of them makes room: that first makes the memory its own
/// (copy on write). The count lives in the value, not the memory, so two copies never see each
/// other's bytes.
struct OutputBytes: @unchecked Sendable {
    /// The memory (bytes `0..<count` written).
    private typealias Storage = PlainMemory<UInt8>

    private var storage: Storage
    /// The number of bytes written.
    private(set) var count = 0
    #if DEBUG
    /// Room made by the last ``reserve(_:)`` and not yet used (kept in debug builds only, for
    /// the assertions of the stores).
    private var reserved = 0
    #endif

    /// The memory of every empty buffer (so that making a writer allocates nothing).
    private static let empty = Storage(capacity: 0)

    /// An empty buffer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        storage = capacity > 0 ? Storage(capacity: capacity) : Self.empty
    }

    /// The bytes written, as an array (a copy).
    var array: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress, count > 0 { target.initialize(from: storage.base, count: count) }
            initialized = count
        }
    }

    /// Makes the memory this buffer's own, with room for `room` more bytes after the count;
    /// the stores that follow may use that room.
    @inline(__always)
    mutating func reserve(_ room: Int) {
        if !isKnownUniquelyReferenced(&storage) || storage.capacity - count < room {
            grow(room)
        }
        #if DEBUG
        reserved = room
        #endif
    }

    /// The room in the memory, written or not.
    var capacity: Int { storage.capacity }

    /// Makes memory of this buffer's own with room for `room` more bytes: twice as much when
    /// the memory is full, as much as before when it is only shared (a copy made before each
    /// change would otherwise double it every time).
    @inline(never)
    private mutating func grow(_ room: Int) {
        let (needed, overflow) = count.addingReportingOverflow(room)
        precondition(!overflow, "output size overflows")
        let full = storage.capacity - count < room
        let capacity = max(needed, full ? 2 * storage.capacity : storage.capacity, 256)
        let grown = Storage(capacity: capacity)
        if count > 0 { grown.base.initialize(from: storage.base, count: count) }
        storage = grown
    }

    /// Drops the bytes after the first `newCount`.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "truncating beyond the bytes written")
        count = newCount
    }

    /// Stores one byte (within the room reserved).
    @inline(__always)
    mutating func store(_ byte: UInt8) {
        #if DEBUG
        assert(reserved >= 1, "store beyond the room reserved")
        #endif
        storage.base[count] = byte
        count &+= 1
        #if DEBUG
        reserved &-= 1
        #endif
    }

    /// Stores the `length` low bytes of `value`: little-endian when `littleEndian`, else
    /// big-endian. It writes eight bytes in one store and keeps `length` of them, so the room
    /// reserved must hold eight.
    @inline(__always)
    mutating func store(_ value: UInt64, length: Int, littleEndian: Bool) {
        #if DEBUG
        assert(length >= 1 && length <= 8 && reserved >= 8, "store beyond the room reserved")
        #endif
        let ordered = littleEndian ? value.littleEndian : (value << (8 &* UInt64(8 &- length))).bigEndian
        UnsafeMutableRawPointer(storage.base + count).storeBytes(of: ordered, as: UInt64.self)
        count &+= length
        #if DEBUG
        reserved &-= length
        #endif
    }

    /// Stores `bytes` (within the room reserved).
    @inline(__always)
    mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) {
        #if DEBUG
        assert(reserved >= bytes.count, "store beyond the room reserved")
        #endif
        if let source = bytes.baseAddress {
            (storage.base + count).initialize(from: source, count: bytes.count)
        }
        count &+= bytes.count
        #if DEBUG
        reserved &-= bytes.count
        #endif
    }
}
