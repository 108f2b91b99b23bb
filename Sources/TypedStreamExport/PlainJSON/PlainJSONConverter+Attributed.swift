import TypedStream
import TypedStreamFoundation

/// Attributed strings written straight from the window: an `NSAttributedString` of the usual
/// shape — a new string, then `"iI"` runs each with a new `NSDictionary` of string keys and
/// number, string or absolute URL values the first time its number appears — gives the very JSON its typed
/// decoding gives (``FoundationPlainJSON/json(_:)`` of its ``NaturalValue``), read from its
/// tokens without a graph, a decoder or Foundation objects. Any other shape, and any object
/// the expansion budget could refuse, takes the hook's way.
extension PlainJSONConverter {
    /// The most entries, over all its runs, an attributed string written this way may hold
    /// (each run repeats its dictionary's entries in the JSON).
    static let attributedEntryLimit = 1 << 16

    /// Writes the attributed string in `slot`, whose `new` is at `start` of the window, as its
    /// typed decoding's natural value, and returns true; returns false having written nothing
    /// when its shape is not the usual one.
    mutating func writeAttributedFromWindow(_ slot: Int, start: Int, sink: inout OutputWriter) -> Bool {
        guard context.overBudget == nil, slot >= 0, slot < substituted.count, !context.selfReferenced.contains(slot),
              context.expandsWithinLimit(slot), let value = attributedJSON(start: start) else { return false }
        out.value(options.nestedArchives?.deepened(value, options: options) ?? value, &sink)
        substituted[slot] = true
        keepFinished(value, of: slot)
        return true
    }

    /// `{"string", "runs": [{"location", "length", "attributes"}]}` for the attributed string
    /// whose `new` is at `start`, or `nil` when its shape is not the usual one.
    mutating func attributedJSON(start: Int) -> JSONValue? {
        guard var i = afterClass(ofObjectAt: start, accepted: .attributed) else { return nil }
        // The string: a new one of the usual shape.
        guard isOneAtGroup(at: i), let stringToken = stream.item(i + 1), stringToken.form == .new,
              let (text, afterString) = newStringText(at: i + 1) else { return nil }
        i = afterString
        let total = UTF16Length.ofText(text)
        // The runs, until their lengths cover the string.
        var dictionaries: [JSONValue] = []
        var runs: [JSONValue] = []
        var covered = 0
        var entries = 0
        while covered < total {
            guard let types = stream.item(i), types.code == .typeString, bytes[types.payload].elementsEqual("iI".utf8),
                  let number = stream.item(i + 1), number.code == .integer, let length = stream.item(i + 2), length.code == .integer,
                  length.value >= 0, length.value <= Int64(total - covered) else { return nil }
            i += 3
            let attributes: JSONValue
            if number.value >= 1, number.value <= Int64(dictionaries.count) {
                attributes = dictionaries[Int(number.value) - 1]
            } else if number.value == Int64(dictionaries.count) + 1, isOneAtGroup(at: i), let token = stream.item(i + 1) {
                if token.form == .null {
                    attributes = .object([])
                    i += 2
                } else {
                    guard token.form == .new, let (dictionary, after) = attributeDictionary(at: i + 1) else { return nil }
                    attributes = dictionary
                    i = after
                }
                dictionaries.append(attributes)
            } else {
                return nil
            }
            if case .object(let members) = attributes { entries += members.count }
            guard entries <= Self.attributedEntryLimit else { return nil }
            runs.append(.object([JSONMember("location", .integer(covered)), JSONMember("length", .integer(length.value)),
                                 JSONMember("attributes", attributes)]))
            covered += Int(length.value)
        }
        guard let end = stream.item(i), end.code == .endOfObject else { return nil }
        return .object([JSONMember("string", .string(String(decoding: text, as: UTF8.self))), JSONMember("runs", .array(runs))])
    }

    /// The attribute dictionary whose `new` is at `position`, as the typed decoding's JSON of
    /// it, and the position after its end of object; `nil` unless every key is a string and
    /// every value a new number, string or absolute URL, or nil.
    mutating func attributeDictionary(at position: Int) -> (JSONValue, Int)? {
        guard var i = afterClass(ofObjectAt: position, accepted: .dictionary) else { return nil }
        guard let countType = stream.item(i), countType.code == .typeString, bytes[countType.payload].elementsEqual("i".utf8),
              let count = stream.item(i + 1), count.code == .integer, count.value >= 0, count.value <= Int64(Self.attributedEntryLimit) else { return nil }
        i += 2
        var members: [JSONMember] = []
        for _ in 0..<Int(count.value) {
            guard isOneAtGroup(at: i), let keyToken = stream.item(i + 1), keyToken.code == .object else { return nil }
            let key: String
            switch keyToken.form {
            case .new:
                guard let (text, after) = newStringText(at: i + 1) else { return nil }
                key = String(decoding: text, as: UTF8.self)
                i = after
            case .reference:
                guard let text = referencedStringText(Int(keyToken.slot)) else { return nil }
                key = text
                i += 2
            default:
                return nil
            }
            guard isOneAtGroup(at: i), let valueToken = stream.item(i + 1), valueToken.code == .object else { return nil }
            let value: JSONValue
            if valueToken.form == .null {
                value = .null
                i += 2
            } else {
                guard valueToken.form == .new, let (json, after) = attributeValue(at: i + 1) else { return nil }
                value = json
                i = after
            }
            members.append(JSONMember(key, value))
        }
        guard let end = stream.item(i), end.code == .endOfObject else { return nil }
        return (.object(members), i + 1)
    }

    /// The JSON of the new number, string or absolute URL at `position` and the position after it, as its
    /// typed decoding gives; `nil` for any other object or shape.
    mutating func attributeValue(at position: Int) -> (JSONValue, Int)? {
        guard let link = stream.item(position + 1), link.code == .classLink, link.form != .null else { return nil }
        switch directKind(classSlot: Int(link.slot)) {
        case .string:
            guard let (text, after) = newStringText(at: position) else { return nil }
            return (.string(String(decoding: text, as: UTF8.self)), after)
        case .number:
            guard let shape = Self.leafShape(linkIsNew: link.form == .new, { stream.item(position + 2 + $0) }),
                  let json = usualNumberJSON(shape) else { return nil }
            return (json, position + 2 + shape.count)
        case .url:
            return urlValue(at: position)
        default:
            return nil
        }
    }

    /// The JSON of the new absolute URL at `position` — an
    /// `NSURL` of the usual shape, a `"c"` 0 then a new string — as its typed decoding gives
    /// (``FoundationPlainJSON/urlJSON(_:)``), and the position after it; `nil` for any other shape.
    mutating func urlValue(at position: Int) -> (JSONValue, Int)? {
        guard let i = afterClass(ofObjectAt: position, accepted: .url) else { return nil }
        guard let flagType = stream.item(i), flagType.code == .typeString, bytes[flagType.payload].elementsEqual("c".utf8),
              let flag = stream.item(i + 1), flag.code == .byte, flag.value == 0,
              isOneAtGroup(at: i + 2), let stringToken = stream.item(i + 3), stringToken.code == .object, stringToken.form == .new,
              let (text, after) = newStringText(at: i + 3),
              let end = stream.item(after), end.code == .endOfObject else { return nil }
        return (FoundationPlainJSON.urlJSON(String(decoding: text, as: UTF8.self)), after + 1)
    }

    /// The position after the class of the object whose `new` is at `position` (its first class
    /// link, and the rest of its chain when that link is new), when the class's codec is the
    /// `kind` the direct path writes; `nil` otherwise.
    mutating func afterClass(ofObjectAt position: Int, accepted kind: DirectKind) -> Int? {
        guard let link = stream.item(position + 1), link.code == .classLink, link.form != .null,
              codecAccepts(classSlot: Int(link.slot), kind) else { return nil }
        guard link.form == .new else { return position + 2 }
        return Self.afterChain(from: position + 2, { stream.item($0) })
    }

    /// The text of the new string at `position` when its class's codec reads it as a string of
    /// the usual shape (valid UTF-8), and the position after its end of object.
    mutating func newStringText(at position: Int) -> (ArraySlice<UInt8>, Int)? {
        guard let link = stream.item(position + 1), link.code == .classLink, link.form != .null,
              codecAccepts(classSlot: Int(link.slot), .string),
              let shape = Self.leafShape(linkIsNew: link.form == .new, { stream.item(position + 2 + $0) }),
              let text = usualStringText(shape) else { return nil }
        return (text, position + 2 + shape.count)
    }

    /// The text of the string object in `slot` met before (read again from its view), when its
    /// codec reads it as a string of the usual shape; remembered per slot.
    mutating func referencedStringText(_ slot: Int) -> String? {
        if let known = referencedTexts[slot] { return known }
        guard index.kind(ofSlot: slot) == .object, let object = view(slot), codecAccepts(classSlot: object.classSlot, .string),
              object.groups.count == 1, let text = leafUTF8(object, group: 0),
              object.groups[0].typeString?.elementsEqual("+".utf8) == true,
              object.items[object.groups[0].items.lowerBound].code == .unsharedString else { return nil }
        let string = String(decoding: text, as: UTF8.self)
        if referencedTexts.count < 1 << 12 { referencedTexts[slot] = string }
        return string
    }

    /// Whether the token at `position` is the type string `"@"`.
    func isOneAtGroup(at position: Int) -> Bool {
        guard let token = stream.item(position), token.code == .typeString else { return false }
        return token.payloadEnd - token.payloadStart == 1 && bytes[Int(token.payloadStart)] == UInt8(ascii: "@")
    }

    /// The position after the rest of a new class's chain that starts at `position` (its
    /// superclass links, to the first that is not new).
    static func afterChain(from position: Int, _ item: (Int) -> PlainItem?) -> Int? {
        var i = position
        while true {
            guard let next = item(i), next.code == .classLink else { return nil }
            i += 1
            if next.form != .new { return i }
        }
    }

    /// Whether the class in `classSlot` is one `kind`'s Foundation codec reads (typed) with
    /// its chain's versions as that codec accepts them (asked once per class).
    mutating func codecAccepts(classSlot: Int, _ kind: DirectKind) -> Bool {
        guard classSlot >= 0, classSlot < codecChecks.count, directKind(classSlot: classSlot) == kind,
              options.foundationDirect?.attributed == true else { return false }
        let known = codecChecks[classSlot]
        if known != 0 { return known == 1 }
        let accepted: Bool
        switch kind {
        case .string: accepted = context.chainVersions(classSlot: classSlot, within: [("NSString", 1...1)])
        case .dictionary: accepted = context.chainVersions(classSlot: classSlot, within: [("NSMutableDictionary", 0...0), ("NSDictionary", 0...0)])
        case .attributed: accepted = context.chainVersions(classSlot: classSlot, within: [("NSMutableAttributedString", 0...0), ("NSAttributedString", 0...0)])
        case .url: accepted = context.chainVersions(classSlot: classSlot, within: [("NSURL", 0...0)])
        default: accepted = false
        }
        codecChecks[classSlot] = accepted ? 1 : 2
        return accepted
    }
}
