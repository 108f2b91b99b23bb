import Foundation
import Testing
@testable import TypedStreamExport

/// Every XML plist we write parses with strict XML 1.0 parsers: Python's `plistlib` (expat) and,
/// when installed, libxml2's `xmllint`. A value XML cannot hold is refused by name instead.
struct KeyedXMLStrictParseTests {
    /// Runs `executable` with `arguments`; its exit status and what it printed.
    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func isInstalled(_ tool: String) -> Bool {
        (try? run("sh", ["-c", "command -v \(tool)"]).status) == 0
    }

    @Test func everyCorpusFileParsesStrictlyOrIsRefusedByName() throws {
        let files = Corpus.wellFormedFiles()
        guard !files.isEmpty else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-xml-strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var written: [String] = []
        var refused: [String] = []
        for (index, file) in files.enumerated() {
            do {
                let xml = try KeyedArchiveExporter.xml(typedstream: file.bytes)
                let path = folder.appendingPathComponent("\(index).plist").path
                try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
                written.append(path)
            } catch let error as KeyedArchiveError where error.code == .notRepresentableInXML {
                // Named: where the value is and which character.
                #expect(error.reason.contains(" at $objects[") && error.reason.contains("XML 1.0 cannot hold"), "\(file.name): \(error)")
                refused.append(file.name)
            } catch {
                // Files the keyed exporter cannot take at all are KeyedExportCorpusTests' concern.
                continue
            }
        }
        #expect(written.count > 80, "only \(written.count) of \(files.count) corpus files became XML")
        // The nibs whose menu items hold a raw ESC key equivalent.
        #expect(refused.allSatisfy { $0.hasPrefix("nib/") }, "\(refused)")
        let script = """
            import plistlib, sys
            bad = 0
            for path in sys.argv[1:]:
                try:
                    with open(path, 'rb') as f: plistlib.load(f)
                except Exception as e:
                    bad += 1; print(path, e)
            sys.exit(1 if bad else 0)
            """
        let python = try run("python3", ["-c", script] + written)
        #expect(python.status == 0, "plistlib refused: \(python.output)")
        if isInstalled("xmllint") {
            let xmllint = try run("xmllint", ["--noout", "--nonet"] + written)
            #expect(xmllint.status == 0, "xmllint refused: \(xmllint.output)")
        } else {
            print("skipped: xmllint is not installed (apt-get install libxml2-utils); checked with plistlib only")
        }
    }

    @Test func charactersXMLCannotHoldAreRefusedWithTheirPlace() throws {
        let archive: PlistValue = .dictionary([
            PlistEntry("$objects", .array([.string("$null"), .string("fine"), .string("\u{1B}")])),
        ])
        #expect(throws: XMLPlistWriter.Unrepresentable.self) { try XMLPlistWriter.write(archive) }
        do {
            _ = try XMLPlistWriter.write(archive)
        } catch {
            #expect(error.path == "$objects[2]")
            #expect(error.description == "the string at $objects[2] (\"\\u{1b}\") holds U+001B, which XML 1.0 cannot hold, "
                    + "not even as a character reference; a binary property list can")
        }
        for bad in ["\u{0}", "a\u{7}b", "\u{FFFE}", "\u{FFFF}"] {
            #expect(throws: XMLPlistWriter.Unrepresentable.self) { try XMLPlistWriter.write(.string(bad)) }
            #expect(throws: XMLPlistWriter.Unrepresentable.self) { try XMLPlistWriter.write(.dictionary([PlistEntry(bad, .bool(true))])) }
        }
        #expect(throws: XMLPlistWriter.Unrepresentable.self) { try XMLPlistWriter.write(.date(.nan)) }
        #expect(throws: XMLPlistWriter.Unrepresentable.self) { try XMLPlistWriter.write(.date(1e300)) }
    }

    /// Tab, line feed and carriage return are kept: a carriage return as `&#13;`, which parsers
    /// do not turn into a line feed.
    @Test func whitespaceSurvivesAStrictParser() throws {
        let text = "a\tb\nc\r\nd & <e> \u{FFFD} \u{10348}"
        let xml = try XMLPlistWriter.write(.array([.string(text)]))
        #expect(xml.contains("c&#13;\nd &amp; &lt;e&gt;"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xml-ws-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(xml.utf8).write(to: folder)
        let check = try run("python3", ["-c", "import plistlib,sys; v=plistlib.load(open(sys.argv[1],'rb')); sys.exit(0 if v==[sys.argv[2]] else 1)",
                                        folder.path, text])
        #expect(check.status == 0, "\(check.output)")
    }
}
