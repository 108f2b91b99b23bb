import TypedStream
import TypedStreamFoundation

/// The text of a message body read straight off its checked tokens, without making objects:
/// what `typedstream text` (without `--runs`) takes for a body of the usual shape, leaving
/// every other body to the typed decode (``MessageText/Decoder``).
///
/// The body is first checked whole as the typed decode checks it (``ArchiveIndex``, every
/// token, reference and class chain), then read again token by token. The shortcut gives the
/// text only when the archive is one top-level `"@"` group holding a new `NSString` /
/// `NSMutableString`, or a new `NSAttributedString` / `NSMutableAttributedString` whose string
/// is a new `NSString` / `NSMutableString` (each with exactly its codec's class chain and
/// versions, its bytes in one `"+"` group) followed by `"iI"` runs that cover the string's
/// UTF-16 length, each dictionary number known or the next, each new one a nil or a new
/// `NSDictionary` / `NSMutableDictionary`, and nothing after. It answers `nil` for anything
/// else — a damaged body included — and the typed decode then gives the text or the error
/// (code and offset) it always gave.
///
/// What it does not do is decode the attribute dictionaries' entries: their tokens are checked
/// by the index and skipped. A body whose attribute values are wrong for their classes (an
/// `NSNumber` with a type the codec refuses, say) therefore still gives its text here, as it
/// does not with `--runs`.
///
/// ```swift
/// var shortcut = MessageTextShortcut()
/// if let text = shortcut.text(of: body, compiled: &compiled) { print(text) }
/// ```
struct MessageTextShortcut {
    /// A class met in the body: where its name lies, its version, and its superclass's slot
    /// (`-1` for none, or not read yet).
    private struct ClassEntry {
        var slot: Int
        var name: Range<Int>
        var version: Int64
        var superclass: Int
    }

    /// The classes of the body being read (reused from one body to the next).
    private var classes: [ClassEntry] = []

    /// The text of the body `bytes`, or `nil` when it is not of the usual shape (or not
    /// well formed). `compiled` gains the type strings the body's index compiles, as the
    /// typed decode's would.
    mutating func text(of bytes: [UInt8], compiled: inout CompiledTypeStrings) -> String? {
        guard bytes.first == 4, let index = try? ArchiveIndex(bytes: bytes, compiled: &compiled),
              index.header.streamerVersion == 4, index.topLevelGroupOffsets.count == 1 else { return nil }
        classes.removeAll(keepingCapacity: true)
        source = bytes
        var reader = TokenReader(bytes: bytes, compiled: compiled)
        return try? read(&reader)
    }

    /// Why the shortcut stops (never seen outside: the caller gets `nil`).
    private struct NotUsual: Error {}

    /// Reads the whole body from its header.
    private mutating func read(_ reader: inout TokenReader) throws -> String {
        _ = try Self.next(&reader, .header)
        let root = try newObjectInGroup(&reader)
        let text: ArraySlice<UInt8>
        if matches(root, StringObject.immutableChain) || matches(root, StringObject.mutableChain) {
            text = try stringContents(&reader)
        } else if matches(root, AttributedStringObject.immutableChain) || matches(root, AttributedStringObject.mutableChain) {
            let string = try newObjectInGroup(&reader)
            guard matches(string, StringObject.immutableChain) || matches(string, StringObject.mutableChain) else { throw NotUsual() }
            text = try stringContents(&reader)
            try skipRuns(&reader, total: StringObject.utf16Count(of: text))
            _ = try Self.next(&reader, .endOfObject)
        } else {
            throw NotUsual()
        }
        guard try reader.nextCompact() == nil else { throw NotUsual() }
        return String(decoding: text, as: UTF8.self)
    }

    /// The next token, which must have code `code`.
    private static func next(_ reader: inout TokenReader, _ code: CompactToken.Code) throws -> CompactToken {
        guard let token = try reader.nextCompact(), token.code == code else { throw NotUsual() }
        return token
    }

    /// Takes a group's type string, which must be spelled `text`.
    private static func typeString(_ reader: inout TokenReader, _ text: StaticString) throws {
        let token = try next(&reader, .typeString)
        let spelled = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard reader.bytes[token.payload].elementsEqual(spelled) else { throw NotUsual() }
    }

    /// Takes an `"@"` group holding a new object and its class chain; returns the slot of the
    /// object's class.
    private mutating func newObjectInGroup(_ reader: inout TokenReader) throws -> Int {
        try Self.typeString(&reader, "@")
        let object = try Self.next(&reader, .object)
        guard object.form == .new else { throw NotUsual() }
        return try classChain(&reader)
    }

    /// Reads a class chain, noting new classes; returns the slot of its first class.
    private mutating func classChain(_ reader: inout TokenReader) throws -> Int {
        try classChain(startingWith: Self.next(&reader, .classLink), &reader)
    }

    /// Reads the class chain whose first link is `link`, noting new classes and their
    /// superclasses; returns the slot of its first class.
    private mutating func classChain(startingWith link: CompactToken, _ reader: inout TokenReader) throws -> Int {
        var link = link
        var first: Int?
        var previous: Int?
        while true {
            let slot: Int?
            switch link.form {
            case .new:
                classes.append(ClassEntry(slot: link.slot, name: link.payload, version: link.value, superclass: -1))
                slot = link.slot
            case .reference:
                guard entry(link.slot) != nil else { throw NotUsual() }
                slot = link.slot
            default:
                slot = nil
            }
            if let previous, let slot, let at = classes.firstIndex(where: { $0.slot == previous }) { classes[at].superclass = slot }
            if first == nil { first = slot }
            guard let slot, link.form == .new else { break }
            previous = slot
            link = try Self.next(&reader, .classLink)
        }
        guard let first else { throw NotUsual() }
        return first
    }

    /// The class noted at `slot`.
    private func entry(_ slot: Int) -> ClassEntry? {
        classes.first { $0.slot == slot }
    }

    /// Whether the chain starting at class `slot` is exactly `chain` (names and versions).
    private func matches(_ slot: Int, _ chain: [ArchiveClassLink]) -> Bool {
        // The bytes are the reader's; a slot's name range points into them.
        var current = slot
        for link in chain {
            guard let found = entry(current), found.version == link.version,
                  bytesOfName(found).elementsEqual(link.name.utf8) else { return false }
            current = found.superclass
        }
        return current == -1
    }

    /// The bytes every name range points into.
    private var source: [UInt8] = []

    /// The name of a noted class.
    private func bytesOfName(_ entry: ClassEntry) -> ArraySlice<UInt8> { source[entry.name] }

    /// Reads a string object's contents after its chain: one `"+"` group and the end of the
    /// object. Returns the bytes (empty for NULL, as the codec takes it).
    private func stringContents(_ reader: inout TokenReader) throws -> ArraySlice<UInt8> {
        try Self.typeString(&reader, "+")
        let value = try Self.next(&reader, .unsharedString)
        _ = try Self.next(&reader, .endOfObject)
        return value.form == .null ? [] : reader.bytes[value.payload]
    }

    /// Reads the runs of an attributed string of `total` UTF-16 units, skipping the tokens of
    /// each attribute dictionary.
    private mutating func skipRuns(_ reader: inout TokenReader, total: Int) throws {
        var covered = 0
        var dictionaries = 0
        while covered < total {
            try Self.typeString(&reader, "iI")
            let number = try Self.next(&reader, .integer).value
            let length = try Self.next(&reader, .integer).value
            guard length >= 0, length <= Int64(total - covered) else { throw NotUsual() }
            if number < 1 || number > Int64(dictionaries) {
                guard number == Int64(dictionaries) + 1 else { throw NotUsual() }
                try skipDictionary(&reader)
                dictionaries += 1
            }
            covered += Int(length)
        }
    }

    /// Takes an `"@"` group holding nil or a new dictionary, and skips the dictionary's
    /// contents (every nested object to its end-of-object marker).
    private mutating func skipDictionary(_ reader: inout TokenReader) throws {
        try Self.typeString(&reader, "@")
        let object = try Self.next(&reader, .object)
        if object.form == .null { return }
        guard object.form == .new else { throw NotUsual() }
        let chain = try classChain(&reader)
        guard matches(chain, DictionaryObject.immutableChain) || matches(chain, DictionaryObject.mutableChain) else { throw NotUsual() }
        var open = 1
        while open > 0 {
            guard let token = try reader.nextCompact() else { throw NotUsual() }
            switch token.code {
            case .object where token.form == .new:
                open += 1
            case .endOfObject:
                open -= 1
            case .classLink:
                _ = try classChain(startingWith: token, &reader)
            default:
                break
            }
        }
    }
}
