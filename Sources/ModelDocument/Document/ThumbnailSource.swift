/// Where a model's thumbnail bytes are: in memory (just added or set), or in a file — the
/// model's side file in `thumbnails/`, or a file of the undo history's store — read only when
/// the bytes are asked for. So opening, listing, deleting and undoing never read an image they
/// do not need, and a save moves an image by renaming or linking its file rather than copying it.
struct ThumbnailSource {
    /// The bytes' home.
    enum Location {
        /// The bytes themselves.
        case memory([UInt8])
        /// A file holding them (never written in place: this program replaces files by rename).
        case file(String)
    }

    var location: Location
    /// The length in bytes (known without reading a file).
    var length: Int
    /// The SHA-256 (lowercase hex), once computed or read from the history.
    var sha256: String?

    /// Bytes in memory.
    init(bytes: [UInt8]) {
        location = .memory(bytes)
        length = bytes.count
    }

    /// A file of `length` bytes, whose digest may be known.
    init(file path: String, length: Int, sha256: String? = nil) {
        location = .file(path)
        self.length = length
        self.sha256 = sha256
    }

    /// The file holding the bytes, if they are in one.
    var filePath: String? {
        if case .file(let path) = location { return path }
        return nil
    }

    /// The bytes (read from the file when they are in one). Throws ``ModelDocumentError`` `io`.
    func bytes() throws(ModelDocumentError) -> [UInt8] {
        switch location {
        case .memory(let bytes): return bytes
        case .file(let path): return try DurableIO.read(path)
        }
    }

    /// The SHA-256, computed (reading the file if need be) and remembered when not yet known.
    /// Throws ``ModelDocumentError`` `io`.
    mutating func digest() throws(ModelDocumentError) -> String {
        if let sha256 { return sha256 }
        let computed = SHA256.hexDigest(of: try bytes())
        sha256 = computed
        return computed
    }

    /// Puts the bytes at `path` atomically: a new hard link to the file holding them when there
    /// is one (no copy), else a written and flushed copy, in `path.tmp`, renamed over `path`.
    /// Throws ``ModelDocumentError`` `io` (the temporary file may then be left for the caller).
    func place(at path: String) throws(ModelDocumentError) {
        let temporary = path + DocumentFiles.temporarySuffix
        try DurableIO.remove(temporary)
        if let source = filePath, DurableIO.link(source, temporary) {
            // Linked: the file's data was flushed when it was written.
        } else {
            try DurableIO.writeSynced(temporary, try bytes())
        }
        try DurableIO.rename(temporary, path)
    }
}
