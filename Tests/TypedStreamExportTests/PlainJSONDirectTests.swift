import Foundation
import Testing
import TestSupport
import TypedStream
import TypedStreamFoundation
@testable import TypedStreamExport

/// The converter's direct writing of strings, numbers and dictionaries from their tokens
/// (`PlainJSONConverter+Direct.swift`) against the hook's way: the same options with the hook
/// set again (which clears the mark that allows the direct writing) must give the same bytes.
struct PlainJSONDirectTests {
    /// Plain JSON of `bytes` with the Foundation options, directly (`direct`) or through the hook only.
    static func plain(_ bytes: [UInt8], direct: Bool, pretty: Bool) throws -> [UInt8] {
        var options = FoundationPlainJSON.options(pretty: pretty)
        #expect(options.foundationDirect != nil)
        if !direct {
            // Setting the hook again clears the mark.
            let hook = options.naturalValue
            options.naturalValue = hook
            #expect(options.foundationDirect == nil)
        }
        return try PlainJSON.encode(bytes, options: options)
    }

    static func compare(_ files: [(name: String, bytes: [UInt8])]) throws -> Int {
        var compared = 0
        for (name, bytes) in files {
            for pretty in [true, false] {
                let hooked: [UInt8]
                do { hooked = try plain(bytes, direct: false, pretty: pretty) } catch {
                    // An archive the hook's way refuses must be refused the same way.
                    #expect(throws: (any Error).self, "\(name)") { try plain(bytes, direct: true, pretty: pretty) }
                    continue
                }
                let direct = try plain(bytes, direct: true, pretty: pretty)
                #expect(direct == hooked, "\(name) (pretty: \(pretty)): direct writing differs from the hook's")
                compared += 1
            }
        }
        return compared
    }

    @Test func samplesWriteTheSameDirectlyAsThroughTheHook() throws {
        let folder = PackageRoot.samples
        var files: [(name: String, bytes: [UInt8])] = []
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        for name in names where name.hasSuffix(".typedstream") && !name.hasPrefix("malformed") {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            if (try? ArchiveIndex(bytes: bytes)) != nil { files.append((name: name, bytes: bytes)) }
        }
        try #require(files.count >= 4)
        #expect(try Self.compare(files) >= 8)
    }

    /// Objects longer than the stream's window are written from views read again object by
    /// object: the same bytes as from the window.
    @Test func objectsPastTheWindowWriteTheSame() throws {
        var files: [(name: String, bytes: [UInt8])] = Corpus.wellFormedFiles()
        let entries = (0..<300).map { (StringObject("key \($0)") as AnyObject, NumberObject(.int(Int64($0))) as AnyObject) }
        let dictionary = DictionaryObject(entries)
        files.append(("generated", try Archiver.archivedBytes(withRootObject: ArrayObject([dictionary, StringObject("after"), dictionary]))))
        var compared = 0
        for (name, bytes) in files {
            var options = FoundationPlainJSON.options(pretty: true)
            let whole = try? PlainJSON.encode(bytes, options: options)
            options.windowTokenLimit = 16
            let pieces = try? PlainJSON.encode(bytes, options: options)
            #expect(whole == pieces, "\(name)")
            if whole != nil { compared += 1 }
        }
        #expect(compared >= 1)
    }

    @Test(.needsCorpus) func corpusWritesTheSameDirectlyAsThroughTheHook() throws {
        let files = Corpus.wellFormedFiles()
        try #require(!files.isEmpty)
        #expect(try Self.compare(files) > 90)
    }
}
