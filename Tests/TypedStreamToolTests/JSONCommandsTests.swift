import Foundation
import Testing
@testable import TypedStreamTool
import TestSupport

struct JSONCommandsTests {
    /// `decode --json` then `encode` gives back the archive byte for byte; `convert --to json`
    /// gives the same JSON.
    @Test func decodeJSONThenEncodeIsIdentical() {
        let json = TypedStreamCommand.run(["decode", "--json", "-"], standardInput: Samples.arrayWithBool)
        #expect(json.exitCode == .success)
        #expect(!json.standardOutput.contains("84 01 40"))  // values, not a copy of the bytes
        let back = TypedStreamCommand.run(["encode", "-"], standardInput: json.outputBytes)
        #expect(back.exitCode == .success)
        #expect(back.outputBytes == Samples.arrayWithBool)
        let converted = TypedStreamCommand.run(["convert", "--to", "json", "-"], standardInput: Samples.arrayWithBool)
        #expect(converted.outputBytes == json.outputBytes)
    }

    @Test func plainJSONHasNaturalValues() throws {
        let result = TypedStreamCommand.run(["decode", "--plain", "-"], standardInput: Samples.arrayWithBool)
        #expect(result.exitCode == .success)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [String: Any]
        let values = parsed?["values"] as? [Any]
        #expect((values?.first as? [Any])?.compactMap { $0 as? Bool } == [true, false])
    }

    @Test func badJSONFailsWithItsPath() {
        let result = TypedStreamCommand.run(["encode", "-"], standardInput: Array(#"{"format": "typedstream-json", "formatVersion": 1, "header": {"streamerVersion": 4, "byteOrder": "sideways", "systemVersion": 1000}, "groups": []}"#.utf8))
        #expect(result.exitCode == .failure)
        #expect(result.standardError.contains("header.byteOrder"), "\(result.standardError)")
    }

    /// Every well-formed corpus file survives `decode --json` → `encode` through the command line.
    @Test(.needsCorpus) func corpusThroughTheCommandLine() throws {
        let corpus = try #require(corpusFolder())
        for path in filesUnder(corpus) where path.hasSuffix(".typedstream") && !path.contains("malformed") {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let json = TypedStreamCommand.run(["decode", "--json", path])
            let back = TypedStreamCommand.run(["encode", "-"], standardInput: json.outputBytes)
            #expect(back.outputBytes == original, "\(path)")
        }
    }
}

struct ModelPlainJSONTests {
    @Test func modelRecordsHaveNamedFields() throws {
        let document = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Samples/model-v2/document.typedstream")))
        let result = TypedStreamCommand.run(["decode", "--plain", "-"], standardInput: document)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [String: Any])
        let records = try #require((parsed["values"] as? [Any])?.first as? [[String: Any]])
        #expect(records.first?["name"] as? String == "Harbour")
        #expect((records.first?["rect"] as? [String: Any])?["width"] as? Double == 640)
        #expect(records.first?["para"] as? Int == 2)
    }
}
