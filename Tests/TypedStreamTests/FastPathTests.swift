import Foundation
import Testing
import TypedStream
import TestSupport

/// The fast whole-archive path (the walk of `TokenReader+Walk.swift`: ``TokenReader/readAllCompact()``,
/// ``TokenReader/scanToEnd()``, ``ArchiveIndex``) must give exactly what the resumable pull
/// reader gives: the same tokens, and on bad input the same error (code, offset and message).
@Suite("Fast path agrees with the pull reader")
struct FastPathTests {
    typealias Outcome = Result<[CompactToken], WireError>

    static func pulled(_ bytes: [UInt8], compiled: CompiledTypeStrings? = nil) -> Outcome {
        var reader = compiled.map { TokenReader(bytes: bytes, compiled: $0) } ?? TokenReader(bytes: bytes)
        var tokens: [CompactToken] = []
        do {
            while let token = try reader.nextCompact() { tokens.append(token) }
            return .success(tokens)
        } catch {
            return .failure(error)
        }
    }

    static func walked(_ bytes: [UInt8], compiled: CompiledTypeStrings? = nil) -> Outcome {
        var reader = compiled.map { TokenReader(bytes: bytes, compiled: $0) } ?? TokenReader(bytes: bytes)
        do { return .success(try reader.readAllCompact()) } catch { return .failure(error) }
    }

    /// Every corpus file and sample, whole: same tokens or same error, fresh and with the type
    /// strings compiled by every file before it.
    @Test func corpusAndSamplesAgree() {
        let files = (Corpus.files ?? []) + Corpus.samples
        #expect(!files.isEmpty)
        var compiled = CompiledTypeStrings()
        var agreed = 0
        for file in files {
            let pulled = Self.pulled(file.bytes)
            #expect(Self.walked(file.bytes) == pulled, "\(file)")
            #expect(Self.walked(file.bytes, compiled: compiled) == pulled, "\(file) with compiled type strings")
            var reader = TokenReader(bytes: file.bytes, compiled: compiled)
            if (try? reader.scanToEnd()) != nil { compiled = reader.compiledTypeStrings }
            agreed += 1
        }
        #expect(compiled.count > 0)
        print("fast path: \(agreed) files agree; \(compiled.count) distinct type strings compiled")
    }

    /// Every prefix of a few samples (truncation lands in every kind of item).
    @Test func truncatedPrefixesAgree() {
        let samples = Corpus.samples.filter { !$0.name.hasPrefix("malformed/") && $0.bytes.count < 4_000 }.prefix(12)
        #expect(!samples.isEmpty)
        for file in samples {
            for length in 1..<file.bytes.count {
                let prefix = Array(file.bytes[..<length])
                let pulled = Self.pulled(prefix)
                #expect(Self.walked(prefix) == pulled, "\(file) cut at \(length)")
                // Only the header alone is a complete (empty) archive.
                if case .success(let tokens) = pulled, tokens.count > 1 { Issue.record("\(file) cut at \(length) read without error") }
            }
        }
    }

    /// Seeded random byte changes: the two paths must fail (or not) in the same way.
    @Test func mutationsAgree() {
        let seed = RobustnessSupport.environment["FASTPATH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("fast path mutations: seed \(seed) (FASTPATH_SEED=\(seed) to repeat)")
        var random = SplitMix64(seed: seed)  // TruncationTests.swift
        let sources = ((Corpus.files ?? []) + Corpus.samples).filter { $0.bytes.count < 20_000 }
        #expect(!sources.isEmpty)
        var errors = 0
        for round in 0..<3_000 {
            var bytes = sources[Int(random.next() % UInt64(sources.count))].bytes
            guard bytes.count > 16 else { continue }
            for _ in 0...(random.next() % 3) {
                let at = 16 + Int(random.next() % UInt64(bytes.count - 16))
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
            let pulled = Self.pulled(bytes)
            if case .failure = pulled { errors += 1 }
            #expect(Self.walked(bytes) == pulled, "round \(round), seed \(seed)")
        }
        #expect(errors > 0)
    }

    /// The index records every slot, links objects to their classes and classes to their
    /// superclasses as the token stream does, and re-reads each object exactly.
    @Test func indexMatchesTheTokenStream() throws {
        let files = ((Corpus.files ?? []) + Corpus.samples).filter { !$0.isMalformed && !$0.isGNUstep && !$0.name.hasPrefix("malformed/") && !$0.name.hasSuffix(".tsv") && !$0.name.hasSuffix(".plist") && !$0.name.hasSuffix(".json") && !$0.name.hasSuffix(".md") }
        var objectsChecked = 0
        for file in files {
            guard case .success(let tokens) = Self.pulled(file.bytes) else { continue }
            let index = try ArchiveIndex(bytes: file.bytes)
            var classOf: [Int: Int?] = [:], superclassOf: [Int: Int?] = [:]
            var slots = 0
            var awaiting: (slot: Int, isObject: Bool)?
            var root: Int?
            for token in tokens {
                if token.code == .object, token.form == .new {
                    slots += 1
                    awaiting = (token.slot, true)
                    if root == nil, token.depth == 0 { root = token.slot }
                } else if token.code == .classLink {
                    let target: Int? = token.form == .null ? nil : token.slot
                    if let pending = awaiting {
                        if pending.isObject { classOf[pending.slot] = target } else { superclassOf[pending.slot] = target }
                    }
                    awaiting = token.form == .new ? (token.slot, false) : nil
                    if token.form == .new { slots += 1 }
                } else if token.code == .cString, token.form == .new {
                    slots += 1
                }
            }
            #expect(index.slotCount == slots, "\(file)")
            #expect(index.rootObject == root, "\(file)")
            for (object, klass) in classOf { #expect(index.classSlot(ofObject: object) == klass, "\(file) object #\(object)") }
            for (klass, superclass) in superclassOf { #expect(index.superclassSlot(ofClass: klass) == superclass, "\(file) class #\(klass)") }
            // Re-reading each object gives the same tokens as its part of the whole stream.
            for (position, token) in tokens.enumerated() where token.code == .object && token.form == .new {
                var part = index.tokens(ofObject: token.slot)
                var again: [CompactToken] = []
                while let next = try part.nextCompact() { again.append(next) }
                var expected: [CompactToken] = []
                for later in tokens[position...] {
                    var shifted = later
                    shifted.depth -= token.depth
                    expected.append(shifted)
                    if later.code == .endOfObject, later.depth == token.depth { break }
                }
                #expect(again == expected, "\(file) object #\(token.slot)")
                objectsChecked += 1
            }
        }
        #expect(objectsChecked > 0)
    }

    /// On bad input the index fails exactly as the graph reader does (which adds two checks to
    /// the token reader's: every object has a class, no class chain loops).
    @Test func indexErrorsAreTheGraphReadersErrors() {
        let files = ((Corpus.files ?? []) + Corpus.samples).filter { $0.name.hasPrefix("malformed/") || $0.isMalformed || $0.isGNUstep }
        #expect(!files.isEmpty)
        var failures = 0
        for file in files {
            do {
                _ = try ArchiveReader.read(file.bytes)
                #expect(throws: Never.self, "\(file)") { try ArchiveIndex(bytes: file.bytes) }
            } catch {
                failures += 1
                #expect(throws: error, "\(file)") { try ArchiveIndex(bytes: file.bytes) }
            }
        }
        #expect(failures > 0)
    }

    /// Writing from the index gives back the input; so does reading the graph with type strings
    /// carried over from every file before; and the index converts byte order both ways.
    @Test func indexAndGraphWriteBackEveryWellFormedFile() throws {
        let files = ((Corpus.files ?? []) + Corpus.samples).filter { !$0.isMalformed && !$0.isGNUstep && !$0.name.hasPrefix("malformed/") }
        var compiled = CompiledTypeStrings()
        var written = 0
        for file in files {
            guard let index = try? ArchiveIndex(bytes: file.bytes) else { continue }
            #expect(try index.write() == file.bytes, "\(file)")
            let other: ByteOrder = index.header.byteOrder == .little ? .big : .little
            let swapped = try index.write(byteOrder: other)
            #expect(try ArchiveIndex(bytes: swapped).write(byteOrder: index.header.byteOrder) == file.bytes, "\(file) via \(other)-endian")
            let graph = try ArchiveReader.read(file.bytes, compiled: &compiled)
            #expect(try ArchiveWriter.write(graph) == file.bytes, "\(file) read with compiled type strings")
            written += 1
        }
        #expect(written > 0)
    }

    /// The README's "fast level" example, on the samples: every root has a class chain that
    /// ends in a root class, and its tokens read to its end.
    @Test func readmeIndexExample() throws {
        let messageBodies = Corpus.samples.filter { !$0.name.hasPrefix("malformed/") && $0.name.hasSuffix(".typedstream") }.map(\.bytes)
        #expect(!messageBodies.isEmpty)
        var compiled = CompiledTypeStrings()
        var roots = 0
        for blob in messageBodies {
            let index = try ArchiveIndex(bytes: blob, compiled: &compiled)
            guard let root = index.rootObject else { continue }
            #expect(!index.classChain(ofObject: root).isEmpty)
            var tokens = index.tokens(ofObject: root)
            var last: CompactToken?
            while let token = try tokens.nextCompact() { last = token }
            #expect(last?.code == .endOfObject && last?.depth == 0)
            roots += 1
        }
        #expect(roots > 0)
    }
}
