/// The byte order of an archive's multi-byte payloads, decided by its signature.
public enum ByteOrder: String, Hashable, Sendable {
    /// `typedstream`: written on a big-endian host (m68k, PowerPC, SPARC).
    case big
    /// `streamtyped`: written on a little-endian host (x86, ARM).
    case little

    /// The signature bytes that announce this byte order.
    public var signature: [UInt8] {
        switch self {
        case .big: Array("typedstream".utf8)
        case .little: Array("streamtyped".utf8)
        }
    }

    /// The byte order whose signature is `bytes`, if any. (Inlinable, so that a caller in
    /// another module gets it specialized for its collection: the generic version costs about
    /// 17 000 instructions a call, as much as reading a small archive. Contiguous bytes are
    /// compared as two words each way — comparing with a string's `utf8` view takes about 350
    /// instructions a signature, a twentieth of indexing a message body.)
    @inlinable
    public init?(signature bytes: some Collection<UInt8>) {
        if let order = bytes.withContiguousStorageIfAvailable(ByteOrder.init(contiguousSignature:)) {
            guard let order else { return nil }
            self = order
        } else if bytes.elementsEqual("typedstream".utf8) {
            self = .big
        } else if bytes.elementsEqual("streamtyped".utf8) {
            self = .little
        } else {
            return nil
        }
    }

    /// ``init(signature:)`` for bytes in memory.
    @usableFromInline
    init?(contiguousSignature bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 11, let base = bytes.baseAddress else { return nil }
        // The first 8 bytes and the last 8 (overlapping), as little-endian words.
        let raw = UnsafeRawPointer(base)
        let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self))
        switch (head, tail) {
        case (0x7274_7364_6570_7974, 0x6d61_6572_7473_6465): self = .big  // "typedstr", "edstream"
        case (0x7974_6d61_6572_7473, 0x6465_7079_746d_6165): self = .little  // "streamty", "eamtyped"
        default: return nil
        }
    }
}

/// The archive header: streamer version, byte order and system version.
public struct StreamHeader: Hashable, Sendable {
    /// Streamer version 4 (current) or 3 (first NeXTSTEP).
    public var streamerVersion: UInt8
    /// The payload byte order (from the signature).
    public var byteOrder: ByteOrder
    /// The system version (1000 for Mac OS X and later; 82…930 for NeXT).
    public var systemVersion: WireInteger

    /// Creates a header.
    public init(streamerVersion: UInt8 = 4, byteOrder: ByteOrder = .little, systemVersion: WireInteger = .archiverChoice(1000)) {
        self.streamerVersion = streamerVersion
        self.byteOrder = byteOrder
        self.systemVersion = systemVersion
    }

    /// What modern macOS writes: `04 0B "streamtyped" 81 E8 03`.
    public static let apple = StreamHeader()

    /// The length of the signature, always 11.
    public static let signatureLength = 11
}
