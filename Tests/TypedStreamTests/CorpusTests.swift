import Testing
import TypedStream

@Suite("Corpus conformance")
struct CorpusTests {
    /// Expected failures: file name → (code, offset).
    static let expectedFailures: [String: (WireError.Code, Int)] = [
        // The NSString length prefix (0x81 0x9d 0x00 = 157) overruns the 120 bytes that follow.
        "attributed-string/imsg-ExtraData-malformed.typedstream": (.badLength, 0x79),
        // CVS merge-conflict markers spliced into the binary desynchronise the stream: the '.'
        // of "<<<<<<< objects.nib" (0x2E) is read where a group starts, as a reference to
        // shared string #156 when only 21 exist.
        "nib/macosx-finkcommander-Preferences-CVS-conflict-malformed.nib.typedstream": (.badReference, 0x19B),
    ]

    @Test("Every well-formed typedstream reads to its end and writes back byte for byte", .needsCorpus)
    func roundTrip() throws {
        let files = try #require(Corpus.files)
        var checked = 0
        for file in files where !file.isMalformed && !file.isGNUstep {
            var reader = TokenReader(bytes: file.bytes)
            let tokens: [Token]
            do {
                tokens = try reader.readAll()
            } catch {
                Issue.record("\(file): \(error)")
                continue
            }
            #expect(reader.isAtEnd, "\(file) did not read to its end")
            expectTiling(tokens, count: file.bytes.count)
            var writer = TokenWriter(capacity: file.bytes.count)
            do {
                try writer.write(tokens)
            } catch {
                Issue.record("\(file): the writer refused: \(error)")
                continue
            }
            if writer.bytes != file.bytes {
                let at = zip(writer.bytes, file.bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(writer.bytes.count, file.bytes.count)
                Issue.record("\(file): rewritten bytes differ first at offset \(at)")
            }
            checked += 1
        }
        print("corpus: \(checked) typedstreams round-tripped byte for byte")
        #expect(checked >= 90)
    }

    @Test("Malformed files throw the expected code at the expected offset", .needsCorpus)
    func malformed() throws {
        let files = try #require(Corpus.files)
        let malformed = files.filter(\.isMalformed)
        #expect(malformed.count == Self.expectedFailures.count)
        for file in malformed {
            guard let (code, offset) = Self.expectedFailures[file.name] else {
                Issue.record("no expectation for \(file)")
                continue
            }
            do {
                let tokens = try readTokens(file.bytes)
                Issue.record("\(file) read as \(tokens.count) tokens")
            } catch {
                #expect(error.code == code, "\(file): \(error)")
                #expect(error.offset == offset, "\(file): \(error)")
            }
        }
    }

    @Test("GNUstep archives are rejected as a foreign format", .needsCorpus)
    func gnustep() throws {
        let files = try #require(Corpus.files)
        let foreign = files.filter(\.isGNUstep)
        #expect(foreign.count >= 5)
        for file in foreign {
            expectWireError(file.bytes, .foreignGNUstep, at: 0)
        }
    }

    @Test("Samples/ files, if any, read to the end and round-trip")
    func samples() throws {
        let samples = Corpus.samples
        #expect(!samples.isEmpty, "no files under Samples/")
        for file in samples {
            do {
                let tokens = try readTokens(file.bytes)
                expectRewrite(tokens, file.bytes)
            } catch {
                // A sample may be a kept fuzz find that must fail cleanly; reaching here is enough.
                print("Samples/\(file): \(error)")
            }
        }
    }
}
