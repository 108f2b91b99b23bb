import Testing
import TypedStream
import TypedStreamFoundation
import TypedStreamExport

/// One archived object is one keyed `$objects` entry: counted per class over the corpus (the
/// rule in docs/keyed-mapping.md, "One object, one entry"), objects shared through typed
/// codecs without a keyed layout (NeXT `List`, `NSColor` …) stay shared, and the output grows
/// with the input.
@Suite("Keyed export: one entry per archived object")
struct KeyedExportIdentityTests {
    /// Archived classes written as plain `$objects` entries (no `$class`, stored once per value).
    static let plainClasses: Set<String> = ["NSString", "NSNumber", "NSData"]
    /// Classes of the objects the mapping adds (not archived objects).
    static let addedClasses: Set<String> = ["TSClassReference", "TSGroup"]

    /// Objects per class name, counted by object-table slot; plain classes left out.
    static func archivedCounts(_ bytes: [UInt8]) throws -> [String: Int] {
        let index = try ArchiveIndex(bytes: bytes)
        var counts: [String: Int] = [:]
        for slot in 0..<index.slotCount where index.kind(ofSlot: slot) == .object {
            let name = index.className(ofObject: slot) ?? "?"
            if !plainClasses.contains(name) { counts[name, default: 0] += 1 }
        }
        return counts
    }

    /// `$objects` dictionaries per `$classname`, less the objects the mapping adds: `TSClassReference`,
    /// `TSGroup`, and the `NSAttributes` array of an attributed string written with
    /// `NSAttributeInfo`.
    static func keyedCounts(_ archive: PlistValue) -> [String: Int] {
        let list = KeyedTestSupport.objects(archive)
        var counts: [String: Int] = [:]
        for entry in list where entry["$class"] != nil {
            let names = KeyedTestSupport.classes(of: entry, in: archive)
            let name = names.first ?? "?"
            if !addedClasses.contains(name) { counts[name, default: 0] += 1 }
            if name.hasSuffix("AttributedString"), entry["NSAttributeInfo"] != nil,
               let array = KeyedTestSupport.resolve(entry["NSAttributes"], in: archive) {
                counts[KeyedTestSupport.classes(of: array, in: archive).first ?? "?", default: 0] -= 1
            }
        }
        return counts.filter { $0.value != 0 }
    }

    @Test(.needsCorpus) func everyCorpusObjectIsOneEntry() throws {
        let files = Corpus.wellFormedFiles()
        #expect(!files.isEmpty)
        var failed: [String] = []
        var worst = (name: "", ratio: 0.0)
        var plists: [PlistValue] = [], binaries: [[UInt8]] = [], names: [String] = []
        for (name, bytes) in files {
            let binary: [UInt8]
            do { binary = try KeyedArchiveExporter.binary(typedstream: bytes) } catch {
                failed.append("\(name): \(error)")
                continue
            }
            let archive = try KeyedArchiveImporter.plist(from: binary)
            let archived = try Self.archivedCounts(bytes)
            let keyed = Self.keyedCounts(archive)
            let differing = Set(archived.keys).union(keyed.keys).filter { archived[$0] != keyed[$0] }.sorted()
            #expect(differing.isEmpty, "\(name): \(differing.map { "\($0) \(archived[$0] ?? 0) archived, \(keyed[$0] ?? 0) keyed" })")
            let ratio = Double(binary.count) / Double(bytes.count)
            #expect(ratio <= 20, "\(name): \(bytes.count) bytes became \(binary.count)")
            if ratio > worst.ratio { worst = (name, ratio) }
            names.append(name)
            plists.append(archive)
            binaries.append(binary)
        }
        #expect(failed.isEmpty, "\(failed)")
        #expect(names.count > 90)
        print("keyed export of \(names.count) corpus files: largest binary plist / typedstream ratio \(worst.ratio) (\(worst.name))")
        guard KeyedTestSupport.hasPython else { print("skipped plistlib: python3 not available"); return }
        let read = try #require(try KeyedTestSupport.readWithPlistlib(binaries))
        for (name, (plist, read)) in zip(names, zip(plists, read)) {
            #expect(read == plist, "\(name): plistlib reads another plist")
        }
    }

    /// The UIDs anywhere in `value` except its own `$class`.
    private static func uids(in value: PlistValue?) -> [UInt32] {
        var found: [UInt32] = []
        var pending: [PlistValue] = []
        if case .dictionary(let entries)? = value { pending = entries.filter { $0.key != "$class" }.map(\.value) }
        while let next = pending.popLast() {
            switch next {
            case .uid(let uid): found.append(uid)
            case .array(let items): pending.append(contentsOf: items)
            case .dictionary(let entries): pending.append(contentsOf: entries.map(\.value))
            default: break
            }
        }
        return found
    }

    @Test func objectsInAListAreTheObjectsElsewhere() throws {
        // A List (a typed codec without a keyed layout) holding an object the root also holds,
        // and itself.
        let shared = StringObject("shared", mutable: true)
        let list = ListObject([shared])
        list.elements.append(list)
        let archive = try KeyedArchiveExporter.export(root: ArrayObject([list, shared]))
        guard case .array(let refs)? = KeyedTestSupport.root(archive)?["NS.objects"], refs.count == 2,
              case .uid(let listUID) = refs[0], case .uid(let sharedUID) = refs[1] else {
            Issue.record("root is not an array of two objects")
            return
        }
        let entry = KeyedTestSupport.resolve(.uid(listUID), in: archive)
        #expect(KeyedTestSupport.classes(of: entry, in: archive).first == "List")
        let inside = Self.uids(in: entry)
        #expect(inside.contains(sharedUID))
        #expect(inside.contains(listUID))
        let strings = KeyedTestSupport.objects(archive).filter { KeyedTestSupport.classes(of: $0, in: archive).first == "NSMutableString" }
        #expect(strings.count == 1)
    }

    @Test func aTypedStreamListSharesItsObjects() throws {
        // The same graph archived first: exported from the bytes, the List decodes generically.
        let shared = StringObject("shared", mutable: true)
        let list = ListObject([shared])
        let bytes = try Archiver.archivedBytes(withRootObject: ArrayObject([list, shared, list]))
        let archive = try KeyedArchiveExporter.export(typedstream: bytes)
        #expect(Self.keyedCounts(archive) == ["NSArray": 1, "List": 1, "NSMutableString": 1])
    }
}
