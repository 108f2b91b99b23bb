import Testing
import TypedStreamExport
@testable import ModelDocument

/// Hostile keyed archives through `model import`: each must fail with status 1 and one line
/// naming the object, never reach Foundation, never crash.
@Suite struct KeyedHostileImportTests {
    static func cls(_ names: String...) -> PlistValue {
        .dictionary([PlistEntry("$classes", .array(names.map(PlistValue.string))), PlistEntry("$classname", .string(names[0]))])
    }

    /// A keyed archive of `objects` whose `$top.root` is UID 1.
    static func keyed(_ objects: [PlistValue]) -> [UInt8] {
        BinaryPlistWriter.write(.dictionary([
            PlistEntry("$archiver", .string("NSKeyedArchiver")), PlistEntry("$objects", .array(objects)),
            PlistEntry("$top", .dictionary([PlistEntry("root", .uid(1))])), PlistEntry("$version", .integer(100000)),
        ]))
    }

    /// `$null`, the ModelDocument root (models → `models`), its class, its format string,
    /// then `rest` from index 4; NSArray's class is at 4 + rest.count.
    static func document(models: UInt32, _ rest: [PlistValue]) -> [PlistValue] {
        [.string("$null"),
         .dictionary([PlistEntry("$class", .uid(2)), PlistEntry("format", .uid(3)), PlistEntry("models", .uid(models)), PlistEntry("version", .integer(2))]),
         cls("ModelDocument", "NSObject"), .string("ModelDocument")] + rest + [cls("NSArray", "NSObject")]
    }

    static func array(_ elements: [UInt32], classAt uid: UInt32) -> PlistValue {
        .dictionary([PlistEntry("$class", .uid(uid)), PlistEntry("NS.objects", .array(elements.map(PlistValue.uid)))])
    }

    /// Imports `bytes` as `model import` does (named `FILE`); returns the error, or `nil` when
    /// the import succeeded.
    static func runImport(_ bytes: [UInt8]) throws -> ModelDocumentError? {
        let folder = TemporaryFolder("keyed-hostile")
        defer { folder.cleanUp() }
        do {
            _ = try KeyedModelArchive.importDocument(bytes, to: folder.sub("out"), path: "FILE")
            return nil
        } catch {
            #expect(!DurableIO.exists(folder.sub("out")), "nothing is created from a refused archive")
            return error
        }
    }

    static func expectRefused(_ bytes: [UInt8], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try runImport(bytes)
        #expect(error?.description == "FILE: \(message)", sourceLocation: sourceLocation)
    }

    @Test func arrayContainingItself() throws {
        try Self.expectRefused(Self.keyed(Self.document(models: 4, [Self.array([4], classAt: 5)])),
                               "keyed archive: object 4 refers to itself through $objects[4].NS.objects[0]")
    }

    @Test func modelsPointingAtTheRoot() throws {
        try Self.expectRefused(Self.keyed(Self.document(models: 1, [])),
                               "keyed archive: object 1 refers to itself through $objects[1].models")
    }

    @Test func arraysHoldingEachOther() throws {
        try Self.expectRefused(Self.keyed(Self.document(models: 4, [Self.array([5], classAt: 6), Self.array([4], classAt: 6)])),
                               "keyed archive: object 4 refers to itself through $objects[4].NS.objects[0] → $objects[5].NS.objects[0]")
    }

    @Test func hundredThousandDeepChain() throws {
        let depth = 100_000
        let classUID = UInt32(4 + depth)
        let chain = (0..<depth).map { i in i == depth - 1 ? Self.array([], classAt: classUID) : Self.array([UInt32(5 + i)], classAt: classUID) }
        try Self.expectRefused(Self.keyed(Self.document(models: 4, chain)),
                               "keyed archive: objects nested deeper than 256 through $top.root → $objects[1].models → $objects[4].NS.objects[0] → … (252 more) → $objects[257].NS.objects[0] → $objects[258].NS.objects[0]")
    }

    @Test func classPointingAtAString() throws {
        let model = PlistValue.dictionary([PlistEntry("$class", .uid(3)), PlistEntry("md_rt", .uid(6))])
        try Self.expectRefused(Self.keyed(Self.document(models: 4, [Self.array([5], classAt: 7), model, .string("{{0, 0}, {1, 1}}")])),
                               "keyed archive: $objects[5].$class refers to $objects[3], a string, not a class (a dictionary with a $classname string and $classes strings)")
    }

    @Test func uidOutOfRange() throws {
        try Self.expectRefused(Self.keyed(Self.document(models: 900, [])),
                               "keyed archive: UID 900 is outside $objects (5 objects) at $objects[1].models")
    }

    @Test func modelOfTheWrongClass() throws {
        try Self.expectRefused(Self.keyed(Self.document(models: 4, [Self.array([2], classAt: 5)])),
                               "keyed archive: $objects[4].NS.objects[0] refers to $objects[2], a class entry, not an object with a $class")
    }

    /// About 10 KB: 64 levels of bplist arrays `[a, a]` (2⁶⁴ strings written out), referenced
    /// 4 500 times from `$objects`.
    @Test func binaryPlistExpansionBomb() throws {
        var plist = RawBinaryPlist()
        var level = plist.add(.string("lol"))
        for _ in 0..<64 { level = plist.add(.array([level, level])) }
        let null = plist.add(.string("$null"))
        let objects = plist.add(.array([null] + Array(repeating: level, count: 4500)))
        let top = plist.add(.dictionary([(plist.add(.string("root")), plist.add(.uid(1)))]))
        let root = plist.add(.dictionary([(plist.add(.string("$archiver")), plist.add(.string("NSKeyedArchiver"))),
                                          (plist.add(.string("$objects")), objects), (plist.add(.string("$top")), top)]))
        let bytes = plist.bytes(top: root)
        #expect((9_000...11_000).contains(bytes.count))
        let message = try #require(try Self.runImport(bytes)).description
        #expect(message.hasPrefix("FILE: offset 0x"))
        let budget = PlistLimits.default.expandedBytes(forInputOf: bytes.count)
        #expect(message.hasSuffix(": binary property list: object 16 expands to more than \(budget) bytes through shared references (at most 64 per input byte plus 1048576)"), "\(message)")
    }

    /// Many models sharing one big string: what the import hands out is bounded.
    @Test func sharedStringFanIn() throws {
        let count = 600
        let bytes = Self.keyed(Self.fannedIn(count: count))
        let message = try #require(try Self.runImport(bytes)).description
        #expect(message.contains("keyed archive: the strings and data read pass"), "\(message)")
        #expect(message.contains("objects share values too often"))
    }

    /// `$null`, root, ModelDocument class, format, models array (4), Model class (5), rect (6),
    /// big name (7), `count` models (8…), NSArray class.
    static func fannedIn(count: Int) -> [PlistValue] {
        let arrayClass = UInt32(8 + count)
        let models = (0..<count).map { _ in PlistValue.dictionary([PlistEntry("$class", .uid(5)), PlistEntry("md_rt", .uid(6)), PlistEntry("md_name", .uid(7))]) }
        return [.string("$null"),
                .dictionary([PlistEntry("$class", .uid(2)), PlistEntry("format", .uid(3)), PlistEntry("models", .uid(4)), PlistEntry("version", .integer(1))]),
                cls("ModelDocument", "NSObject"), .string("ModelDocument"),
                array((0..<count).map { UInt32(8 + $0) }, classAt: arrayClass), cls("Model", "NSObject"),
                .string("{{0, 0}, {1, 1}}"), .string(String(repeating: "x", count: 200_000))] + models + [cls("NSArray", "NSObject")]
    }

    @Test func aWellFormedFanInWithinTheBudgetImports() throws {
        let folder = TemporaryFolder("keyed-fan")
        defer { folder.cleanUp() }
        // Three models share one type string (object 7); their names (12…14) are their own, as
        // a document's names must be unique.
        var objects = Self.fannedIn(count: 3)
        objects[7] = .string("shared type")
        for model in 0..<3 {
            objects[8 + model] = .dictionary([PlistEntry("$class", .uid(5)), PlistEntry("md_rt", .uid(6)),
                                              PlistEntry("md_type", .uid(7)), PlistEntry("md_name", .uid(UInt32(12 + model)))])
        }
        objects += (0..<3).map { PlistValue.string("model \($0)") }
        let document = try KeyedModelArchive.importDocument(Self.keyed(objects), to: folder.sub("doc"))
        #expect(document.records.map(\.name) == ["model 0", "model 1", "model 2"])
        #expect(document.records.map(\.type) == ["shared type", "shared type", "shared type"])
    }
}

/// A binary plist written object by object with explicit references, so tests can share
/// collections (which `BinaryPlistWriter` never does).
struct RawBinaryPlist {
    enum Object { case string(String), uid(UInt32), array([Int]), dictionary([(Int, Int)]) }
    var objects: [Object] = []

    mutating func add(_ object: Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    func bytes(top: Int) -> [UInt8] {
        func count(_ marker: UInt8, _ n: Int) -> [UInt8] {
            n < 15 ? [marker | UInt8(n)] : [marker | 0x0F, 0x11, UInt8(n >> 8), UInt8(n & 0xFF)]
        }
        func ref(_ r: Int) -> [UInt8] { [UInt8(r >> 8), UInt8(r & 0xFF)] }
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .string(let s): out += count(0x50, s.utf8.count) + Array(s.utf8)
            case .uid(let u): out += [0x83] + [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
            case .array(let refs): out += count(0xA0, refs.count) + refs.flatMap(ref)
            case .dictionary(let pairs): out += count(0xD0, pairs.count) + pairs.flatMap { ref($0.0) } + pairs.flatMap { ref($0.1) }
            }
        }
        let table = out.count
        for offset in offsets { out += [UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] }
        func be64(_ v: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
        out += [0, 0, 0, 0, 0, 0, 4, 2] + be64(objects.count) + be64(top) + be64(table)
        return out
    }
}
