import Foundation
import Testing
import TypedStream
@testable import TypedStreamTool
import TestSupport

/// The tool over the real archives in `../shared/corpus` (skipped when the folder is absent).
@Suite("corpus")
struct CorpusTests {
    static func isMalformed(_ path: String) -> Bool { path.contains("-malformed") }

    @Test(.needsCorpus) func everyWellFormedTypedStreamVerifiesIdentical() throws {
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { $0.hasSuffix(".typedstream") && !Self.isMalformed($0) }
        #expect(files.count >= 100, "expected the whole corpus, found \(files.count) files")
        let result = run(["verify"] + files)
        #expect(result.exitCode == .success, "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        for (file, line) in zip(files, lines) {
            #expect(line == "\(file): identical")
        }
        #expect(result.standardOutput.contains("Summary: \(files.count) files: \(files.count) identical, 0 differing, 0 failed, 0 skipped\n"))
    }

    @Test(.needsCorpus) func malformedAndGNUstepFilesFailWithAnOffset() throws {
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { Self.isMalformed($0) || $0.contains("/gnustep-format/") }
        #expect(files.filter(Self.isMalformed).count == 2)
        #expect(files.count == 7)
        for file in files {
            let result = run(["verify", file])
            #expect(result.exitCode == .failure, "\(file)")
            #expect(result.standardOutput.hasPrefix("\(file): error: offset 0x"), "\(result.standardOutput)")
            let tokens = run(["tokens", file])
            #expect(tokens.exitCode == .failure, "\(file)")
            #expect(tokens.standardError.contains(": offset 0x"), "\(tokens.standardError)")
        }
    }

    @Test(.needsCorpus) func recursiveVerifyOfTheWholeCorpus() throws {
        let corpus = try #require(corpusFolder())
        let all = filesUnder(corpus)
        let typedStreams = all.filter { $0.hasSuffix(".typedstream") }
        let result = run(["verify", "--recursive", "--quiet", corpus.path])
        #expect(result.exitCode == .failure)
        let identical = typedStreams.count - 2
        let skipped = all.count - typedStreams.count
        #expect(result.standardOutput.contains("Summary: \(all.count) files: \(identical) identical, 0 differing, 2 failed, \(skipped) skipped\n"),
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("-malformed.typedstream: offset 0x"))
    }

    /// A batch carries one ``CompiledTypeStrings`` from file to file (per thread): every file,
    /// the malformed ones among them, gives the same bytes or the same error as on its own.
    @Test(.needsCorpus) func carriedTypeStringsChangeNothing() throws {
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { $0.hasSuffix(".typedstream") }
        var compiled = CompiledTypeStrings()
        for file in files + files.reversed() {
            let bytes = try FileReading.readFile(atPath: file)
            let alone = Result { try roundTrip(bytes) }
            let carried = Result { try roundTrip(bytes, compiled: &compiled) }
            switch (alone, carried) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(file)")
            case (.failure(let a as WireError), .failure(let b as WireError)):
                #expect(a == b, "\(file)")
            default:
                Issue.record("\(file): \(alone) alone, \(carried) carried")
            }
        }
        #expect(compiled.count > 10)
    }

    @Test(.needsCorpus) func detectNamesEveryCorpusFile() throws {
        let corpus = try #require(corpusFolder())
        let files = filesUnder(corpus).filter { $0.hasSuffix(".typedstream") || $0.contains("/gnustep-format/") }
        let result = run(["detect"] + files)
        #expect(result.exitCode == .success)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == files.count)
        for (file, line) in zip(files, lines) {
            let expected = file.contains("/gnustep-format/") ? "GNUstep archive" : "typedstream (streamer version"
            #expect(line.hasPrefix("\(file): \(expected)"), "\(line)")
        }
    }

    @Test(.needsCorpus) func tokensListsEveryWellFormedFile() throws {
        let corpus = try #require(corpusFolder())
        for file in filesUnder(corpus) where file.hasSuffix(".typedstream") && !Self.isMalformed(file) {
            let result = run(["tokens", file])
            #expect(result.exitCode == .success, "\(file): \(result.standardError)")
            #expect(result.standardOutput.hasPrefix("00000000  "))
        }
    }
}
