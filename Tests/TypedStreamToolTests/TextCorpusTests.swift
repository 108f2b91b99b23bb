import Foundation
import Testing
import TestSupport
import TypedStreamExport
@testable import TypedStreamTool

/// `text` against `decode --plain` on every real message body and string archive: the same
/// string, the same runs (UTF-16 ranges, attributes in archived order), the same failures; and
/// `--lines` gives what one process per file gives.
@Suite struct TextCorpusTests {
    static let stringArchives = ["NSString", "NSMutableString", "NSAttributedString", "NestedAttributed", "NSArray"]
        .map { "foundation/foundation-\($0).typedstream" }

    static func paths() -> [String] {
        filesUnder(SharedCorpus.url("attributed-string")).filter { $0.hasSuffix(".typedstream") }
            + stringArchives.map { SharedCorpus.url($0).path }
    }

    /// What `text --runs` should print for `path`, from `decode --plain`; `nil` when it should fail.
    static func expectedText(_ path: String) throws -> String? {
        let plain = run(["decode", "--plain", path])
        guard plain.exitCode == .success else { return nil }
        let document = try JSONValue.parse(plain.outputBytes)
        guard case .array(let values)? = document["values"], values.count == 1 else { return nil }
        if case .string(let text) = values[0] { return text + "\n" }
        guard case .string(let text)? = values[0]["string"], case .array(let runs)? = values[0]["runs"] else { return nil }
        var lines = [text]
        for run in runs {
            guard case .number(let location)? = run["location"], case .number(let length)? = run["length"],
                  let attributes = run["attributes"] else { return nil }
            lines.append(#"{"range":[\#(location),\#(length)],"attributes":"# + String(decoding: attributes.text(pretty: false), as: UTF8.self) + "}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(.needsCorpus) func textAgreesWithDecodePlain() throws {
        var texts = 0, failures = 0
        for path in Self.paths() {
            let result = run(["text", "--runs", path])
            if let expected = try Self.expectedText(path) {
                #expect(result.exitCode == .success, "\(path): \(result.standardError)")
                #expect(result.standardOutput == expected, "\(path)")
                texts += 1
            } else {
                #expect(result.exitCode == .failure, "\(path)")
                #expect(result.standardError.hasPrefix("error: \(path): "), "\(path)")
                failures += 1
            }
        }
        #expect(texts >= 35)
        #expect(failures >= 2)  // a malformed body and an NSArray
    }

    @Test(.needsCorpus) func linesAgreeWithOneFileAtATime() throws {
        let paths = Self.paths()
        var input = ""
        for (number, path) in paths.enumerated() {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            input += "\(number)\t" + bytes.map { String(format: "%02x", $0) }.joined() + "\n"
        }
        let result = run(["text", "--lines", "hex"], stdin: Array(input.utf8))
        let records = result.standardOutput.split(separator: "\n")
        #expect(records.count == paths.count)
        var failed = 0
        for (path, line) in zip(paths, records) {
            let record = try JSONValue.parse(Array(line.utf8))
            let single = run(["text", path])
            if single.exitCode == .success {
                #expect(record["text"] == .string(String(decoding: single.outputBytes.dropLast(), as: UTF8.self)), "\(path)")
            } else {
                failed += 1
                #expect(record["error"] != nil, "\(path)")
            }
        }
        #expect(result.standardError == "\(paths.count) records, \(failed) failed\n")
    }
}
