import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Hex helpers for exact-bytes tests.
enum Hex {
    /// Bytes from hex text; spaces, newlines and `|` are ignored.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { $0.isHexDigit })
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
    }

    /// Hex text ("84 01 40") from bytes.
    static func text(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// `text` as hex ("NSColor" → "4e 53 43 6f 6c 6f 72").
    static func ascii(_ text: String) -> String { self.text(Array(text.utf8)) }

    /// Apple's header: v4, little-endian `streamtyped`, system version 1000.
    static let appleHeader = "04 0b " + ascii("streamtyped") + " 81 e8 03"
    /// A NeXTSTEP header: v4, big-endian `typedstream`, system version 930.
    static let nextHeader = "04 0b " + ascii("typedstream") + " 81 03 a2"
    /// The header `nextHeader` describes.
    static let nextStreamHeader = StreamHeader(streamerVersion: 4, byteOrder: .big, systemVersion: .archiverChoice(930))
}

/// Test helper: archives `root` and checks the exact bytes, then decodes them with the
/// foundation registry and checks that the decoded object writes the same bytes again, and that
/// every truncated prefix of the bytes fails with a ``CoderError`` (never traps, never decodes).
/// Returns the decoded root.
@discardableResult
func expectExactRoundTrip(_ root: AnyObject, header: StreamHeader = .apple, expected: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> AnyObject? {
    let bytes = try Archiver.archivedBytes(withRootObject: root, header: header)
    let wanted = Hex.bytes(expected)
    #expect(Hex.text(bytes) == Hex.text(wanted), sourceLocation: sourceLocation)
    let decoder = try Unarchiver(bytes: wanted, registry: .foundation)
    let decoded = try decoder.decodeRootObject()
    #expect(decoder.warnings.isEmpty, "\(decoder.warnings)", sourceLocation: sourceLocation)
    let again = try Archiver.archivedBytes(withRootObject: decoded, header: header)
    #expect(Hex.text(again) == Hex.text(wanted), "decode → encode", sourceLocation: sourceLocation)
    for length in 0 ..< wanted.count {
        #expect(throws: CoderError.self, "prefix of \(length) bytes", sourceLocation: sourceLocation) {
            try Unarchiver(bytes: Array(wanted[..<length]), registry: .foundation).decodeRootObject()
        }
    }
    return decoded
}

/// Replaces the version that follows the class name `name` (a literal class link:
/// `84 len name version`) with `version` (one inline byte).
func patchingClassVersion(_ bytes: [UInt8], className name: String, to version: UInt8) -> [UInt8] {
    let needle = [UInt8(name.utf8.count)] + Array(name.utf8)
    var out = bytes
    for start in 0 ..< (bytes.count - needle.count) where Array(bytes[start ..< start + needle.count]) == needle {
        out[start + needle.count] = version
        return out
    }
    Issue.record("class name \(name) not found")
    return out
}
