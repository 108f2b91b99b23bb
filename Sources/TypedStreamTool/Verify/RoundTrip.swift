import TypedStream

/// Decodes an archive into its lossless graph and encodes the graph again; `verify` compares
/// the result with the input.
///
/// This is the **single** place that decides what "round trip" means for the tool. It goes
/// through the archive graph (``ArchiveReader`` → ``ArchiveWriter``): objects, classes and
/// C strings are rebuilt as shared instances and every value is re-encoded from its decoded form
/// and recorded wire decisions — no input byte range is copied — so `identical` proves the
/// graph loses nothing.
///
/// Throws ``WireError`` (a ``LocatedError``) on malformed input.
public func roundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
    var compiled = CompiledTypeStrings()
    return try roundTrip(bytes, compiled: &compiled)
}

/// ``roundTrip(_:)``, starting with the type strings in `compiled` and adding those it compiles
/// (see ``CompiledTypeStrings``): the way to check many small archives one after another.
public func roundTrip(_ bytes: [UInt8], compiled: inout CompiledTypeStrings) throws -> [UInt8] {
    try ArchiveWriter.write(ArchiveReader.read(bytes, compiled: &compiled), policy: .recorded, capacity: bytes.count)
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
