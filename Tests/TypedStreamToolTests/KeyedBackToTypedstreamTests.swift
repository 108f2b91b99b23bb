import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamExport
import ModelDocument
@testable import TypedStreamTool

/// `convert --to typedstream` of a keyed archive: typedstream → keyed → typedstream → keyed gives
/// the same keyed archive for every corpus file whose classes all have keyed layouts (the rest
/// are refused with one line), and the command reads binary and XML keyed archives alike.
@Suite struct KeyedBackToTypedstreamTests {
    /// Converts `bytes` with the tool's own conversion.
    static func convert(_ bytes: [UInt8], to format: ConversionFormat) throws -> [UInt8] {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        var compiled = CompiledTypeStrings()
        try Converter.write(bytes, to: format, options: ConversionOptions(byteOrder: nil), compiled: &compiled, into: &out)
        out.flush()
        return capture.bytes
    }

    @Test(.needsCorpus) func keyedArchivesComeBackToTheSameKeyedArchive() throws {
        var roundTripped = 0
        var refused = 0
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { $0.hasSuffix(".typedstream") && !CorpusTests.isMalformed($0) && !$0.contains("/gnustep-format/") }
        for path in files {
            let url = URL(fileURLWithPath: path)
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let keyed = try? Self.convert(bytes, to: .keyed) else { continue }
            let again: [UInt8]
            do { again = try Self.convert(keyed, to: .typedstream) } catch {
                #expect(error is KeyedArchiveError, "\(url.lastPathComponent): \(error)")
                refused += 1
                continue
            }
            #expect(try Self.convert(again, to: .keyed) == keyed, "\(url.lastPathComponent)")
            if let xml = try? Self.convert(bytes, to: .keyedXML) {
                #expect(try Self.convert(xml, to: .typedstream) == again, "\(url.lastPathComponent) (XML)")
            }
            roundTripped += 1
        }
        print("keyed → typedstream → keyed: \(roundTripped) corpus files identical, \(refused) refused (classes without a keyed layout)")
        #expect(roundTripped >= 10)
    }

    @Test func aSampleArrayComesBackThroughBothPlistForms() throws {
        let sample = try [UInt8](Data(contentsOf: PackageRoot.samples.appendingPathComponent("strings-array.typedstream")))
        let keyed = try Self.convert(sample, to: .keyed)
        let xml = try Self.convert(sample, to: .keyedXML)
        #expect(FormatDetector.startsAsPropertyList(keyed) && FormatDetector.startsAsPropertyList(xml) && !FormatDetector.startsAsPropertyList(sample))
        #expect(try Self.convert(keyed, to: .typedstream) == sample)
        #expect(try Self.convert(xml, to: .typedstream) == sample)
    }

    /// The Model samples: `convert --to keyed` writes the keyed Model document, and
    /// `convert --to typedstream` of it (binary or XML) gives the document's typedstream again.
    @Test(arguments: ["model-v1", "model-v2", "model-v3-draft"]) func modelDocumentsComeBack(sample: String) throws {
        let typedstream = try [UInt8](Data(contentsOf: PackageRoot.samples.appendingPathComponent(sample + "/document.typedstream")))
        for format in [ConversionFormat.keyed, .keyedXML] {
            let keyed = try Self.convert(typedstream, to: format)
            #expect(try ModelKeyedFormTests.shape(keyed).root == "ModelDocument")
            #expect(try Self.convert(keyed, to: .typedstream) == typedstream, "\(sample) \(format)")
        }
    }

    /// A Model record archived alone keeps its readable keys and comes back byte for byte.
    @Test func aLoneModelRecordComesBack() throws {
        let model = Model(ModelRecord(name: "Sunrise", type: "photo", rect: ModelRect(x: 10, y: 20.5, width: 100, height: 0.1), flag: 3, kind: -1, para: 7))
        let typedstream = try ModelArchive.encodeRecord(model, version: .v2)
        let keyed = try Self.convert(typedstream, to: .keyed)
        let shape = try ModelKeyedFormTests.shape(keyed)
        #expect(shape.root == "Model")
        #expect(shape.keys["Model"] == ["$class", "name", "type", "rect", "flag", "kind", "para"])
        #expect(try Self.convert(keyed, to: .typedstream) == typedstream)
    }
}
