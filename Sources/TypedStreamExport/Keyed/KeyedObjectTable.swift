/// The `$objects` table of a keyed archive being exported, kept as ``PlistCode`` (a few dozen
/// bytes per object) rather than a ``PlistValue`` per object, until the binary plist is written
/// from it (``BinaryPlistWriter/writeKeyedArchive(top:objects:to:)``).
///
/// An entry is added when its UID is given — as a placeholder (`"$null"`) for an object whose
/// keys are still being written — and set once its keys are known.
struct KeyedObjectTable {
    /// The codes of the entries, in the order they were set.
    private(set) var code: [UInt8] = []
    /// Where each entry's code starts in ``code`` (`-1`: a placeholder).
    private var starts: [Int] = []
    /// The dictionary keys, by number.
    private var keys: PlistCode.Keys? = PlistCode.Keys()
    /// The plain values (``appendPlain(_:)``), each stored once: the set's numbers are entry
    /// indices.
    private(set) var plainValues = PlistCodeSet()
    /// Whether each entry is a plain value in ``plainValues``.
    private(set) var isPlain: [Bool] = []
    /// The long strings objects hold in their keys, each stored once (its UTF-8 bytes' place in
    /// ``code``); a repeat is a copy of the first (see ``PlistCode``).
    private var longStrings = PlistCodeSet()
    /// The shortest string kept once in ``longStrings``.
    static let longStringLength = 1024

    /// The number of entries.
    var count: Int { starts.count }

    /// The key names the codes refer to by number.
    var keyNames: [String] { keys?.names ?? [] }

    /// Adds `value` as the next entry.
    mutating func append(_ value: PlistValue) {
        starts.append(code.count)
        isPlain.append(false)
        PlistCode.append(value, keys: &keys, to: &code)
    }

    /// The entry holding the plain value `value` (a string, number, data …): an earlier one
    /// with the same code, or a new last entry (`isNew`).
    mutating func appendPlain(_ value: PlistValue) -> (index: Int, isNew: Bool) {
        let start = code.count
        PlistCode.append(value, keys: &keys, to: &code)
        let count = code.count - start
        let (hash, known) = code.withUnsafeBytes { storage in
            let bytes = UnsafeRawBufferPointer(rebasing: storage[start...])
            let hash = PlistCodeSet.hash(bytes)
            return (hash, plainValues.find(bytes, hash: hash, in: storage))
        }
        if let known {
            code.removeLast(count)
            return (Int(plainValues.entries[known].value), false)
        }
        plainValues.insert(start: start, count: count, hash: hash, value: starts.count)
        starts.append(start)
        isPlain.append(true)
        return (starts.count - 1, true)
    }

    /// Adds a placeholder (`"$null"`) as the next entry.
    mutating func appendPlaceholder() {
        starts.append(-1)
        isPlain.append(false)
    }

    /// Sets entry `index` to the dictionary `{$class: classUID, fields…}`.
    mutating func setObject(_ index: Int, classReference: PlistValue, fields: ArraySlice<PlistEntry>) {
        starts[index] = code.count
        code.append(PlistCode.dictionary)
        PlistCode.appendVarint(fields.count + 1, to: &code)
        PlistCode.appendKey("$class", keys: &keys, to: &code)
        for field in fields { PlistCode.appendKey(field.key, keys: &keys, to: &code) }
        PlistCode.append(classReference, keys: &keys, to: &code)
        for field in fields {
            if case .string(let text) = field.value, text.utf8.count >= Self.longStringLength {
                appendLongString(text)
            } else {
                PlistCode.append(field.value, keys: &keys, to: &code)
            }
        }
    }

    /// Appends `text`, or a copy of where the same bytes already are.
    private mutating func appendLongString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let hash = PlistCodeSet.hash(bytes)
            if let known = code.withUnsafeBytes({ longStrings.find(bytes, hash: hash, in: $0) }) {
                PlistCode.appendStringCopy(of: longStrings.entries[known].start, count: utf8.count, to: &code)
            } else {
                let start = PlistCode.appendString(utf8: utf8, to: &code)
                longStrings.insert(start: start, count: utf8.count, hash: hash, value: 0)
            }
        }
    }

    /// Where the code of entry `index` starts, or `nil` for a placeholder.
    func start(of index: Int) -> Int? {
        starts[index] < 0 ? nil : starts[index]
    }

    /// The code of a placeholder: the string `"$null"`.
    static let placeholderCode: [UInt8] = {
        var out: [UInt8] = []
        PlistCode.appendString("$null", to: &out)
        return out
    }()

    /// Entry `index` as a ``PlistValue``.
    func value(_ index: Int) -> PlistValue {
        guard let start = start(of: index) else { return .string("$null") }
        var reader = PlistCode.Reader(code, at: start)
        return reader.value(keys: keyNames)
    }

    /// Every entry as a ``PlistValue``.
    var values: [PlistValue] { (0..<count).map(value) }
}
