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
    ///
    /// The text is read front to back, once: objects, groups, arrays and structures are built as
    /// they come rather than from a parsed copy of the whole document, so the memory this takes
    /// is about the archive's, not the text's (see ``decode(options:reading:)`` for text read
    /// piece by piece). Where a document has several faults, the first in document order is
    /// the one reported.
    public static func decode(_ json: [UInt8], options: DecodingOptions = DecodingOptions()) throws(ArchiveJSONError) -> Archive {
        var source = JSONTextReader(bytes: json, maximumDepth: options.maximumJSONDepth)
        return try decode(&source, options: options)
    }

    /// Reads lossless JSON text handed out piece by piece by `read`, which appends the next
    /// bytes to its argument and returns `true` once the text has ended (a file or standard
    /// input read in chunks): a document far larger than memory is read in one pass, keeping
    /// only the archive it describes. Throws ``ArchiveJSONError`` as ``decode(_:options:)``
    /// does, or what `read` throws.
    public static func decode(options: DecodingOptions = DecodingOptions(), reading read: (inout [UInt8]) throws -> Bool) throws -> Archive {
        var failure: (any Error)? = nil
        do {
            return try withoutActuallyEscaping(read) { read throws(ArchiveJSONError) -> Archive in
                var source = JSONTextReader(maximumDepth: options.maximumJSONDepth) { bytes throws(ArchiveJSONError) -> Bool in
                    do {
                        return try read(&bytes)
                    } catch {
                        failure = error
                        throw ArchiveJSONError(.syntax, "the JSON text could not be read: \(error)")
                    }
                }
                return try decode(&source, options: options)
            }
        } catch {
            if let failure { throw failure }
            throw error
        }
    }

    /// Reads an already parsed lossless JSON document. Throws like ``decode(_:options:)``.
    public static func decode(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws(ArchiveJSONError) -> Archive {
        var source = JSONTreeSource(value)
        return try decode(&source, options: options)
    }

    private static func decode(_ source: inout some JSONPullSource, options: DecodingOptions) throws(ArchiveJSONError) -> Archive {
        var decoder = ArchiveJSONDecoder(maximumNesting: options.maximumNesting, limits: options.limits)
        do {
            let archive = try decoder.decodeDocument(&source)
            try source.finish()
            return archive
        } catch {
            decoder.releaseObjects()
            throw error
        }
    }
}
