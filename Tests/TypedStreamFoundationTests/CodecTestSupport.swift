import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// One piece of a hand-assembled archive: a byte, or text whose UTF-8 bytes are written as-is.
enum WirePart: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case byte(UInt8)
    case text(String)
    case raw([UInt8])

    init(integerLiteral value: UInt8) { self = .byte(value) }
    init(stringLiteral value: String) { self = .text(value) }
}

/// Assembles bytes by hand: `wire(header + [0x84, 0x01, "@", …])`.
func wire(_ parts: [WirePart]) -> [UInt8] {
    var bytes: [UInt8] = []
    for part in parts {
        switch part {
        case .byte(let b): bytes.append(b)
        case .text(let s): bytes += Array(s.utf8)
        case .raw(let r): bytes += r
        }
    }
    return bytes
}

/// `04 0B "streamtyped" 81 E8 03`: what modern macOS writes.
let appleHeader: [WirePart] = [0x04, 0x0B, "streamtyped", 0x81, 0xE8, 0x03]

/// Hex text for failure messages.
func hexText(_ bytes: some Collection<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
}

/// Archives `root` as NSArchiver would.
func archived(_ root: AnyObject?) throws -> [UInt8] {
    try Archiver.archivedBytes(withRootObject: root)
}

/// Decodes the single root object of `bytes` with the Foundation registry.
func decodedRoot(_ bytes: [UInt8]) throws -> AnyObject? {
    try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject()
}

/// Decodes every top-level group of `bytes` with the Foundation registry and encodes them again.
func reencoded(_ bytes: [UInt8]) throws -> [UInt8] {
    let archive = try ArchiveReader.read(bytes)
    let decoder = Unarchiver(archive: archive, registry: .foundation)
    let items = try decoder.decodeTopLevelItems()
    let encoder = Archiver(header: archive.header)
    try encoder.encodeTopLevelItems(items)
    return try encoder.encodedBytes()
}

/// The first offset where two byte arrays differ, or nil.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    if a == b { return nil }
    return (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
}

/// A table row that remembers where it was written.
struct SourcedRow<Payload: Sendable>: Sendable {
    var payload: Payload
    var location: SourceLocation
    init(_ payload: Payload, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        self.payload = payload
        self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
