import TypedStream

/// Decodes an archive and encodes it again; `verify` compares the result with the input.
///
/// This is the **single** place that decides what "round trip" means for the tool. Today it
/// goes through the wire layer (``TokenReader`` → ``TokenWriter``); when the archive-graph layer
/// lands, only this function changes (the graph's errors should then conform to
/// ``LocatedError`` so `verify` can report their offsets).
///
/// Throws the reader's or writer's error (``WireError``, a ``LocatedError``) on malformed input.
public func roundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
    var reader = TokenReader(bytes: bytes)
    let tokens = try reader.readAll()
    var writer = TokenWriter(capacity: bytes.count)
    try writer.write(tokens)
    return writer.bytes
}

/// An error that knows the byte offset where the input went wrong and why. `verify` and other
/// subcommands print such errors as `offset 0x1a3: reason`.
public protocol LocatedError: Error {
    /// The byte offset in the input.
    var offset: Int { get }
    /// A human explanation.
    var reason: String { get }
}

extension WireError: LocatedError {}
