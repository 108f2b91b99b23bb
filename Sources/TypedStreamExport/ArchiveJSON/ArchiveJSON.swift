import TypedStream

/// Lossless JSON for typedstream archives: an ``Archive`` graph as readable JSON that holds
/// every value *and* every wire decision that differs from NSArchiver's, so that
/// bytes → ``Archive`` → JSON → ``Archive`` → ``ArchiveWriter`` gives the original bytes back.
///
/// The JSON never holds a copy of the input's bytes: integers are numbers, reals are exact
/// numbers (or their bit pattern when JSON has no number for them), strings are text (or hex
/// when they are not UTF-8), objects appear inline where the writer writes them as new and as
/// `{"ref": id}` afterwards. The schema is described in `docs/json-schema.md`.
///
/// ```swift
/// let archive = try ArchiveReader.read(bytes)
/// let json = try ArchiveJSON.encode(archive)               // UTF-8 JSON text
/// let back = try ArchiveJSON.decode(json)                  // validates everything
/// let again = try ArchiveWriter.write(back)                // == bytes
/// ```
///
/// Import treats the JSON as untrusted: wrong shapes, unknown members, ids referenced before
/// they are defined and values that do not match their group's type string are refused with an
/// ``ArchiveJSONError`` that names the JSON path (`groups[0].values[0].groups[3]`). Nesting is
/// bounded before and while parsing, so no input can overflow the stack.
public enum ArchiveJSON {
    /// The value of the document's `format` member.
    public static let formatName = "typedstream-json"
    /// The value of the document's `formatVersion` member.
    public static let formatVersion = 1

    /// The default bound on nesting of objects, arrays and structs: the reader's default
    /// (``DecodingLimits/maximumNesting``), so every archive ``ArchiveReader`` reads with default
    /// limits can be exported and imported again.
    public static let defaultMaximumNesting = DecodingLimits.default.maximumNesting

    /// How to write the JSON text.
    public struct EncodingOptions: Hashable, Sendable {
        /// Indent nested containers (groups that define no object stay on one line).
        /// `false` writes everything on one line with no spaces. Default `true`.
        public var pretty: Bool
        /// Deepest nesting of objects, arrays and structs exported. Default
        /// ``ArchiveJSON/defaultMaximumNesting`` (256); at most ``ArchiveWriter/maximumNesting``.
        public var maximumNesting: Int

        /// Creates options.
        public init(pretty: Bool = true, maximumNesting: Int = ArchiveJSON.defaultMaximumNesting) {
            self.pretty = pretty
            self.maximumNesting = maximumNesting
        }
    }

    /// Bounds for reading untrusted JSON.
    public struct DecodingOptions: Hashable, Sendable {
        /// Deepest nesting of objects, arrays and structs in the archive. Default the
        /// `maximumNesting` of ``limits`` (256 by default).
        public var maximumNesting: Int
        /// Deepest nesting of JSON arrays and objects; by default derived from
        /// `maximumNesting` (each archive object costs four JSON levels).
        public var maximumJSONDepth: Int
        /// The limits of the readers the archive is for: JSON describing an archive that a
        /// reader with these limits would refuse (too many objects, shared strings or values
        /// that take no bytes, a class name or chain too long, a type string nested too deep)
        /// is refused, with the JSON path of the value that passes the limit (``LimitTally``).
        /// Write the archive with the same limits (``ArchiveWriter/write(_:policy:byteOrder:capacity:limits:)``).
        /// Default ``DecodingLimits/default``.
        public var limits: DecodingLimits

        /// Creates options.
        public init(maximumNesting: Int? = nil, maximumJSONDepth: Int? = nil, limits: DecodingLimits = .default) {
            self.limits = limits
            self.maximumNesting = maximumNesting ?? limits.maximumNesting
            self.maximumJSONDepth = maximumJSONDepth ?? (4 * self.maximumNesting + 64)
        }
    }

    /// Writes `archive` as lossless JSON (UTF-8). Throws ``ArchiveJSONError`` (code
    /// `unwritable` or `limitExceeded`, with the JSON path of the value) when the archive
    /// cannot be written at all — a value of the wrong kind for its type, a group whose types do
    /// not match its type string; an archive from ``ArchiveReader`` never fails.
    public static func encode(_ archive: Archive, options: EncodingOptions = EncodingOptions()) throws(ArchiveJSONError) -> [UInt8] {
        var encoder = ArchiveJSONEncoder(header: archive.header, pretty: options.pretty, maximumNesting: min(options.maximumNesting, ArchiveWriter.maximumNesting), capacity: 4096)
        return try encoder.encode(archive)
    }

    /// Writes `archive` as lossless JSON text. Throws like ``encode(_:options:)``.
    public static func encodeString(_ archive: Archive, options: EncodingOptions = EncodingOptions()) throws(ArchiveJSONError) -> String {
        String(decoding: try encode(archive, options: options), as: UTF8.self)
    }

    /// Reads lossless JSON text back into an archive whose every wire decision is explicit.
    /// Throws ``ArchiveJSONError`` on invalid JSON (with its byte offset) and on any schema
    /// violation (with its JSON path). Like an archive from ``ArchiveReader``, the archive owns
    /// its objects (they may refer to each other in cycles): keep it alive while you use them.
    public static func decode(_ json: [UInt8], options: DecodingOptions = DecodingOptions()) throws(ArchiveJSONError) -> Archive {
        let value = try JSONValue.parse(json, maximumDepth: options.maximumJSONDepth)
        return try decode(value, options: options)
    }

    /// Reads an already parsed lossless JSON document. Throws like ``decode(_:options:)``.
    public static func decode(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws(ArchiveJSONError) -> Archive {
        var decoder = ArchiveJSONDecoder(maximumNesting: options.maximumNesting, limits: options.limits)
        do {
            return try decoder.decodeDocument(value)
        } catch {
            decoder.releaseObjects()
            throw error
        }
    }
}
