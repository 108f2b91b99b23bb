import Foundation
import TypedStream
import TypedStreamFoundation

/// `--message-sql N`: a SQLite script of N message bodies shaped like iMessage's `chat.db`, for
/// measuring `typedstream text --lines` end to end (see `examples/message-text.sh`).
///
/// The table is `message(ROWID INTEGER PRIMARY KEY, attributedBody BLOB, expected TEXT, damage
/// TEXT)`: `expected` is the text the generator put in the body; about one row in a thousand
/// is damaged instead — `damage` says how (`null`, `truncated`, `badHeader`, `notText`) and
/// `expected` is NULL.
enum MessageDatabase {
    /// The kinds of damage, in the order they are used.
    static let damages = ["null", "truncated", "badHeader", "notText"]

    /// Prints the script for `count` bodies drawn with `seed` to standard output.
    static func writeScript(count: Int, seed: UInt64) throws {
        var random = SeededRandom(seed: seed, stream: InputKind.blobs.stream)
        var factory = MessageFactory()
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        out.append(contentsOf: "PRAGMA journal_mode = OFF;\nBEGIN;\nCREATE TABLE message(ROWID INTEGER PRIMARY KEY, attributedBody BLOB, expected TEXT, damage TEXT);\n".utf8)
        var damaged = 0
        for row in stride(from: 1, through: count, by: 1) {
            let body = try factory.make(&random)
            guard let text = (body as? AttributedStringObject)?.string else { throw BenchError("the message factory made something else") }
            var bytes = try Archiver.archivedBytes(withRootObject: body)
            var expected: String? = text
            var damage: String?
            if row % 1000 == 500 {
                damage = damages[damaged % damages.count]
                damaged += 1
                expected = nil
                switch damage {
                case "truncated": bytes.removeLast(1 + random.int(in: 0...min(9, bytes.count - 2)))
                case "badHeader": bytes[0] = 5
                case "notText": bytes = try Archiver.archivedBytes(withRootObject: ArrayObject(strings: [text]))
                default: break
                }
            }
            out.append(contentsOf: "INSERT INTO message VALUES(\(row),".utf8)
            if damage == "null" {
                out.append(contentsOf: "NULL".utf8)
            } else {
                out.append(contentsOf: "X'".utf8)
                for byte in bytes {
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
                out.append(UInt8(ascii: "'"))
            }
            out.append(UInt8(ascii: ","))
            appendLiteral(expected, to: &out)
            out.append(UInt8(ascii: ","))
            appendLiteral(damage, to: &out)
            out.append(contentsOf: ");\n".utf8)
            if out.count > 1 << 20 { flush(&out) }
        }
        out.append(contentsOf: "COMMIT;\n".utf8)
        flush(&out)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `'text'` with quotes doubled, or `NULL`.
    private static func appendLiteral(_ text: String?, to out: inout [UInt8]) {
        guard let text else { return out.append(contentsOf: "NULL".utf8) }
        out.append(UInt8(ascii: "'"))
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "'") { out.append(byte) }
        }
        out.append(UInt8(ascii: "'"))
    }

    private static func flush(_ out: inout [UInt8]) {
        FileHandle.standardOutput.write(Data(out))
        out.removeAll(keepingCapacity: true)
    }
}
