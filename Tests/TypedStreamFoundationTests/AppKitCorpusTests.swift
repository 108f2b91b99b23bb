import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation
import TestSupport

/// Every NSColor, NSFont, List, HashTable, Storage and StreamTable object of the corpus (nested
/// archives included) decodes to its typed codec, and every Apple-written file (system version
/// 1000) is written back byte for byte. NeXT-written files are written back exactly as the
/// all-generic path writes them: where that differs from the file (NeXT repeats C-string literals
/// of equal text; the archiver shares them by content) the typed codecs add no difference.
@Test(.needsCorpus) func corpusAppKitAndNeXTObjectsDecodeTypedAndRoundTrip() throws {
    let files = try #require(AppKitCorpus.files())
    var totals: [String: Int] = [:]
    var identicalNeXT = 0, totalNeXT = 0
    var queue = files.map { (name: $0.name, bytes: $0.bytes) }
    while !queue.isEmpty {
        let (name, bytes) = queue.removeFirst()
        let pass = try AppKitCorpus.pass(bytes)
        let appleWritten = pass.archive.header.systemVersion.value >= 1000
        let identical = pass.output == bytes
        if appleWritten {
            #expect(identical, "\(name): decode → encode changed the bytes")
        } else {
            totalNeXT += 1
            if identical { identicalNeXT += 1 }
            let generic = try AppKitCorpus.pass(bytes, registry: ClassRegistry())
            #expect(pass.output == generic.output, "\(name): the typed codecs write other bytes than the generic path")
        }
        #expect(pass.untyped.isEmpty, "\(name): not typed: \(pass.untyped)")
        for (index, nested) in pass.nested.enumerated() { queue.append(("\(name)#\(index)", nested)) }
        for (k, v) in pass.typed { totals[k, default: 0] += v }
        if !pass.typed.isEmpty {
            let counts = pass.typed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("typed  \(name): \(counts)\(appleWritten ? "" : identical ? " (NeXT, same bytes)" : " (NeXT, bytes differ)")")
        }
        for warning in pass.decoder.warnings { print("warning \(name): \(warning)") }
    }
    print("typed totals: \(totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); NeXT-written archives written back identically: \(identicalNeXT) of \(totalNeXT)")
    #expect(totals["NSColor", default: 0] >= 1000)
    #expect(totals["NSFont", default: 0] >= 80)
    #expect(totals["List", default: 0] >= 150)
    #expect(totals["HashTable", default: 0] >= 80)
    #expect(totals["Storage", default: 0] >= 10)
    #expect(totals["StreamTable", default: 0] >= 6)
    #expect(totals["Font", default: 0] >= 24)
}

/// Natural values of the corpus objects: colour kinds, font names and sizes.
@Test(.needsCorpus) func corpusColorKindsAndFonts() throws {
    let files = try #require(AppKitCorpus.files())
    var kinds: [ColorObject.Kind: Int] = [:]
    var fonts: [String: Int] = [:]
    for (name, bytes) in files {
        let pass = try AppKitCorpus.pass(bytes)
        var seen = Set<ObjectIdentifier>()
        func visit(_ value: ArchivedValue) throws {
            switch value {
            case .object(let entry?, _):
                guard seen.insert(ObjectIdentifier(entry)).inserted else { return }
                let instance = try pass.decoder.object(for: entry)
                if let color = instance as? ColorObject {
                    kinds[color.kind, default: 0] += 1
                    #expect(color.components.count == [4, 4, 2, 2, 5, 0][Int(color.kind.rawValue) - 1])
                    if color.kind == .named { #expect(color.catalogName != nil && color.colorName != nil, "\(name)") }
                }
                if let font = instance as? FontObject {
                    #expect(!font.name.isEmpty && font.size > 0 && font.trailingBytes.count == 4, "\(name)")
                    fonts["\(font.name) \(font.size) v\(font.archiveClassChain[0].version)", default: 0] += 1
                }
                for group in entry.groups { for v in group.values { try visit(v) } }
            case .array(let values), .structure(let values):
                for v in values { try visit(v) }
            default: break
            }
        }
        for group in pass.archive.groups { for v in group.values { try visit(v) } }
    }
    print("NSColor kinds: \(kinds.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    print("NSFont: \(fonts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))")
    #expect(kinds[.calibratedRGB, default: 0] > 0 && kinds[.calibratedWhite, default: 0] > 0 && kinds[.named, default: 0] > 0)
    #expect(fonts.keys.contains { $0.hasPrefix("Helvetica 12.0") })
}

/// The WorldWideWeb `IB.proj`: a `StreamTable` with integer keys whose entries are archives of
/// their own — a `Project`, an empty archive, and a `HashTable` of ints to nil objects.
@Test(.needsCorpus) func corpusInterfaceBuilderProject() throws {
    let corpus = try #require(CorpusFontPlists.corpusDirectory)
    let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent("misc/nextstep-WorldWideWeb-IB.proj.typedstream")))
    let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
    let table = try #require(try decoder.decodeRootObject() as? StreamTableObject)
    #expect(table.keyTypeString == "i")
    #expect(table.entries.map(\.key.integerValue) == [5, 4, 1])
    #expect(table.entries.map(\.data.count) == [949, 20, 67])

    let project = try #require(try table.decodeRootObject(at: 0) as? GenericObject)
    #expect(project.archiveClassChain.first?.name == "Project")
    let storages = project.objects.values.compactMap { $0 as? StorageObject }
    let lists = storages.filter { $0.elementTypeString == "*" }.map { $0.elements.map(\.stringValue) }
    #expect(lists.count == 2)
    #expect(lists.contains(["icon1.tiff", nil, nil]) && lists.contains(["html", nil, nil]), "\(lists)")

    #expect(try table.decodeRootObject(at: 1) == nil)
    let hashTable = try #require(try table.decodeRootObject(at: 2) as? HashTableObject)
    #expect(hashTable.keyTypeString == "i" && hashTable.valueTypeString == "@")
    #expect(hashTable.entries.map(\.key.integerValue) == [3, 2, 1])
    #expect(hashTable.entries.allSatisfy { $0.value.object == nil })
}
