import Foundation
import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport
import TestSupport

/// The real archives of `../shared/corpus/foundation` (and the iMessage attributed strings):
/// exported to keyed archives, they open with Foundation's NSKeyedUnarchiver and give the same
/// values as our own typedstream decoding; the XML form parses; plistlib reads the same plist.
@Suite("Keyed export: corpus")
struct KeyedExportCorpusTests {
    private static func naturalRoot(_ bytes: [UInt8]) throws -> NaturalValue {
        let root = try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject()
        return naturalValue(of: root)
    }

    private static func hasUncomparable(_ value: NaturalValue) -> Bool {
        switch value {
        case .object: return true
        case .array(let items), .set(let items): return items.contains(where: hasUncomparable)
        case .dictionary(let entries): return entries.contains { hasUncomparable($0.key) || hasUncomparable($0.value) }
        case .attributedString(let text): return text.runs.contains { $0.attributes.contains { hasUncomparable($0.key) || hasUncomparable($0.value) } }
        default: return false
        }
    }

    @Test(.needsCorpus) func foundationSamplesOpenWithTheSameValues() throws {
        let files = try #require(KeyedTestSupport.corpusFiles("foundation"))
        #expect(files.count >= 29)
        var options = KeyedArchiveExporter.Options()
        options.attributeRuns = .alwaysIndexed  // what swift-corelibs-foundation can read
        for (name, bytes) in files {
            let natural = try Self.naturalRoot(bytes)
            #expect(!Self.hasUncomparable(natural), "\(name): \(natural)")
            let binary = try KeyedArchiveExporter.binary(typedstream: bytes, options: options)
            let object = try KeyedTestSupport.unarchive(binary)
            #expect(KeyedTestSupport.mismatch(object, natural) == nil, "\(name)")
            let xml = try KeyedArchiveExporter.xml(typedstream: bytes, options: options)
            let fromXML = try KeyedTestSupport.unarchive(Array(xml.utf8))
            #expect(KeyedTestSupport.mismatch(fromXML, natural) == nil, "\(name) (XML)")
            #expect((try? PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)) != nil, "\(name)")
            // Apple's layout (the default) differs only for one-run attributed strings.
            let apple = try KeyedArchiveExporter.export(typedstream: bytes)
            #expect(KeyedTestSupport.root(apple) != nil)
        }
    }

    @Test(.needsCorpus) func attributedStringSamplesOpenWhenEveryClassIsFoundations() throws {
        let files = try #require(KeyedTestSupport.corpusFiles("attributed-string"))
        var options = KeyedArchiveExporter.Options()
        options.attributeRuns = .alwaysIndexed
        var opened = 0
        for (name, bytes) in files where !name.contains("malformed") {
            let natural: NaturalValue
            do { natural = try Self.naturalRoot(bytes) } catch { continue }  // samples with trailing data
            let plist = try KeyedArchiveExporter.export(typedstream: bytes, options: options)
            guard !Self.hasUncomparable(natural) else {
                // Unknown classes: the plist is still well formed and names them in $classes.
                #expect((try? PropertyListSerialization.propertyList(from: Data(BinaryPlistWriter.write(plist)), format: nil)) != nil, "\(name)")
                continue
            }
            let object = try KeyedTestSupport.unarchive(BinaryPlistWriter.write(plist))
            #expect(KeyedTestSupport.mismatch(object, natural) == nil, "\(name)")
            opened += 1
        }
        #expect(opened > 10)
        print("attributed-string samples opened by NSKeyedUnarchiver: \(opened) of \(files.count)")
    }

    @Test(.enabled(if: KeyedTestSupport.hasPython, "python3 is not available"), .needsCorpus) func plistlibReadsEveryCorpusExport() throws {
        let foundation = try #require(KeyedTestSupport.corpusFiles("foundation"))
        let attributed = try #require(KeyedTestSupport.corpusFiles("attributed-string"))
        var names: [String] = [], plists: [PlistValue] = []
        for (name, bytes) in foundation + attributed where !name.contains("malformed") {
            guard let plist = try? KeyedArchiveExporter.export(typedstream: bytes) else { continue }
            names.append(name)
            plists.append(plist)
        }
        let read = try #require(try KeyedTestSupport.readWithPlistlib(plists.map(BinaryPlistWriter.write)))
        for (name, (plist, read)) in zip(names, zip(plists, read)) {
            #expect(read == plist, "\(name)")
        }
    }
}
