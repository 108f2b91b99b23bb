import Testing
import TypedStream
import TypedStreamFoundation
@testable import TypedStreamExport

/// Values a property list holds differently stay apart where the keyed encoder and the binary
/// writer store equal values once: strings that are canonically equivalent but spelled with
/// other bytes (`"é"` and `"e\u{301}"`, which Swift's `==` calls equal), `0.0` and `-0.0`.
@Suite struct KeyedExactValuesTests {
    static let precomposed = "\u{E9}"
    static let decomposed = "e\u{301}"

    static func utf8(_ value: PlistValue?) -> [UInt8]? {
        if case .string(let text)? = value { return Array(text.utf8) }
        return nil
    }

    static func bits(_ value: PlistValue?) -> UInt64? {
        if case .real(let d)? = value { return d.bitPattern }
        return nil
    }

    @Test func theBinaryWriterKeepsEveryStringsBytesAndEveryZerosSign() throws {
        let value = PlistValue.array([.string(Self.precomposed), .string(Self.decomposed), .real(0), .real(-0.0), .string(Self.precomposed)])
        guard case .array(let back) = try BinaryPlistReader.read(BinaryPlistWriter.write(value)) else {
            Issue.record("not an array"); return
        }
        #expect(back.count == 5)
        #expect(Self.utf8(back[0]) == Array(Self.precomposed.utf8))
        #expect(Self.utf8(back[1]) == Array(Self.decomposed.utf8))
        #expect(Self.bits(back[2]) == (0.0).bitPattern)
        #expect(Self.bits(back[3]) == (-0.0).bitPattern)
        #expect(Self.utf8(back[4]) == Array(Self.precomposed.utf8))
    }

    @Test func theKeyedExportKeepsThemApart() throws {
        // (A `-0.0` cannot come from an NSArchiver archive: it writes it as the integer 0.)
        let root = ArrayObject([StringObject(Self.precomposed), StringObject(Self.decomposed), StringObject(Self.precomposed)])
        let bytes = try Archiver.archivedBytes(withRootObject: root)
        let archive = try BinaryPlistReader.read(KeyedArchiveExporter.binary(typedstream: bytes))
        guard case .array(let refs)? = KeyedTestSupport.root(archive)?["NS.objects"] else {
            Issue.record("no NS.objects"); return
        }
        let elements = refs.map { KeyedTestSupport.resolve($0, in: archive) }
        #expect(Self.utf8(elements[0]) == Array(Self.precomposed.utf8))
        #expect(Self.utf8(elements[1]) == Array(Self.decomposed.utf8))
        // Byte-identical strings are still stored once.
        #expect(refs[0] == refs[2] && refs[0] != refs[1])
    }
}
