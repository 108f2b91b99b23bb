import Foundation
import Testing
import TypedStream
@testable import TypedStreamFoundation

/// Every NSColor, NSFont, List, HashTable, Storage and StreamTable object of the corpus (nested
/// archives included) decodes to its typed codec, and every Apple-written file (system version
/// 1000) is written back byte for byte. NeXT-written files are written back exactly as the
/// all-generic path writes them: where that differs from the file (NeXT repeats C-string literals
/// of equal text; the archiver shares them by content) the typed codecs add no difference.
@Test func corpusAppKitAndNeXTObjectsDecodeTypedAndRoundTrip() throws {
    guard let files = AppKitCorpus.files() else { print("skipped: ../shared/corpus not found"); return }
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
}
