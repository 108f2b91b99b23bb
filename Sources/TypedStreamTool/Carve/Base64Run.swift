/// A run of base64 text in a ``CarveSource``, decoded as far as it is asked to and no further:
/// the standard alphabet (`A–Z a–z 0–9 + /`), white space (space, tab, line breaks — property
/// lists wrap their `<data>`) skipped, ended by `=` padding, any other byte, the end of the
/// source or a bound on the text read.
struct Base64Run {
    /// Where the text starts in the source.
    let start: Int
    /// The most text bytes read from ``start``.
    let maximumText: Int
    private let source: CarveSource

    /// What has been decoded so far.
    private(set) var decoded: [UInt8] = []
    /// Whether the run has ended (nothing more will be decoded).
    private(set) var ended = false
    /// The next text offset to read.
    private var cursor: Int
    /// How much text the next read takes: small first, doubling up to 64 KiB.
    private var pieceSize = 256
    private var pending: UInt32 = 0
    private var pendingLetters = 0

    /// A run starting at `start`, of at most `maximumText` text bytes.
    init(source: CarveSource, start: Int, maximumText: Int) {
        self.source = source
        self.start = start
        self.maximumText = maximumText
        cursor = start
    }

    /// Whether `byte` is a letter of the standard base64 alphabet.
    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool { values[Int(byte)] < 64 }

    /// Decodes until at least `count` bytes are decoded or the run ends. Throws
    /// ``FileReadError`` when the source cannot be read.
    mutating func decode(upTo count: Int) throws(FileReadError) {
        while decoded.count < count, !ended {
            // About the text the missing bytes take, so that a short archive reads little.
            let limit = start + maximumText - cursor
            let piece = try source.read(at: cursor, count: min(pieceSize, max(256, (count - decoded.count) / 3 * 4 + 64), limit))
            pieceSize = min(pieceSize * 2, 1 << 16)
            if piece.isEmpty {
                finish()
                break
            }
            for byte in piece {
                let value = Self.values[Int(byte)]
                if value < 64 {
                    pending = pending << 6 | UInt32(value)
                    pendingLetters += 1
                    if pendingLetters == 4 {
                        decoded.append(UInt8(truncatingIfNeeded: pending >> 16))
                        decoded.append(UInt8(truncatingIfNeeded: pending >> 8))
                        decoded.append(UInt8(truncatingIfNeeded: pending))
                        pending = 0
                        pendingLetters = 0
                    }
                } else if value != Self.space {
                    finish()
                    break
                }
                cursor += 1
            }
            if cursor - start >= maximumText { finish() }
        }
    }

    /// Ends the run, decoding the bytes of a last group of two or three letters.
    private mutating func finish() {
        guard !ended else { return }
        ended = true
        if pendingLetters == 2 {
            decoded.append(UInt8(truncatingIfNeeded: pending >> 4))
        } else if pendingLetters == 3 {
            decoded.append(UInt8(truncatingIfNeeded: pending >> 10))
            decoded.append(UInt8(truncatingIfNeeded: pending >> 2))
        }
        pendingLetters = 0
    }

    /// The length of the text that encodes the first `count` decoded bytes: up to the letter
    /// that completes them, and the `=` padding after it when they are everything decoded.
    /// Throws ``FileReadError`` when the source cannot be read.
    func textLength(encoding count: Int) throws(FileReadError) -> Int {
        let letters = count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
        var seen = 0
        var position = start
        var end = start
        var pieceSize = 256
        scanning: while seen < letters {
            let piece = try source.read(at: position, count: min(pieceSize, (letters - seen) / 4 * 5 + 64))
            pieceSize = min(pieceSize * 2, 1 << 16)
            if piece.isEmpty { break }
            for byte in piece {
                position += 1
                if Self.isLetter(byte) {
                    seen += 1
                    if seen == letters {
                        end = position
                        break scanning
                    }
                }
            }
        }
        guard ended, count == decoded.count else { return end - start }
        let tail = try source.read(at: end, count: 2)
        return end - start + tail.prefix { $0 == UInt8(ascii: "=") }.count
    }

    /// What a byte is worth: 0…63 for a letter, ``space`` for white space, 255 otherwise.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, letter) in letters.enumerated() { table[Int(letter)] = UInt8(value) }
        for byte in [0x20, 0x09, 0x0A, 0x0D] as [UInt8] { table[Int(byte)] = space }
        return table
    }()

    /// The worth of white space in ``values``.
    private static let space: UInt8 = 64
}
