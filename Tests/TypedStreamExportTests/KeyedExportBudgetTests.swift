import Testing
import TypedStream
import TypedStreamExport

/// A keyed archive writes a group's type string (and a C string) again at every place it is
/// reached: an archive that refers to one long type string from everywhere would expand without
/// bound, so the export has a budget of text and data (64 × the input + 1 MiB by default).
@Suite("Keyed export: expansion budget")
struct KeyedExportBudgetTests {
    /// A streamer-4 archive of `groups` top-level groups of the type string `{NNN…=c}` (a struct
    /// named with `nameLength` bytes, one `c` member): written once, then referred to.
    static func repeatedTypeString(nameLength: Int, groups: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        let typeString = Array("{".utf8) + Array(repeating: UInt8(ascii: "N"), count: nameLength) + Array("=c}".utf8)
        bytes += [0x84, 0x82] + withUnsafeBytes(of: UInt32(typeString.count).littleEndian, Array.init) + typeString + [0x01]
        for _ in 1..<groups { bytes += [0x92, 0x01] }  // shared string #0 by reference, the byte 1
        return bytes
    }

    @Test func aRepeatedLongTypeStringIsRefused() throws {
        let bytes = Self.repeatedTypeString(nameLength: 100_000, groups: 2_000)
        #expect(try ArchiveIndex(bytes: bytes).topLevelGroupOffsets.count == 2_000)
        #expect(throws: KeyedArchiveError(.tooLarge, "")) { try KeyedArchiveExporter.binary(typedstream: bytes) }
        let budget = KeyedArchiveExporter.expansionBudget(forInputBytes: bytes.count)
        #expect(budget == 64 * bytes.count + (1 << 20))
    }

    @Test func withinTheBudgetItIsWritten() throws {
        let bytes = Self.repeatedTypeString(nameLength: 1_000, groups: 50)
        let plist = try KeyedArchiveExporter.binary(typedstream: bytes)
        #expect(plist.starts(with: Array("bplist00".utf8)))
        // The same archive under a budget it passes: refused.
        var options = KeyedArchiveExporter.Options()
        options.maximumTextBytes = 10_000
        #expect(throws: KeyedArchiveError(.tooLarge, "")) { try KeyedArchiveExporter.binary(typedstream: bytes, options: options) }
    }
}
