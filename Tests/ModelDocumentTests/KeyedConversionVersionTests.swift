import Testing
import TestSupport
import TypedStream
import TypedStreamExport
import TypedStreamFoundation
@testable import ModelDocument

/// `convert --to keyed` of a Model document's typedstream reads which version the first record
/// has from the checked index and decodes that version first: the version found, and the bytes
/// written, are those of trying every version in order.
@Suite struct KeyedConversionVersionTests {
    @Test(arguments: ["model-v1", "model-v2", "model-v3-draft"]) func samplesKeepTheirVersion(sample: String) throws {
        let directory = PackageRoot.samples.appendingPathComponent(sample).path
        let typedstream = try DurableIO.read(DurableIO.join(directory, DocumentFiles.archive))
        try Self.expectSameConversion(typedstream, version: ModelDocument.open(at: directory).version)
    }

    @Test(arguments: DocumentVersion.allCases) func generatedDocumentsKeepTheirVersion(version: DocumentVersion) throws {
        let records = (0..<5).map { index in
            ModelRecord(name: "model \(index)", type: "photo", rect: ModelRect(x: 1, y: 2, width: 3, height: 4),
                        flag: 1, kind: 2, para: version.hasPara ? 3 : 0, reserved: version.hasReserved ? 4 : 0, thumbnail: nil)
        }
        let models = records.map { Model($0) }
        let typedstream = try ModelArchive.encodeDocument(models, version: version)
        try Self.expectSameConversion(typedstream, version: version)
    }

    /// An archive that is not a Model document is still refused with its index.
    @Test func otherArchivesAreNotDocuments() throws {
        let typedstream = try Archiver.archivedBytes(withRootObject: ArrayObject([StringObject("Model")]))
        #expect(KeyedModelArchive.documentRecords(typedstream: typedstream, index: try ArchiveIndex(bytes: typedstream)) == nil)
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        #expect(try KeyedModelArchive.convert(typedstream: typedstream, to: &out) == false)
        out.flush()
        #expect(capture.bytes.isEmpty)
    }

    static func expectSameConversion(_ typedstream: [UInt8], version: DocumentVersion) throws {
        let index = try ArchiveIndex(bytes: typedstream)
        #expect(KeyedModelArchive.likelyVersion(index) == version)
        let hinted = try #require(KeyedModelArchive.documentRecords(typedstream: typedstream, index: index))
        #expect(hinted.version == version)
        let unhinted = try #require(KeyedModelArchive.documentRecords(typedstream: typedstream, index: nil))
        #expect(unhinted.version == version)
        #expect(hinted.records == unhinted.records)
        let whole = try KeyedModelArchive.convert(typedstream: typedstream)
        #expect(try KeyedModelArchive.convert(typedstream: typedstream, index: index) == whole)
        // Written as it is made, the same bytes.
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        #expect(try KeyedModelArchive.convert(typedstream: typedstream, to: &out))
        out.flush()
        #expect(capture.bytes == whole)
        // The XML form, written as it is made, is the XML of the binary form's property list.
        let binary = try #require(whole)
        let xmlCapture = CapturedOutput()
        var xmlOut = OutputWriter(sink: xmlCapture)
        #expect(try KeyedModelArchive.convertToXML(typedstream: typedstream, to: &xmlOut))
        xmlOut.flush()
        #expect(xmlCapture.text == (try XMLPlistWriter.write(KeyedArchiveImporter.plist(from: binary))))
    }

    /// A name XML 1.0 cannot hold is refused by the XML form, naming the value, with nothing
    /// written; the binary form holds it.
    @Test func xmlRefusesWhatItCannotHold() throws {
        let typedstream = try ModelArchive.encodeDocument([Model(ModelRecord(name: "esc\u{1B}"))], version: .v2)
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        #expect {
            try KeyedModelArchive.convertToXML(typedstream: typedstream, to: &out)
        } throws: { error in
            (error as? KeyedArchiveError)?.code == .notRepresentableInXML && "\(error)".contains("U+001B")
        }
        out.flush()
        #expect(capture.bytes.isEmpty)
        #expect(try KeyedModelArchive.convert(typedstream: typedstream) != nil)
    }
}
