import ObjCTypeEncoding
import Testing
import TypedStream

/// Replays every input that Tests/Fuzz/fuzz.sh found (Samples/malformed/fuzz-TARGET-HASH)
/// against the property its target checks, so a fixed find stays fixed. (The catalogue test
/// checks their exact WireError as well.)
struct FuzzFindsTests {
    static let finds: [String] = (try? RobustnessSupport.names(in: RobustnessSupport.malformedDirectory))?
        .filter { $0.hasPrefix("fuzz-") } ?? []

    /// A generic object whose class chain names one class twice (three classes named
    /// `PrintNSOb`, each the superclass of the one before): the archiver shares class entries by
    /// name, so the class became its own superclass — a reference cycle never freed (the fuzz
    /// target's leak) and a chain no reader takes. It refuses the chain instead.
    @Test func aChainNamingAClassTwiceIsRefusedByTheArchiver() throws {
        let bytes = try RobustnessSupport.read(RobustnessSupport.malformedDirectory + "/fuzz-unarchiver-528316f63c76")
        let decoder = try Unarchiver(bytes: bytes)
        #expect(throws: CoderError.self) {
            while decoder.hasMoreGroups {
                if decoder.peekTypeString() == "@" {
                    _ = try Archiver.archivedBytes(withRootObject: decoder.decodeObject())
                } else {
                    _ = try decoder.decodeGroup()
                }
            }
        }
    }

    @Test(arguments: finds)
    func find(_ name: String) throws {
        let bytes = try RobustnessSupport.read(RobustnessSupport.malformedDirectory + "/" + name)
        if name.hasPrefix("fuzz-tokenreader-") || name.hasPrefix("fuzz-roundtrip-") {
            Self.checkTokens(bytes, name)
        } else if name.hasPrefix("fuzz-objctype-") {
            Self.checkGrammar(bytes, name)
        } else if name.hasPrefix("fuzz-unarchiver-") {
            Self.checkGraph(bytes, name)
        } else if name.hasPrefix("fuzz-jsonimporter-") {
            // JSON: replayed where the importer lives (TypedStreamExportTests, JSONImporterFindsTests).
        } else {
            Issue.record("\(name): no replay for this fuzz target yet")
        }
    }

    /// Tokens lie inside the input and in order; an error's offset is inside the input; what
    /// reads writes back to the same bytes (the tokenreader and roundtrip targets).
    static func checkTokens(_ bytes: [UInt8], _ name: String) {
        var reader = TokenReader(bytes: bytes)
        var tokens: [Token] = []
        do {
            var previousEnd = 0
            while let token = try reader.next() {
                #expect(token.start >= previousEnd && token.start <= token.end && token.end <= bytes.count, "\(name): token \(token.kind) at \(token.range)")
                previousEnd = token.end
                tokens.append(token)
            }
        } catch {
            #expect(error.offset >= 0 && error.offset <= bytes.count && !error.reason.isEmpty, "\(name): \(error)")
            return
        }
        var writer = TokenWriter()
        #expect(throws: Never.self, "\(name): the writer refused the reader's tokens") { try writer.write(tokens) }
        #expect(writer.bytes == bytes, "\(name): round trip differs")
    }

    /// The unarchiver target's graph property: an archive the graph accepts writes back to the
    /// same bytes; one it refuses fails with an offset inside the input. (The full target also
    /// runs the class codecs, which live in a higher module; the graph is what its finds broke.)
    static func checkGraph(_ bytes: [UInt8], _ name: String) {
        do {
            let archive = try ArchiveReader.read(bytes)
            #expect(try ArchiveWriter.write(archive) == bytes, "\(name): the graph wrote different bytes")
            _ = try? Unarchiver(archive: archive).decodeRootObject()
        } catch {
            #expect(error.offset >= 0 && error.offset <= bytes.count && !error.reason.isEmpty, "\(name): \(error)")
        }
        // Streaming and graph decodes agree: the same root written again, or the same error.
        let outcomes = [true, false].map { streaming -> String in
            var options = Unarchiver.Options()
            options.streaming = streaming
            do {
                let root = try Unarchiver(bytes: bytes, options: options).decodeRootObject()
                return "bytes \(try Archiver.archivedBytes(withRootObject: root))"
            } catch {
                return "error \(error)"
            }
        }
        #expect(outcomes[0] == outcomes[1], "\(name): streaming \(outcomes[0]), graph \(outcomes[1])")
    }

    /// A group string that parses prints canonically, and the print parses to the same types
    /// (the objctype target).
    static func checkGrammar(_ bytes: [UInt8], _ name: String) {
        guard let types = try? ObjCType.parseGroup(bytes: bytes) else { return }
        var printed: [UInt8] = []
        for type in types { type.append(to: &printed) }
        let reparsed = try? ObjCType.parseGroup(bytes: printed)
        #expect(reparsed == types, "\(name): '\(String(decoding: printed, as: UTF8.self))' does not parse back to the same types")
    }
}
