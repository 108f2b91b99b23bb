/// Type strings already parsed and compiled by a ``TokenReader``, to hand to the next one.
///
/// Each archive repeats its type strings through the shared-string table, so one archive parses
/// each only once; but many small archives (message bodies) each parse the same few again, and
/// that parsing is most of what reading a small archive costs. Pass the compiled type strings
/// from one reader to the next:
///
/// ```swift
/// var compiled = CompiledTypeStrings()
/// for blob in blobs {
///     var reader = TokenReader(bytes: blob, compiled: compiled)
///     _ = try reader.scanToEnd()
///     compiled = reader.compiledTypeStrings
/// }
/// ```
///
/// `ArchiveIndex(bytes:compiled:)`, `ArchiveReader.read(_:compiled:)` and
/// `Unarchiver(bytes:registry:options:compiled:)` take it too, as an `inout` argument.
///
/// It is a value: copies are independent, and it can be used from any thread. It grows with the
/// number of distinct type strings; past about a million compiled operations or 16 MiB of
/// type-string text a reader starts afresh instead.
public struct CompiledTypeStrings: Sendable {
    var program: TypeProgram

    /// No type strings yet.
    public init() { program = TypeProgram() }

    init(program: TypeProgram) { self.program = program }

    /// The number of distinct type strings remembered.
    public var count: Int { program.rememberedCount }
}
