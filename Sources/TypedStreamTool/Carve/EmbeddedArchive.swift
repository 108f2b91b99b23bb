import TypedStream

/// An archive that starts at an offset inside a larger file, cut out as `carve` would cut it:
/// what `inspect --offset` and `detect --offset` look at.
enum EmbeddedArchive {
    /// The bytes of the archive at `offset` in `source`:
    ///
    /// - a typedstream header there: the archive up to the end of its last complete top-level
    ///   group (``TypedStreamExtent``), or, when it is damaged, up to `maximumSize` bytes (so the
    ///   damage shows);
    /// - `bplist00` there: the list up to the first trailer that points back at it and parses
    ///   (``BinaryPlistTrailers``), or up to `maximumSize` bytes;
    /// - anything else: `nil`.
    ///
    /// Throws ``FileReadError`` when the source cannot be read.
    static func bytes(in source: CarveSource, at offset: Int,
                      maximumSize: Int = TypedStreamExtent.defaultMaximumSize) throws(FileReadError) -> [UInt8]? {
        let head = try source.read(at: offset, count: 16)
        if CarveSignature.isTypedStreamHeader(head) {
            var compiled = CompiledTypeStrings()
            let outcome = try TypedStreamExtent.find(maximumSize: maximumSize, compiled: &compiled) { count throws(FileReadError) in
                try source.read(at: offset, count: count)
            }
            if case .archive(let length, _, _) = outcome { return try source.read(at: offset, count: length) }
            return try source.read(at: offset, count: maximumSize)
        }
        if head.starts(with: ForeignFormat.binaryPropertyList00) {
            let trailers = BinaryPlistTrailers(source: source, maximumSize: maximumSize)
            for end in try trailers.ends(ofListAt: offset) {
                let bytes = try source.read(at: offset, count: end - offset)
                if case .damaged = BinaryPlistExtent.check(bytes) { continue }
                return bytes
            }
            return try source.read(at: offset, count: maximumSize)
        }
        return nil
    }
}
