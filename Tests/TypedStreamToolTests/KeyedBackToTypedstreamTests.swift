import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamExport
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
}
