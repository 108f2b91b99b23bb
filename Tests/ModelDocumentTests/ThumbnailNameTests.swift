import Testing
@testable import ModelDocument

@Suite struct ThumbnailNameTests {
    @Test(arguments: [
        ("sunrise", "sunrise.thumbnail"),
        ("Sunrise", "%53unrise.thumbnail"),
        ("a/b", "a%2Fb.thumbnail"),
        ("..", "%2E%2E.thumbnail"),
        ("../../etc/passwd", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.thumbnail"),
        (".hidden", "%2Ehidden.thumbnail"),
        ("nul\u{0}byte", "nul%00byte.thumbnail"),
        ("100%", "100%25.thumbnail"),
        ("Café", "%43af%C3%A9.thumbnail"),
        ("a b", "a%20b.thumbnail"),
        ("x~y", "x%7Ey.thumbnail"),
    ])
    func unsafeNamesAreEscaped(name: String, fileName: String) {
        #expect(ThumbnailName.fileName(for: name) == fileName)
        #expect(ThumbnailName.modelName(forFileName: fileName) == name)
    }

    @Test func emptyAndNilNamesHaveNoThumbnail() {
        #expect(ThumbnailName.fileName(for: nil) == nil)
        #expect(ThumbnailName.fileName(for: "") == nil)
    }

    @Test func fileNamesAreAlwaysSafe() {
        let names = ["/", "//", ".", "..", "\u{0}", "a\u{0}", "CON", "x.thumbnail", String(repeating: "é", count: 300),
                     String(repeating: "A", count: 5000), "\u{FEFF}", "tab\there", "line\nbreak", "🙂"]
        for name in names {
            guard let fileName = ThumbnailName.fileName(for: name) else { Issue.record("no file name for \(name.debugDescription)"); continue }
            #expect(!fileName.contains("/"))
            #expect(!fileName.utf8.contains(0))
            #expect(!fileName.hasPrefix("."))
            #expect(!fileName.contains(".."))
            #expect(fileName.utf8.count <= 255)
            #expect(fileName.hasSuffix(".thumbnail"))
            #expect(fileName.utf8.filter { $0 == UInt8(ascii: ".") }.count == 1)
        }
    }

    @Test func caseClashesMapToNamesThatDifferBeyondCase() {
        let names = ["cat", "Cat", "CAT", "cAt", "%43at", "c%41t", "ca", "Ca", "straße", "STRASSE", "Strasse"]
        let fileNames = names.compactMap(ThumbnailName.fileName(for:))
        #expect(Set(fileNames.map { $0.lowercased() }).count == names.count)
    }

    @Test func veryLongNamesAreHashedAndDistinct() {
        let a = String(repeating: "x", count: 400) + "1"
        let b = String(repeating: "x", count: 400) + "2"
        let fa = ThumbnailName.fileName(for: a)
        let fb = ThumbnailName.fileName(for: b)
        #expect(fa != fb)
        #expect(fa?.contains("~") == true)
        #expect(fa.map { ThumbnailName.modelName(forFileName: $0) } == .some(nil))
        #expect((fa?.utf8.count ?? 999) <= 255)
        // Exactly at the limit the name is still reversible.
        let edge = String(repeating: "y", count: ThumbnailName.maximumStemLength)
        #expect(ThumbnailName.fileName(for: edge).flatMap(ThumbnailName.modelName(forFileName:)) == edge)
        // Escapes are never cut in half.
        let escaped = String(repeating: "É", count: 100)
        let stem = ThumbnailName.fileName(for: escaped)?.split(separator: "~").first ?? ""
        #expect(stem.utf8.count % 3 == 0)
    }

    @Test func foreignFileNamesAreNotModelNames() {
        for fileName in ["a.png", "A.thumbnail", "%2.thumbnail", "%61.thumbnail", "%zz.thumbnail", ".thumbnail", "a%2fb.thumbnail"] {
            #expect(ThumbnailName.modelName(forFileName: fileName) == nil, "\(fileName)")
        }
    }

    @Test func unsafeNamesWorkOnDisk() throws {
        let folder = TemporaryFolder("thumbs")
        defer { folder.cleanUp() }
        let names = ["../escape", "a/b/c", "nul\u{0}", String(repeating: "Long", count: 200), "Cat", "cat", ".", "..", "é/è"]
        let records = names.enumerated().map { index, name in ModelRecord(name: name, thumbnail: [UInt8(index)]) }
        let directory = folder.sub("doc")
        _ = try ModelDocument.create(at: directory, records: records)
        let reopened = try ModelDocument.open(at: directory)
        #expect(reopened.warnings.isEmpty)
        #expect(reopened.records == records)
        let files = try DurableIO.list(directory + "/thumbnails")
        #expect(files.count == names.count)
        #expect(!DurableIO.exists(folder.path + "/escape.thumbnail"))
    }
}
