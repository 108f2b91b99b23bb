import Testing
import TypedStream

/// Every row of Samples/malformed/CATALOGUE.tsv: the file must fail to read with exactly the
/// listed WireError code at exactly the listed byte offset, or (code `ok`) read without error.
/// Regenerate the hand-made files with `python3 Tests/Malformed/make_catalogue.py`.
struct MalformedCatalogueTests {
    /// One row of the table.
    struct Row: Sendable, CustomTestStringConvertible {
        var file: String
        var code: String
        var offset: Int?
        var description: String
        var line: Int
        var testDescription: String { file }
    }

    static let rows: [Row] = {
        guard let bytes = try? RobustnessSupport.read(RobustnessSupport.malformedDirectory + "/CATALOGUE.tsv") else { return [] }
        var rows: [Row] = []
        for (number, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("file\t") { continue }
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 4 else {
                rows.append(Row(file: "<malformed row>", code: "", offset: nil, description: String(line), line: number + 1))
                continue
            }
            rows.append(Row(file: cells[0], code: cells[1], offset: Int(cells[2]), description: cells[3], line: number + 1))
        }
        return rows
    }()

    @Test func catalogueIsCompleteAndWellFormed() throws {
        #expect(Self.rows.count >= 45, "CATALOGUE.tsv has \(Self.rows.count) rows")
        var seen = Set<String>()
        for row in Self.rows {
            #expect(seen.insert(row.file).inserted, "line \(row.line): \(row.file) is listed twice")
            if row.code == "ok" {
                #expect(row.offset == nil, "line \(row.line): an ok row has no offset")
            } else {
                #expect(WireError.Code(rawValue: row.code) != nil, "line \(row.line): '\(row.code)' is not a WireError code")
                #expect(row.offset != nil, "line \(row.line): offset missing")
            }
        }
        // Every sample file in the folder is in the table.
        let listed = try RobustnessSupport.names(in: RobustnessSupport.malformedDirectory)
            .filter { $0 != "CATALOGUE.tsv" && $0 != "README.md" }
        for name in listed {
            #expect(seen.contains(name), "Samples/malformed/\(name) is not in CATALOGUE.tsv")
        }
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let bytes = try RobustnessSupport.read(RobustnessSupport.malformedDirectory + "/" + row.file)
        switch RobustnessSupport.readAll(bytes) {
        case .success(let tokens):
            #expect(row.code == "ok", "\(row.file) (line \(row.line)) read without error (\(tokens.count) tokens); expected \(row.code) at \(row.offset ?? -1): \(row.description)")
        case .failure(let error):
            #expect(row.code == error.code.rawValue && row.offset == error.offset,
                    "\(row.file) (line \(row.line)): expected \(row.code) at \(row.offset.map(String.init) ?? "-"), got \(error.code.rawValue) at \(error.offset): \(error.reason)")
            #expect(!error.reason.isEmpty)
            #expect(error.offset >= 0 && error.offset <= bytes.count)
        }
    }
}
