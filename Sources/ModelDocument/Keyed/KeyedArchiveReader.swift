import TypedStream
import TypedStreamExport

/// Reads our keyed classes (``Album``, the Model documents' `ModelDocument` and `Model`) from
/// keyed archive bytes without Foundation: the property list through the bounded readers
/// (`BinaryPlistReader`, `XMLPlistReader`), its structure through `KeyedArchiveGraph` with
/// cycles refused, then each object by its `$classname` and keys. Untrusted bytes never reach
/// `NSKeyedUnarchiver`.
///
/// A keyed archive names each string and data once and refers to it by UID, so many objects can
/// share one big value. The strings and data handed out may not pass
/// `PlistLimits.expandedBytes(forInputOf:)` (64 bytes per input byte plus 1 MiB).
///
/// Errors are ``ModelDocumentError`` `keyedArchive`, one line naming the object and key
/// (`keyed archive: $objects[7].md_rt "{1, 2}" is not a rectangle "{{x, y}, {w, h}}"`).
final class KeyedArchiveReader {
    /// One object entry of the archive: its UID, its keys and its class name.
    struct Object {
        var uid: UInt32
        var value: PlistValue
        var className: String
        var place: String { "$objects[\(uid)]" }
    }

    let graph: KeyedArchiveGraph
    let path: String?
    private let budget: Int
    private var handedOut = 0

    /// Reads and checks `bytes`. Throws ``ModelDocumentError`` `keyedArchive`.
    init(_ bytes: [UInt8], path: String?) throws(ModelDocumentError) {
        self.path = path
        budget = PlistLimits.default.expandedBytes(forInputOf: bytes.count)
        var options = KeyedArchiveGraph.Options()
        options.allowsCycles = false
        options.maximumDepth = DecodingLimits.default.maximumNesting
        do {
            graph = try KeyedArchiveGraph(KeyedArchiveImporter.plist(from: bytes), options: options)
        } catch {
            throw ModelDocumentError(.keyedArchive, path: path, offset: error.offset, error.reason)
        }
    }

    func error(_ reason: String) -> ModelDocumentError {
        ModelDocumentError(.keyedArchive, path: path, "keyed archive: " + reason)
    }

    /// The object `$top.root` refers to.
    func root() throws(ModelDocumentError) -> Object {
        guard let ref = graph.top.first(where: { $0.key == "root" })?.value else { throw error("$top has no root") }
        return try object(ref, at: "$top.root")
    }

    /// The object a UID refers to; `$null` and entries that are not objects are errors.
    func object(_ ref: PlistValue, at place: String) throws(ModelDocumentError) -> Object {
        guard case .uid(let uid) = ref else { throw error("\(place) is \(KeyedArchiveGraph.kind(of: ref)), not a UID") }
        let value = graph.objects[Int(uid)]
        guard uid != 0 else { throw error("\(place) is $null, not an object") }
        guard let names = graph.classNames(of: value) else {
            throw error("\(place) refers to $objects[\(uid)], \(KeyedArchiveGraph.kind(of: value)), not an object with a $class")
        }
        return Object(uid: uid, value: value, className: names[0])
    }

    /// The objects of an `NSArray` / `NSMutableArray` (its `NS.objects`), checked to be of `className`.
    func arrayElements(_ array: Object, of className: String) throws(ModelDocumentError) -> [Object] {
        guard array.className == "NSArray" || array.className == "NSMutableArray" else {
            throw error("\(array.place) is of class \(KeyedArchiveGraph.excerpt(array.className)), not NSArray")
        }
        guard case .array(let refs)? = array.value["NS.objects"] else { throw error("\(array.place).NS.objects is not an array") }
        var elements: [Object] = []
        elements.reserveCapacity(refs.count)
        for (index, ref) in refs.enumerated() {
            let place = "\(array.place).NS.objects[\(index)]"
            let element = try object(ref, at: place)
            guard element.className == className else {
                throw error("\(place) refers to $objects[\(element.uid)] of class \(KeyedArchiveGraph.excerpt(element.className)), not \(className)")
            }
            elements.append(element)
        }
        return elements
    }

    /// Counts `bytes` of strings and data against the budget.
    func charge(_ bytes: Int, at place: String) throws(ModelDocumentError) {
        handedOut += bytes
        guard handedOut <= budget else {
            throw error("the strings and data read pass \(budget) bytes at \(place): objects share values too often (at most 64 bytes per input byte plus 1 MiB)")
        }
    }

    /// The keyed values of `object`.
    func values(of object: Object) -> Values { Values(reader: self, object: object) }

    /// The keys of one object, read as `NSCoder` would: strings and data by UID (plain or
    /// `NS.string` / `NS.data` objects), integers inline.
    struct Values: KeyedValues {
        let reader: KeyedArchiveReader
        let object: Object

        func contains(_ key: String) -> Bool { object.value[key] != nil }

        func invalid(_ key: String, _ reason: String) -> ModelDocumentError {
            reader.error("\(object.place)\(KeyedArchiveGraph.keyComponent(key)) \(reason)")
        }

        /// The entry `key`'s UID refers to; nil when the key is absent or `$null`.
        private func target(_ key: String) throws(ModelDocumentError) -> PlistValue? {
            guard let ref = object.value[key] else { return nil }
            guard case .uid(let uid) = ref else { throw invalid(key, "is \(KeyedArchiveGraph.kind(of: ref)), not a UID") }
            return uid == 0 ? nil : reader.graph.objects[Int(uid)]
        }

        func string(_ key: String) throws(ModelDocumentError) -> String? {
            guard let value = try target(key) else { return nil }
            var text: String?
            if case .string(let s) = value { text = s }
            if let names = reader.graph.classNames(of: value), names[0] == "NSString" || names[0] == "NSMutableString",
               case .string(let s)? = value["NS.string"] { text = s }
            guard let text else { throw invalid(key, "refers to \(KeyedArchiveGraph.kind(of: value)), not a string") }
            try reader.charge(text.utf8.count, at: object.place + KeyedArchiveGraph.keyComponent(key))
            return text
        }

        func data(_ key: String) throws(ModelDocumentError) -> [UInt8]? {
            guard let value = try target(key) else { return nil }
            var bytes: [UInt8]?
            if case .data(let d) = value { bytes = d }
            if let names = reader.graph.classNames(of: value), names[0] == "NSData" || names[0] == "NSMutableData",
               case .data(let d)? = value["NS.data"] { bytes = d }
            guard let bytes else { throw invalid(key, "refers to \(KeyedArchiveGraph.kind(of: value)), not data") }
            try reader.charge(bytes.count, at: object.place + KeyedArchiveGraph.keyComponent(key))
            return bytes
        }

        func integer(_ key: String) throws(ModelDocumentError) -> Int? {
            guard let value = object.value[key] else { return nil }
            guard case .integer(let v) = value else { throw invalid(key, "is \(KeyedArchiveGraph.kind(of: value)), not an integer") }
            return Int(v)
        }
    }
}
