import TypedStream
import TypedStreamFoundation

/// The reverse of ``KeyedArchiveExporter``: reads an `NSKeyedArchiver` archive (binary or XML)
/// and rebuilds the typedstream objects — Foundation classes, the classes of the
/// ``Options/recordForms`` given, and everything the exporter wrote generically (`TSGroups`,
/// `TSClassReference`, `TSGroup`) — so it can be written with the ordered coder again.
///
/// ```swift
/// let typedstream = try KeyedArchiveImporter.typedstream(fromKeyed: plistBytes)
/// ```
///
/// What a keyed archive does not say comes back as modern Foundation writes it: numbers get the
/// `objCType`s `q`, `d` and `c` (BOOL), geometry values the 64-bit `CGPoint`/`CGSize`/`CGRect`
/// spellings (see ``Options/geometryEncoding``), classes their codec's default versions, and
/// equal strings stored once in the keyed archive become one shared object. Archives of other
/// classes (written by Apple's NSKeyedArchiver for classes we have no layout for) are rejected.
public enum KeyedArchiveImporter {
    /// Import options.
    public struct Options: Hashable, Sendable {
        /// Spelling of rebuilt points, sizes, rectangles and ranges. Default `.cgFloat64`.
        public var geometryEncoding: GeometryEncoding = .cgFloat64
        /// Deepest nesting of objects accepted. Default 512.
        public var maximumDepth = 512
        /// The forms of classes without a codec here, for objects written in their own keys
        /// (no `TSGroups`): see ``RecordForm/decodeKeyed(_:)``. Default empty.
        public var recordForms = RecordForms()

        /// The defaults.
        public init() {}
    }

    /// The property list of a keyed archive file: `bplist00` bytes are read by
    /// ``BinaryPlistReader``, anything else by ``XMLPlistReader`` — both bounded by `limits`,
    /// neither by Foundation. Throws ``KeyedArchiveError`` `notAKeyedArchive`.
    public static func plist(from bytes: [UInt8], limits: PlistLimits = .default) throws(KeyedArchiveError) -> PlistValue {
        if ForeignFormat.recognise(bytes) == .binaryPropertyList { return try BinaryPlistReader.read(bytes, limits: limits) }
        return try XMLPlistReader.read(bytes, limits: limits)
    }

    /// The top-level items of a keyed archive: `root`, then `TSItem1`, `TSItem2` … in order.
    /// Throws ``KeyedArchiveError``.
    public static func topLevelItems(from archive: PlistValue, options: Options = Options()) throws(KeyedArchiveError) -> [TopLevelItem] {
        let decoder = try KeyedArchiveDecoder(archive, options: options)
        return try decoder.topLevelItems()
    }

    /// The root object of a keyed archive (nil when `root` is `$null`). Throws ``KeyedArchiveError``.
    public static func rootObject(from archive: PlistValue, options: Options = Options()) throws(KeyedArchiveError) -> AnyObject? {
        let decoder = try KeyedArchiveDecoder(archive, options: options)
        guard let root = archive["$top"]?["root"] else {
            throw KeyedArchiveError(.notAKeyedArchive, "$top has no root")
        }
        return try decoder.object(root)
    }

    /// The typedstream bytes of a keyed archive file's top-level items, written with `header`.
    /// Throws ``KeyedArchiveError`` (`invalidValue` coder failures become `badObject`).
    public static func typedstream(fromKeyed bytes: [UInt8], header: StreamHeader = .apple,
                                   options: Options = Options()) throws(KeyedArchiveError) -> [UInt8] {
        let items = try topLevelItems(from: plist(from: bytes), options: options)
        do {
            let archiver = Archiver(header: header)
            try archiver.encodeTopLevelItems(items)
            return try archiver.encodedBytes()
        } catch {
            throw KeyedArchiveError(.badObject, "cannot be written as a typedstream: \(error.description)")
        }
    }
}

/// Rebuilds objects from `$objects`, one instance per UID (shared and cyclic references stay so).
final class KeyedArchiveDecoder {
    let archive: PlistValue
    let objects: [PlistValue]
    let options: KeyedArchiveImporter.Options
    private var decoded: [UInt32: AnyObject] = [:]
    private var depth = 0
    /// What record forms may still copy (``KeyedRecordDecoder/chargeCopiedBytes(_:)``); worked
    /// out when first needed.
    private var copiedBytesLeft: Int?

    init(_ archive: PlistValue, options: KeyedArchiveImporter.Options) throws(KeyedArchiveError) {
        let graph = try KeyedArchiveGraph(archive)
        self.archive = archive
        self.objects = graph.objects
        self.options = options
    }

    /// Counts `count` bytes copied by a record form against the budget: 64 bytes per byte of
    /// the strings and data in `$objects` (and directly in their dictionaries) plus 1 MiB
    /// (``PlistLimits/default``). Throws `badObject` past it.
    func chargeCopiedBytes(_ count: Int, at place: String) throws(KeyedArchiveError) {
        let limits = PlistLimits.default
        var left = copiedBytesLeft ?? limits.expandedBytes(forInputOf: Self.textBytes(in: objects))
        left -= count
        copiedBytesLeft = left
        guard left >= 0 else {
            throw KeyedArchiveError(.badObject, "the strings and data copied pass the budget at \(place): objects share values too often (at most \(limits.expandedBytesPerInputByte) bytes per byte of the archive's strings and data plus \(limits.expandedBaseBytes))")
        }
    }

    /// The bytes of the strings and data in `objects` and directly in their dictionaries.
    private static func textBytes(in objects: [PlistValue]) -> Int {
        func size(_ value: PlistValue) -> Int {
            switch value {
            case .string(let text): text.utf8.count
            case .data(let bytes): bytes.count
            default: 0
            }
        }
        var total = 0
        for object in objects {
            if case .dictionary(let entries) = object {
                for entry in entries { total = PlistLimits.add(total, size(entry.value)) }
            } else {
                total = PlistLimits.add(total, size(object))
            }
        }
        return total
    }

    func topLevelItems() throws(KeyedArchiveError) -> [TopLevelItem] {
        guard case .dictionary(let top)? = archive["$top"] else { throw KeyedArchiveError(.notAKeyedArchive, "$top is missing") }
        var refs: [(Int, PlistValue)] = []
        for entry in top {
            if entry.key == "root" { refs.append((0, entry.value)); continue }
            guard entry.key.hasPrefix("TSItem"), let n = Int(entry.key.dropFirst(6)), n > 0 else { continue }
            refs.append((n, entry.value))
        }
        guard refs.contains(where: { $0.0 == 0 }) else { throw KeyedArchiveError(.notAKeyedArchive, "$top has no root") }
        var items: [TopLevelItem] = []
        for (_, ref) in refs.sorted(by: { $0.0 < $1.0 }) {
            if let group = try topLevelGroup(ref) { items.append(group); continue }
            items.append(.object(try object(ref)))
        }
        // A lone nil root is an archive of nothing at all.
        if items.count == 1, case .object(nil) = items[0] { return [] }
        return items
    }

    // MARK: - Entries

    /// The entry a UID points at. Throws `badReference`.
    func entry(_ ref: PlistValue) throws(KeyedArchiveError) -> (uid: UInt32, value: PlistValue) {
        guard case .uid(let uid) = ref else { throw KeyedArchiveError(.badReference, "expected a UID, found \(ref)") }
        guard Int(uid) < objects.count else { throw KeyedArchiveError(.badReference, "UID \(uid) is outside $objects (\(objects.count))") }
        return (uid, objects[Int(uid)])
    }

    /// `$classes` of an object entry. Throws `badObject`.
    func classNames(of value: PlistValue) throws(KeyedArchiveError) -> [String] {
        guard let ref = value["$class"], case .array(let names)? = try entry(ref).value["$classes"] else {
            throw KeyedArchiveError(.badObject, "an object has no $class with $classes")
        }
        let strings = names.compactMap { if case .string(let s) = $0 { s } else { nil } }
        guard !strings.isEmpty, strings.count == names.count else { throw KeyedArchiveError(.badObject, "$classes is not a list of names") }
        return strings
    }

    /// A string value, inline or by UID.
    func string(_ value: PlistValue?, _ what: String) throws(KeyedArchiveError) -> String {
        switch value {
        case .string(let s)?: return s
        case .uid(let uid)?:
            let target = try entry(.uid(uid)).value
            if case .string(let s) = target, uid != 0 { return s }
            if case .string(let s)? = target["NS.string"] { return s }
        default: break
        }
        throw KeyedArchiveError(.badObject, "\(what) is not a string")
    }

    /// An integer value, inline or by UID.
    func integer(_ value: PlistValue?, _ what: String) throws(KeyedArchiveError) -> Int64 {
        switch value {
        case .integer(let v)?: return v
        case .uid(let uid)?:
            if case .integer(let v) = try entry(.uid(uid)).value { return v }
        default: break
        }
        throw KeyedArchiveError(.badObject, "\(what) is not an integer")
    }

    /// Bytes, inline or by UID (plain data or an `NSMutableData` dictionary).
    func data(_ value: PlistValue?, _ what: String) throws(KeyedArchiveError) -> [UInt8] {
        switch value {
        case .data(let d)?: return d
        case .uid(let uid)?:
            let target = try entry(.uid(uid)).value
            if case .data(let d) = target { return d }
            if case .data(let d)? = target["NS.data"] { return d }
        default: break
        }
        throw KeyedArchiveError(.badObject, "\(what) is not data")
    }

    // MARK: - Objects

    /// The object a UID refers to (nil for UID 0), built the first time. Throws ``KeyedArchiveError``.
    func object(_ ref: PlistValue) throws(KeyedArchiveError) -> AnyObject? {
        let (uid, value) = try entry(ref)
        if uid == 0 { return nil }
        if let done = decoded[uid] { return done }
        guard depth < options.maximumDepth else { throw KeyedArchiveError(.tooDeep, "objects nested deeper than \(options.maximumDepth)") }
        depth += 1
        defer { depth -= 1 }
        switch value {
        case .string(let s): return remember(uid, StringObject(s))
        case .integer(let v): return remember(uid, NumberObject(int: v))
        case .real(let d): return remember(uid, NumberObject(double: d))
        case .bool(let b): return remember(uid, NumberObject(bool: b))
        case .data(let d): return remember(uid, DataObject(d))
        case .dictionary: return try classObject(uid, value)
        default: throw KeyedArchiveError(.badObject, "UID \(uid) holds \(value), which is not an object")
        }
    }

    /// Registers `object` for `uid` before its contents are read, so cycles resolve to it.
    @discardableResult
    func remember<T: AnyObject>(_ uid: UInt32, _ object: T) -> T {
        decoded[uid] = object
        return object
    }

    /// Objects of the elements of an `NS.objects` / `NS.keys` array.
    func objectList(_ value: PlistValue?, _ what: String) throws(KeyedArchiveError) -> [AnyObject?] {
        guard case .array(let refs)? = value else { throw KeyedArchiveError(.badObject, "\(what) is not an array") }
        var out: [AnyObject?] = []
        out.reserveCapacity(refs.count)
        for ref in refs { out.append(try object(ref)) }
        return out
    }

    private func classObject(_ uid: UInt32, _ value: PlistValue) throws(KeyedArchiveError) -> AnyObject {
        let names = try classNames(of: value)
        let name = names[0]
        let mutable = name.hasPrefix("NSMutable")
        switch name {
        case "NSString", "NSMutableString":
            return remember(uid, StringObject(try string(value["NS.string"], "NS.string"), mutable: mutable))
        case "NSData", "NSMutableData":
            return remember(uid, DataObject(try data(value["NS.data"], "NS.data"), mutable: mutable))
        case "NSDate":
            let time: Double
            switch value["NS.time"] {
            case .real(let d)?: time = d
            case .integer(let v)?: time = Double(v)
            default: throw KeyedArchiveError(.badObject, "NSDate has no NS.time")
            }
            return remember(uid, DateObject(timeIntervalSinceReferenceDate: time))
        case "NSArray", "NSMutableArray":
            let array = remember(uid, ArrayObject([], mutable: mutable))
            array.elements = try objectList(value["NS.objects"], "NS.objects")
            return array
        case "NSSet", "NSMutableSet":
            let set = remember(uid, SetObject([], mutable: mutable))
            set.elements = try objectList(value["NS.objects"], "NS.objects")
            return set
        case "NSDictionary", "NSMutableDictionary":
            let dictionary = remember(uid, DictionaryObject([], mutable: mutable))
            let keys = try objectList(value["NS.keys"], "NS.keys"), values = try objectList(value["NS.objects"], "NS.objects")
            guard keys.count == values.count else { throw KeyedArchiveError(.badObject, "NS.keys and NS.objects differ in length") }
            dictionary.entries = zip(keys, values).map { DictionaryObject.Entry(key: $0.0, value: $0.1) }
            return dictionary
        case "NSNull":
            return remember(uid, NullObject())
        case "NSObject", "Object":
            let plain = remember(uid, PlainObject())
            plain.archiveClassChain = [ArchiveClassLink(name, version: 0)]
            return plain
        case "NSURL":
            let url = remember(uid, URLObject())
            if let baseRef = value["NS.base"], let base = try object(baseRef) {
                guard let baseURL = base as? URLObject else { throw KeyedArchiveError(.badObject, "NS.base is not an NSURL") }
                url.base = baseURL
            }
            guard let relative = value["NS.relative"], let string = try object(relative) as? StringObject else {
                throw KeyedArchiveError(.badObject, "NSURL has no NS.relative string")
            }
            url.stringObject = string
            return url
        case "NSValue":
            return remember(uid, try valueObject(value))
        case "NSAttributedString", "NSMutableAttributedString":
            return try attributedString(uid, value, mutable: mutable)
        default:
            return try genericObject(uid, value, names: names)
        }
    }

    private func valueObject(_ value: PlistValue) throws(KeyedArchiveError) -> ValueObject {
        func numbers(_ key: String, _ count: Int) throws(KeyedArchiveError) -> [Double] {
            guard let n = GeometryText.numbers(in: try string(value[key], key)), n.count == count else {
                throw KeyedArchiveError(.badObject, "\(key) is not a geometry string of \(count) numbers")
            }
            return n
        }
        let encoding = options.geometryEncoding
        switch value["NS.special"] {
        case .integer(1)?:
            let n = try numbers("NS.pointval", 2)
            return ValueObject(.point(x: n[0], y: n[1]), encoding: encoding)
        case .integer(2)?:
            let n = try numbers("NS.sizeval", 2)
            return ValueObject(.size(width: n[0], height: n[1]), encoding: encoding)
        case .integer(3)?:
            let n = try numbers("NS.rectval", 4)
            return ValueObject(.rect(x: n[0], y: n[1], width: n[2], height: n[3]), encoding: encoding)
        case .integer(4)?:
            let location = try integer(value["NS.rangeval.location"], "NS.rangeval.location")
            let length = try integer(value["NS.rangeval.length"], "NS.rangeval.length")
            return ValueObject(.range(location: UInt64(bitPattern: location), length: UInt64(bitPattern: length)), encoding: encoding)
        case nil:
            let objCType = try string(value["$0"], "NSValue $0 (objCType)")
            let archived = try KeyedGroupImport.archivedValues([value["$1"] ?? .uid(0)], typeString: objCType, decoder: self)
            guard archived.objects.isEmpty else { throw KeyedArchiveError(.badObject, "NSValue objCType '\(objCType)' holds objects") }
            guard archived.values.count == 1 else { throw KeyedArchiveError(.badObject, "NSValue objCType '\(objCType)' is not one type") }
            return ValueObject(objCType: objCType, value: archived.values[0])
        case let special?:
            throw KeyedArchiveError(.badObject, "NSValue NS.special \(special) has no typedstream form")
        }
    }

    private func attributedString(_ uid: UInt32, _ value: PlistValue, mutable: Bool) throws(KeyedArchiveError) -> AttributedStringObject {
        let result = remember(uid, AttributedStringObject("", runs: [], mutable: mutable))
        guard let stringRef = value["NSString"], let string = try object(stringRef) as? StringObject else {
            throw KeyedArchiveError(.badObject, "NSAttributedString has no NSString string")
        }
        result.stringObject = string
        let total = string.utf16Count
        func dictionary(_ object: AnyObject?) throws(KeyedArchiveError) -> DictionaryObject {
            guard let d = object as? DictionaryObject else { throw KeyedArchiveError(.badObject, "an attribute dictionary is not an NSDictionary") }
            return d
        }
        guard let attributesRef = value["NSAttributes"] else {
            result.attributeRuns = total == 0 ? [] : [.init(length: total, attributes: DictionaryObject())]
            return result
        }
        let attributes = try object(attributesRef)
        guard value["NSAttributeInfo"] != nil else {
            result.attributeRuns = total == 0 ? [] : [.init(length: total, attributes: try dictionary(attributes))]
            return result
        }
        guard let list = attributes as? ArrayObject else { throw KeyedArchiveError(.badObject, "NSAttributes with NSAttributeInfo is not an array") }
        var dictionaries: [DictionaryObject] = []
        for element in list.elements { dictionaries.append(try dictionary(element)) }
        let info = try data(value["NSAttributeInfo"], "NSAttributeInfo")
        var index = 0, covered = 0
        var runs: [AttributedStringObject.Run] = []
        while index < info.count {
            guard let length = Varint.read(info, at: &index), let number = Varint.read(info, at: &index),
                  length <= UInt64(total - covered), number < UInt64(dictionaries.count) else {
                throw KeyedArchiveError(.badObject, "NSAttributeInfo run \(runs.count) is malformed or overflows the string")
            }
            runs.append(.init(length: Int(length), attributes: dictionaries[Int(number)]))
            covered += Int(length)
        }
        guard covered == total else { throw KeyedArchiveError(.badObject, "NSAttributeInfo covers \(covered) of \(total) UTF-16 units") }
        result.attributeRuns = runs
        return result
    }
}
