import Foundation
import TypedStream
import TypedStreamFoundation
import TypedStreamExport
import TestSupport

/// Helpers for the keyed-archive tests: reading exports back with Foundation's own
/// NSKeyedUnarchiver and with Python's plistlib, and comparing what comes back with the
/// natural value of the typedstream.
enum KeyedTestSupport {
    /// The shared corpus folder (``SharedCorpus``), or nil when it is absent.
    static var corpusDirectory: URL? { SharedCorpus.folderIfAvailable }

    /// The `*.typedstream` files of one corpus folder as (name, bytes), sorted; nil when the
    /// corpus is absent.
    static func corpusFiles(_ folder: String) -> [(name: String, bytes: [UInt8])]? {
        guard let corpus = corpusDirectory else { return nil }
        let directory = corpus.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".typedstream") }.sorted().compactMap { name in
            FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { (name, [UInt8]($0)) }
        }
    }

    /// The `$objects` array of an exported archive.
    static func objects(_ archive: PlistValue) -> [PlistValue] {
        guard case .array(let list)? = archive["$objects"] else { return [] }
        return list
    }

    /// The entry a UID points at (`nil` for anything else or out of range).
    static func resolve(_ ref: PlistValue?, in archive: PlistValue) -> PlistValue? {
        guard case .uid(let uid)? = ref else { return nil }
        let list = objects(archive)
        return Int(uid) < list.count ? list[Int(uid)] : nil
    }

    /// The root entry of an exported archive.
    static func root(_ archive: PlistValue) -> PlistValue? {
        resolve(archive["$top"]?["root"], in: archive)
    }

    /// The `$classes` of an object entry.
    static func classes(of entry: PlistValue?, in archive: PlistValue) -> [String] {
        guard case .array(let names)? = resolve(entry?["$class"], in: archive)?["$classes"] else { return [] }
        return names.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    /// Opens a keyed archive with Foundation's NSKeyedUnarchiver (secure coding off) and returns
    /// the root object. Throws the unarchiver's error.
    static func unarchive(_ bytes: [UInt8]) throws -> Any? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        if let error = unarchiver.error { throw error }
        unarchiver.finishDecoding()
        return root
    }

    // MARK: - Comparing with natural values

    /// Why `object` (what NSKeyedUnarchiver gave) differs from `natural`, or nil when it matches.
    static func mismatch(_ object: Any?, _ natural: NaturalValue, path: String = "root") -> String? {
        func fail(_ what: String) -> String { "\(path): expected \(what), got \(String(describing: object))" }
        switch natural {
        case .string(let s):
            return (object as? NSString).map { String(describing: $0) } == s ? nil : fail("string \(s.debugDescription)")
        case .data(let d):
            return (object as? NSData).map { Data(referencing: $0) } == d ? nil : fail("data \(d)")
        case .date(let d):
            return (object as? NSDate)?.timeIntervalSinceReferenceDate == d.timeIntervalSinceReferenceDate ? nil : fail("date \(d)")
        case .url(let u):
            return (object as? NSURL)?.absoluteString == u.absoluteString ? nil : fail("URL \(u.absoluteString)")
        case .bool(let b):
            return (object as? NSNumber)?.boolValue == b ? nil : fail("bool \(b)")
        case .number(let n):
            guard let number = object as? NSNumber else { return fail("number \(n)") }
            let same: Bool
            switch n {
            case .int(let v): same = number.int64Value == v
            case .uint(let v): same = number.uint64Value == v
            case .float(let f): same = number.floatValue == f
            case .double(let d): same = number.doubleValue == d
            case .bool(let b): same = number.boolValue == b
            }
            return same ? nil : fail("number \(n)")
        case .geometry(let g):
            guard let value = object as? NSValue else { return fail("NSValue \(g)") }
            func close(_ a: Double, _ b: Double) -> Bool { a == b || Float(a) == Float(b) }
            switch g {
            case .point(let x, let y):
                let p = value.pointValue
                return close(Double(p.x), x) && close(Double(p.y), y) ? nil : fail("point \(g)")
            case .size(let w, let h):
                let s = value.sizeValue
                return close(Double(s.width), w) && close(Double(s.height), h) ? nil : fail("size \(g)")
            case .rect(let x, let y, let w, let h):
                let r = value.rectValue
                return close(Double(r.origin.x), x) && close(Double(r.origin.y), y)
                    && close(Double(r.size.width), w) && close(Double(r.size.height), h) ? nil : fail("rect \(g)")
            case .range(let location, let length):
                let r = value.rangeValue
                return UInt64(r.location) == location && UInt64(r.length) == length ? nil : fail("range \(g)")
            }
        case .array(let items):
            guard let array = object as? NSArray, array.count == items.count else { return fail("array of \(items.count)") }
            for (i, item) in items.enumerated() {
                if let m = mismatch(array[i], item, path: "\(path)[\(i)]") { return m }
            }
            return nil
        case .set(let items):
            guard let set = object as? NSSet, set.count == items.count else { return fail("set of \(items.count)") }
            let members = set.allObjects
            for (i, item) in items.enumerated() where !members.contains(where: { mismatch($0, item) == nil }) {
                return "\(path){\(i)}: no member matches \(item)"
            }
            return nil
        case .dictionary(let entries):
            guard let dictionary = object as? NSDictionary else { return fail("dictionary") }
            var lastIndex: [String: Int] = [:]
            for (i, e) in entries.enumerated() { lastIndex["\(e.key)"] = i }
            guard dictionary.count == lastIndex.count else { return fail("dictionary of \(lastIndex.count)") }
            for i in lastIndex.values.sorted() {
                let entry = entries[i]
                guard let key = dictionary.allKeys.first(where: { mismatch($0, entry.key) == nil }) else {
                    return "\(path): no key matches \(entry.key)"
                }
                if let m = mismatch(dictionary.object(forKey: key), entry.value, path: "\(path)[\(entry.key)]") { return m }
            }
            return nil
        case .null:
            return object is NSNull ? nil : fail("NSNull")
        case .nilObject:
            return object == nil ? nil : fail("nil")
        case .attributedString(let text):
            guard let attributed = object as? NSAttributedString else { return fail("attributed string") }
            guard attributed.string == text.string else { return fail("text \(text.string.debugDescription)") }
            for run in text.runs where !run.range.isEmpty {
                let attributes = attributed.attributes(at: run.range.lowerBound, effectiveRange: nil)
                let asDictionary = NSDictionary(dictionary: Dictionary(uniqueKeysWithValues: attributes.map { ($0.key.rawValue, $0.value) }))
                if let m = mismatch(asDictionary, .dictionary(run.attributes), path: "\(path)@\(run.range)") { return m }
            }
            return nil
        case .object(let className, _):
            return "\(path): a \(className) object cannot be compared"
        }
    }

    // MARK: - Python's plistlib

    /// Loads each file with Python's plistlib, in one python3 process, and returns what it read as
    /// ``PlistValue``s (XML `CF$UID` dictionaries become UIDs; nil for a value that cannot be
    /// converted), or nil when python3 is not available.
    static func readWithPlistlib(_ files: [[UInt8]]) throws -> [PlistValue?]? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (i, bytes) in files.enumerated() {
            let file = directory.appendingPathComponent("\(i).plist")
            try Data(bytes).write(to: file)
            paths.append(file.path)
        }
        let script = """
        import json, plistlib, struct, sys
        def tag(v):
            if isinstance(v, bool): return ["b", v]
            if isinstance(v, plistlib.UID): return ["u", v.data]
            if isinstance(v, int): return ["i", v]
            if isinstance(v, float): return ["r", struct.pack(">d", v).hex()]
            if isinstance(v, str): return ["s", v]
            if isinstance(v, (bytes, bytearray)): return ["d", bytes(v).hex()]
            if isinstance(v, list): return ["a", [tag(x) for x in v]]
            if isinstance(v, dict):
                if list(v.keys()) == ["CF$UID"] and isinstance(v["CF$UID"], int): return ["u", v["CF$UID"]]
                return ["D", [[k, tag(x)] for k, x in v.items()]]
            raise TypeError(type(v))
        out = []
        for path in sys.argv[1:]:
            with open(path, "rb") as f: out.append(tag(plistlib.load(f)))
        print(json.dumps(out))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + paths
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 127 { return nil }
        guard process.terminationStatus == 0 else {
            throw KeyedArchiveError(.badObject, "plistlib failed with status \(process.terminationStatus)")
        }
        guard let list = try JSONSerialization.jsonObject(with: data) as? [Any], list.count == files.count else {
            throw KeyedArchiveError(.badObject, "plistlib printed something unexpected")
        }
        return list.map(plistValue(fromTagged:))
    }

    /// Whether python3 runs at all.
    static let hasPython: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import plistlib"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    private static func bits(_ hex: Any) -> UInt64? {
        (hex as? String).flatMap { UInt64($0, radix: 16) }
    }

    private static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    private static func plistValue(fromTagged node: Any) -> PlistValue? {
        guard let pair = node as? [Any], pair.count == 2, let tag = pair[0] as? String else { return nil }
        let payload = pair[1]
        switch tag {
        case "b": return (payload as? NSNumber).map { .bool($0.boolValue) }
        case "u": return (payload as? NSNumber).map { .uid($0.uint32Value) }
        case "i": return (payload as? NSNumber).map { .integer($0.int64Value) }
        case "r": return bits(payload).map { .real(Double(bitPattern: $0)) }
        case "s": return (payload as? String).map(PlistValue.string)
        case "d": return (payload as? String).map { .data(bytes(hex: $0)) }
        case "a":
            guard let items = payload as? [Any] else { return nil }
            let values = items.compactMap(plistValue(fromTagged:))
            return values.count == items.count ? .array(values) : nil
        case "D":
            guard let items = payload as? [[Any]] else { return nil }
            var entries: [PlistEntry] = []
            for item in items {
                guard item.count == 2, let key = item[0] as? String, let value = plistValue(fromTagged: item[1]) else { return nil }
                entries.append(PlistEntry(key, value))
            }
            return .dictionary(entries)
        default: return nil
        }
    }
}
