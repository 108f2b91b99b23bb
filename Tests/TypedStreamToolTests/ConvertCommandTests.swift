import Foundation
import Testing
@testable import TypedStreamTool
import TestSupport

struct ConvertCommandTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("convert-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Little → big gives exactly what a big-endian NSArchiver writes (the project's sample).
    @Test func byteOrderConversionMatchesTheBigEndianSample() throws {
        let little = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/strings-array.typedstream")))
        let big = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/strings-array-big-endian.typedstream")))
        let toBig = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "big", "-"], standardInput: little)
        #expect(toBig.exitCode == .success)
        #expect(toBig.outputBytes == big)
        let back = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "little", "-"], standardInput: big)
        #expect(back.outputBytes == little)
    }

    /// Every well-formed corpus file converted to the other byte order and back is identical.
    @Test(.needsCorpus) func corpusByteOrderRoundTrip() throws {
        let corpus = try #require(corpusFolder())
        let out = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let toBig = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "big", "-r", "-q", corpus.path, "-o", out.path + "/be"])
        #expect(toBig.standardOutput.contains("102 converted, 2 failed"))  // the two malformed files
        let toLittle = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "little", "-r", "-q", out.path + "/be", "-o", out.path + "/le"])
        #expect(toLittle.standardOutput.contains("102 converted, 0 failed"))
        for path in filesUnder(corpus) where path.hasSuffix(".typedstream") && !path.contains("malformed") {
            let relative = String(path.dropFirst(corpus.path.count + 1))
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let isBig = original.count > 13 && original[2..<13].elementsEqual("typedstream".utf8)
            let roundTripped = try Data(contentsOf: out.appendingPathComponent((isBig ? "be/" : "le/") + relative))
            #expect(roundTripped == original, "\(relative)")
        }
    }

    @Test func inPlaceReplacesAtomicallyAndNeverByAccident() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.typedstream").path
        try Data(Samples.arrayWithBool).write(to: URL(fileURLWithPath: path))
        let refused = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "big", path, "-o", path])
        #expect(refused.exitCode == .usage)
        #expect(refused.standardError.contains("--in-place"))
        let replaced = TypedStreamCommand.run(["convert", "--to", "typedstream", "--byte-order", "big", "--in-place", path])
        #expect(replaced.exitCode == .success)
        let now = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(now.count == Samples.arrayWithBool.count)
        #expect(Array(now[2..<13]) == Array("typedstream".utf8))
        // No temporary files are left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.typedstream"])
    }

    @Test(arguments: [
        (["convert", "x"], "missing option '--to"),
        (["convert", "--to", "yaml", "x"], "expected one of json, keyed, keyed-xml, typedstream"),
        (["convert", "--to", "json", "--byte-order", "big", "x"], "'--byte-order' applies only to '--to typedstream'"),
        (["convert", "--to", "typedstream", "--byte-order", "middle", "x"], "expected big or little"),
        (["convert", "--to", "typedstream", "a", "b"], "several inputs need '-o DIR'"),
        (["convert", "--to", "json", "--in-place", "a"], "'--in-place' is only for '--to typedstream'"),
        (["convert", "--to", "typedstream", "--in-place", "-"], "standard input cannot be converted in place"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = TypedStreamCommand.run(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func damagedInputFailsWithOffset() {
        let result = TypedStreamCommand.run(["convert", "--to", "typedstream", "-"], standardInput: Array(Samples.arrayWithBool.prefix(50)))
        #expect(result.exitCode == .failure)
        #expect(result.standardError.contains("offset 0x"))
    }
}

struct ConvertKeyedTests {
    /// `convert --to keyed` output opens with Foundation's own NSKeyedUnarchiver with the same
    /// values; `keyed-xml` parses with PropertyListSerialization.
    @Test func keyedOutputOpensWithFoundation() throws {
        let strings = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/strings-array.typedstream")))
        let keyed = TypedStreamCommand.run(["convert", "--to", "keyed", "-"], standardInput: strings)
        #expect(keyed.exitCode == .success)
        let object = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(keyed.outputBytes))
        let array = try #require(object as? [Any])
        #expect(array.compactMap { $0 as? String } == ["first", "shared", "émoji 👍🏽", "shared"])
        let xml = TypedStreamCommand.run(["convert", "--to", "keyed-xml", "-"], standardInput: strings)
        let parsed = try PropertyListSerialization.propertyList(from: Data(xml.outputBytes), format: nil) as? [String: Any]
        #expect(parsed?["$archiver"] as? String == "NSKeyedArchiver")
    }
}
