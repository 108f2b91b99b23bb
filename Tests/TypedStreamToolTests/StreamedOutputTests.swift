import Foundation
import Testing
@testable import TypedStreamTool

/// The renderers write as they go; before, each built its whole text first. Every output must
/// be the same to the byte: `Golden/output-digests.tsv` holds, for each sample and corpus file
/// and each of `decode`, `decode --json`, `decode --plain`, `tokens` and `inspect`, the exit
/// status and the FNV-1a digest of standard output that the program printed before streaming
/// (remade only on purpose by `Golden/make_output_digests.py`).
@Suite struct StreamedOutputTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var file: String
        var command: [String]
        var status: Int32
        var digest: String
        var testDescription: String { "\(command.joined(separator: " ")) \(file)" }
    }

    static let rows: [Row] = {
        let url = packageRoot.appendingPathComponent("Tests/TypedStreamToolTests/Golden/output-digests.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let status = Int32(fields[2]) else { return nil }
            return Row(file: fields[0], command: fields[1].split(separator: " ").map(String.init), status: status, digest: fields[3])
        }
    }()

    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func check(_ rows: [Row], under folder: URL, prefix: String) {
        for row in rows where row.file.hasPrefix(prefix) {
            let path = folder.appendingPathComponent(String(row.file.dropFirst(prefix.count))).path
            let result = TypedStreamCommand.run(row.command + [path])
            #expect(result.exitCode.rawValue == row.status, "\(row.testDescription): exit \(result.exitCode)")
            #expect(fnv1a(result.outputBytes) == row.digest, "\(row.testDescription): output differs from before streaming")
        }
    }

    @Test func digestsAreThere() {
        #expect(Self.rows.count > 600, "Golden/output-digests.tsv is missing or short")
    }

    @Test(arguments: ["decode", "decode --json", "decode --plain", "tokens", "inspect"])
    func samplesPrintWhatTheyPrintedBefore(command: String) {
        Self.check(Self.rows.filter { $0.command.joined(separator: " ") == command }, under: packageRoot.appendingPathComponent("Samples"), prefix: "Samples/")
    }

    @Test(.needsCorpus, arguments: ["decode", "decode --json", "decode --plain", "tokens", "inspect"])
    func corpusPrintsWhatItPrintedBefore(command: String) throws {
        let corpus = try #require(corpusFolder())
        Self.check(Self.rows.filter { $0.command.joined(separator: " ") == command }, under: corpus, prefix: "corpus/")
    }
}
