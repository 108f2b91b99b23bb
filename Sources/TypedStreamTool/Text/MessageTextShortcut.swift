import TypedStream
import TypedStreamFoundation

/// The text of a message body read straight off its checked tokens, without making objects:
/// what `typedstream text` (without `--runs`) takes for a body of the usual shape, leaving
/// every other body to the typed decode (``MessageText/Decoder``).
///
/// The body is first checked whole as the typed decode checks it (``ArchiveIndex``, every
/// token, reference and class chain), then its tokens are read again in one walk and looked at.
/// The shortcut gives the text only when the archive is one top-level `"@"` group holding a new `NSString` /
/// `NSMutableString`, or a new `NSAttributedString` / `NSMutableAttributedString` whose string
/// is a new `NSString` / `NSMutableString` (each with exactly its codec's class chain and
/// versions, its bytes in one `"+"` group) followed by `"iI"` runs that cover the string's
/// UTF-16 length, each dictionary number known or the next, each new one a nil or a new
/// `NSDictionary` / `NSMutableDictionary`, and nothing after. It answers `nil` for anything
/// else — a damaged body included, or one over ``largestBody`` bytes — and the typed decode
/// then gives the text or the error (code and offset) it always gave.
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
        var name: Range<Int>
        var version: Int64
        var superclass: Int
    }

    /// A class chain as the codecs declare it, names as bytes.
    private typealias Chain = [(name: [UInt8], version: Int64)]

    /// `links` with their names as bytes.
    private static func chain(_ links: [ArchiveClassLink]) -> Chain { links.map { (Array($0.name.utf8), $0.version) } }
    /// The chains each codec reads, immutable and mutable.
    private static let strings = [chain(StringObject.immutableChain), chain(StringObject.mutableChain)]
    private static let attributedStrings = [chain(AttributedStringObject.immutableChain), chain(AttributedStringObject.mutableChain)]
    private static let dictionaries = [chain(DictionaryObject.immutableChain), chain(DictionaryObject.mutableChain)]

    /// The largest body taken (message bodies are a few hundred bytes): the tokens are held
    /// all at once, so a larger archive goes to the typed decode rather than to an array of
    /// millions of tokens.
    static let largestBody = 1 << 16

    /// The classes of the body being read, by slot (reused from one body to the next).
    private var classes: [ClassEntry?] = []
    /// The body's bytes.
    private var bytes: [UInt8] = []
    /// The body's tokens, and the next one to take.
    private var tokens: [CompactToken] = []
    private var next = 0

    /// The text of the body `bytes`, or `nil` when it is not of the usual shape (or not
    /// well formed). `compiled` gains the type strings the body's index compiles, as the
    /// typed decode's would.
    mutating func text(of bytes: [UInt8], compiled: inout CompiledTypeStrings) -> String? {
        guard bytes.count <= Self.largestBody, bytes.first == 4, let index = try? ArchiveIndex(bytes: bytes, compiled: &compiled),
              index.header.streamerVersion == 4, index.topLevelGroupOffsets.count == 1 else { return nil }
        var reader = TokenReader(bytes: bytes, compiled: compiled)
        guard let tokens = try? reader.readAllCompact() else { return nil }
        self.bytes = bytes
        self.tokens = tokens
        next = 0
        classes.removeAll(keepingCapacity: true)
        classes.append(contentsOf: repeatElement(nil, count: index.slotCount))
        return try? read()
    }

    /// Why the shortcut stops (never seen outside: the caller gets `nil`).
    private struct NotUsual: Error {}

    /// Reads the whole body from its header.
    private mutating func read() throws(NotUsual) -> String {
        _ = try take(.header)
        let root = try newObjectInGroup()
        let text: ArraySlice<UInt8>
        if matches(root, Self.strings) {
            text = try stringContents()
        } else if matches(root, Self.attributedStrings) {
            // (The chain is read before `matches` is called: an argument that mutates `self`
            // would not be seen by a method value taken first.)
            let string = try newObjectInGroup()
            guard matches(string, Self.strings) else { throw NotUsual() }
            text = try stringContents()
            try skipRuns(total: StringObject.utf16Count(of: text))
            _ = try take(.endOfObject)
        } else {
            throw NotUsual()
        }
        guard next == tokens.count else { throw NotUsual() }
        return String(decoding: text, as: UTF8.self)
    }

    /// The next token, which must have code `code`.
    private mutating func take(_ code: CompactToken.Code) throws(NotUsual) -> CompactToken {
        guard next < tokens.count, tokens[next].code == code else { throw NotUsual() }
        next += 1
        return tokens[next - 1]
    }

    /// Takes a group's type string, which must be the one letter `letter`.
    private mutating func typeString(_ letter: UInt8) throws(NotUsual) {
        let payload = try take(.typeString).payload
        guard payload.count == 1, bytes[payload.lowerBound] == letter else { throw NotUsual() }
    }

    /// Takes an `"@"` group holding a new object and its class chain; returns the slot of the
    /// object's class.
    private mutating func newObjectInGroup() throws(NotUsual) -> Int {
        try typeString(UInt8(ascii: "@"))
        guard try take(.object).form == .new else { throw NotUsual() }
        return try classChain(startingWith: take(.classLink))
    }

    /// Reads the class chain whose first link is `link`, noting new classes and their
    /// superclasses; returns the slot of its first class.
    private mutating func classChain(startingWith link: CompactToken) throws(NotUsual) -> Int {
        var link = link
        var first: Int?
        var previous: Int?
        while true {
            let slot: Int?
            switch link.form {
            case .new:
                guard link.slot >= 0, link.slot < classes.count else { throw NotUsual() }
                classes[link.slot] = ClassEntry(name: link.payload, version: link.value, superclass: -1)
                slot = link.slot
            case .reference:
                guard entry(link.slot) != nil else { throw NotUsual() }
                slot = link.slot
            default:
                slot = nil
            }
            if let previous, let slot { classes[previous]?.superclass = slot }
            if first == nil { first = slot }
            guard let slot, link.form == .new else { break }
            previous = slot
            link = try take(.classLink)
        }
        guard let first else { throw NotUsual() }
        return first
    }

    /// The class noted at `slot`.
    private func entry(_ slot: Int) -> ClassEntry? {
        slot >= 0 && slot < classes.count ? classes[slot] : nil
    }

    /// Whether the chain starting at class `slot` is exactly one of `chains` (names and versions).
    private func matches(_ slot: Int, _ chains: [Chain]) -> Bool {
        chains.contains { chain in
            var current = slot
            for link in chain {
                guard let found = entry(current), found.version == link.version,
                      bytes[found.name].elementsEqual(link.name) else { return false }
                current = found.superclass
            }
            return current == -1
        }
    }

    /// Reads a string object's contents after its chain: one `"+"` group and the end of the
    /// object. Returns the bytes (empty for NULL, as the codec takes it).
    private mutating func stringContents() throws(NotUsual) -> ArraySlice<UInt8> {
        try typeString(UInt8(ascii: "+"))
        let value = try take(.unsharedString)
        _ = try take(.endOfObject)
        return value.form == .null ? [] : bytes[value.payload]
    }

    /// Reads the runs of an attributed string of `total` UTF-16 units, skipping the tokens of
    /// each attribute dictionary.
    private mutating func skipRuns(total: Int) throws(NotUsual) {
        var covered = 0
        var dictionaries = 0
        while covered < total {
            let group = try take(.typeString).payload
            guard bytes[group].elementsEqual("iI".utf8) else { throw NotUsual() }
            let number = try take(.integer).value
            let length = try take(.integer).value
            guard length >= 0, length <= Int64(total - covered) else { throw NotUsual() }
            if number < 1 || number > Int64(dictionaries) {
                guard number == Int64(dictionaries) + 1 else { throw NotUsual() }
                try skipDictionary()
                dictionaries += 1
            }
            covered += Int(length)
        }
    }

    /// Takes an `"@"` group holding nil or a new dictionary, and skips the dictionary's
    /// contents (every nested object to its end-of-object marker).
    private mutating func skipDictionary() throws(NotUsual) {
        try typeString(UInt8(ascii: "@"))
        let object = try take(.object)
        if object.form == .null { return }
        guard object.form == .new else { throw NotUsual() }
        let chain = try classChain(startingWith: take(.classLink))
        guard matches(chain, Self.dictionaries) else { throw NotUsual() }
        var open = 1
        while open > 0 {
            guard next < tokens.count else { throw NotUsual() }
            let token = tokens[next]
            next += 1
            switch token.code {
            case .object where token.form == .new:
                open += 1
            case .endOfObject:
                open -= 1
            case .classLink:
                _ = try classChain(startingWith: token)
            default:
                break
            }
        }
    }
}
