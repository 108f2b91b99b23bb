/// The commit record of a save: which files make up the new generation, with their lengths and
/// SHA-256 digests. Its appearance under ``DocumentFiles/journal`` (by an atomic `rename`) is the
/// commit point of a save; it is removed once every staged file is in place.
///
/// A small text file, so recovery needs no Foundation:
///
/// ```text
/// ModelDocument commit journal 1
/// generation 7
/// file document.typedstream 912 3f1c…(64 hex digits)
/// file settings.plist 1024 9ab0…
/// file history.plist 311 77de…
/// end
/// ```
public struct CommitJournal: Hashable, Sendable {
    /// One committed file.
    public struct Entry: Hashable, Sendable {
        /// The file's final name (one of ``DocumentFiles/committed``).
        public var name: String
        /// Its length in bytes.
        public var length: Int
        /// Its SHA-256, lowercase hex.
        public var sha256: String

        /// Creates an entry describing `bytes`.
        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.length = bytes.count
            self.sha256 = SHA256.hexDigest(of: bytes)
        }

        /// Creates an entry from its parts.
        public init(name: String, length: Int, sha256: String) {
            self.name = name
            self.length = length
            self.sha256 = sha256
        }

        /// Whether `bytes` are the file this entry describes.
        public func matches(_ bytes: [UInt8]) -> Bool {
            bytes.count == length && SHA256.hexDigest(of: bytes) == sha256
        }
    }

    /// The first line.
    public static let magic = "ModelDocument commit journal 1"

    /// The save generation being committed.
    public var generation: Int
    /// The files, in rename order.
    public var entries: [Entry]

    /// Creates a journal.
    public init(generation: Int, entries: [Entry]) {
        self.generation = generation
        self.entries = entries
    }

    /// The file's bytes.
    public var bytes: [UInt8] {
        var text = Self.magic + "\ngeneration \(generation)\n"
        for entry in entries { text += "file \(entry.name) \(entry.length) \(entry.sha256)\n" }
        text += "end\n"
        return Array(text.utf8)
    }

    /// Parses a journal. Throws ``ModelDocumentError`` `damaged` (with the byte offset of the bad
    /// line) when it is not exactly the format above, or names a file outside
    /// ``DocumentFiles/committed``.
    public init(parsing bytes: [UInt8], path: String? = nil) throws(ModelDocumentError) {
        var lines: [(offset: Int, text: Substring)] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append((start, Substring(String(decoding: bytes[start..<i], as: UTF8.self))))
            start = i + 1
        }
        func bad(_ offset: Int, _ reason: String) -> ModelDocumentError {
            ModelDocumentError(.damaged, path: path, offset: offset, "commit journal: \(reason)")
        }
        guard start == bytes.count else { throw bad(start, "the last line is not terminated") }
        guard lines.count >= 3, lines[0].text == Self.magic else { throw bad(0, "not a commit journal of format 1") }
        let generationWords = lines[1].text.split(separator: " ")
        guard generationWords.count == 2, generationWords[0] == "generation", let generation = Int(generationWords[1]), generation >= 0 else {
            throw bad(lines[1].offset, "expected 'generation N'")
        }
        guard lines[lines.count - 1].text == "end" else { throw bad(lines[lines.count - 1].offset, "expected 'end'") }
        var entries: [Entry] = []
        for line in lines[2..<(lines.count - 1)] {
            let words = line.text.split(separator: " ", omittingEmptySubsequences: false)
            guard words.count == 4, words[0] == "file", let length = Int(words[2]), length >= 0,
                  SHA256.isHexDigest(words[3]) else {
                throw bad(line.offset, "expected 'file NAME LENGTH SHA256'")
            }
            let name = String(words[1])
            guard DocumentFiles.committed.contains(name), !entries.contains(where: { $0.name == name }) else {
                throw bad(line.offset, "'\(name)' is not a file a save commits")
            }
            entries.append(Entry(name: name, length: length, sha256: String(words[3])))
        }
        self.init(generation: generation, entries: entries)
    }
}
