import TypedStream

/// How deep a round trip goes before the archive is written again.
public enum RoundTripDepth: Sendable {
    /// The checked reader (``ArchiveIndex``: every token read and checked, references and
    /// tables resolved), then every token encoded anew by ``TokenWriter`` from its decoded value
    /// and recorded wire decisions. What `verify` does by default: it proves the reader and the
    /// writer lose nothing, at the reader's speed.
    case tokens
    /// The editable graph (``ArchiveReader`` → ``ArchiveWriter``): objects, classes and C
    /// strings rebuilt as shared instances, references numbered again from identities. What
    /// `convert` and `encode` write through; `verify --graph` checks it.
    case graph
}

/// Decodes an archive and encodes it again; `verify` compares the result with the input.
///
/// This is the **single** place that decides what "round trip" means for the tool. No input
/// byte range is copied: every value is re-encoded from its decoded form and recorded wire
/// decisions, so `identical` proves nothing was lost at the chosen depth.
///
/// Throws ``WireError`` (a ``LocatedError``) on malformed input.
public func roundTrip(_ bytes: [UInt8], through depth: RoundTripDepth = .tokens) throws -> [UInt8] {
    var compiled = CompiledTypeStrings()
    return try roundTrip(bytes, through: depth, compiled: &compiled)
}

/// ``roundTrip(_:through:)``, starting with the type strings in `compiled` and adding those it
/// compiles (see ``CompiledTypeStrings``): the way to check many small archives one after another.
public func roundTrip(_ bytes: [UInt8], through depth: RoundTripDepth = .tokens, compiled: inout CompiledTypeStrings) throws -> [UInt8] {
    switch depth {
    case .tokens:
        return try ArchiveIndex(bytes: bytes, compiled: &compiled).write()
    case .graph:
        return try ArchiveWriter.write(ArchiveReader.read(bytes, compiled: &compiled), policy: .recorded, capacity: bytes.count)
    }
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
