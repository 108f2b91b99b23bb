import TypedStream
import TypedStreamFoundation

/// Objects written straight from their tokens: Foundation's `NSString` and `NSNumber` of the
/// usual shape (one or two groups of one leaf each) are recognised by their tokens — read ahead
/// in the stream (``PlainJSONStream/peek(_:)``) or found in the window — and their natural value
/// written without a view (``PlainJSONObject``) or a call to the hook. What is written is what the
/// hook's way writes for them (``FoundationPlainJSON/natural(_:_:registry:)``); every other shape
/// takes that way.
extension PlainJSONConverter {
    /// What a class's objects may be written as without a view (per class slot, asked once).
    enum DirectKind: UInt8 {
        case unknown = 0
        /// The hook's way.
        case none
        /// ``PlainJSON/Options/arrayClasses``: written as they are read (``streamObject(_:link:sink:)``).
        case array
        /// `NSString`, `NSMutableString`: their text.
        case string
        /// `NSNumber` (NSNumber and NSValue at version 0): its number.
        case number
        /// `NSDictionary`, `NSMutableDictionary`: its keys and values.
        case dictionary
        /// `NSAttributedString`, `NSMutableAttributedString`: its string and runs
        /// (`PlainJSONConverter+Attributed.swift`).
        case attributed
        /// `NSURL` (met as an attribute value).
        case url
        /// A class whose record form answers from its group type strings alone: written with the
        /// natural value its shape was given (`PlainJSONConverter+Records.swift`).
        case record
    }

    /// The tokens of a simple object after its first class link: the rest of its chain, then at
    /// most two groups of one leaf value each, then its end of object.
    struct LeafShape {
        var groupCount = 0
        var type0 = PlainItem.empty
        var value0 = PlainItem.empty
        var type1 = PlainItem.empty
        var value1 = PlainItem.empty
        /// Tokens from the one after the first class link to the end of object, inclusive.
        var count = 0
    }

    /// The kind of the objects of the class in `classSlot`.
    mutating func directKind(classSlot: Int) -> DirectKind {
        guard classSlot >= 0, classSlot < classKinds.count else { return .none }
        let known = classKinds[classSlot]
        if known != 0 { return DirectKind(rawValue: known) ?? .none }
        var kind = DirectKind.none
        if let name = index.text(ofSlot: classSlot), let form = options.recordForms.form(forClassNameBytes: name) {
            if form.plainJSONFollowsTypesOnly { kind = .record }
        } else if options.naturalValue != nil, let name = index.text(ofSlot: classSlot) {
            if !arrayClassNames.isEmpty, arrayClassNames.contains(Array(name)) {
                kind = .array
            } else if let direct = options.foundationDirect {
                if name.elementsEqual("NSString".utf8) || name.elementsEqual("NSMutableString".utf8) {
                    kind = .string
                } else if name.elementsEqual("NSDictionary".utf8) || name.elementsEqual("NSMutableDictionary".utf8) {
                    kind = .dictionary
                } else if direct.attributed, name.elementsEqual("NSAttributedString".utf8) || name.elementsEqual("NSMutableAttributedString".utf8) {
                    kind = .attributed
                } else if direct.attributed, name.elementsEqual("NSURL".utf8) {
                    kind = .url
                } else if direct.numbers, name.elementsEqual("NSNumber".utf8),
                          context.chainVersionsAreZero(classSlot: classSlot, for: ["NSNumber", "NSValue"]) {
                    kind = .number
                }
            }
        }
        classKinds[classSlot] = kind.rawValue
        return kind
    }

    /// The shape of the object whose first class link (new when `linkIsNew`) came just before
    /// `item(0)`; `nil` when it is not a simple one.
    @inline(__always)
    static func leafShape(linkIsNew: Bool, _ item: (Int) -> PlainItem?) -> LeafShape? {
        var shape = LeafShape()
        var i = 0
        if linkIsNew {
            while true {
                guard let link = item(i), link.code == .classLink else { return nil }
                i += 1
                if link.form != .new { break }
            }
        }
        while true {
            guard let token = item(i) else { return nil }
            if token.code == .endOfObject {
                shape.count = i + 1
                return shape
            }
            guard token.code == .typeString, shape.groupCount < 2, let value = item(i + 1) else { return nil }
            switch value.code {
            case .integer, .float, .double, .byte, .unsharedString, .sharedString, .cString: break
            default: return nil
            }
            if shape.groupCount == 0 {
                shape.type0 = token
                shape.value0 = value
            } else {
                shape.type1 = token
                shape.value1 = value
            }
            shape.groupCount += 1
            i += 2
        }
    }

    /// Writes the natural value of the new object in `slot` of `kind` (``DirectKind/string`` or
    /// ``DirectKind/number``) from `shape`, as the hook's way would, and returns true; returns
    /// false having written nothing when the shape is not the usual one. The caller has made
    /// the checks ``convertObject(_:sink:)`` makes before the view (first occurrence, depth).
    mutating func writeDirect(_ slot: Int, kind: DirectKind, _ shape: LeafShape, sink: inout OutputWriter) -> Bool {
        guard context.overBudget == nil, slot >= 0, slot < substituted.count else { return false }
        switch kind {
        case .string:
            guard let text = usualStringText(shape) else { return false }
            if !context.referenced[slot] {
                out.string(utf8: text)
            } else {
                let leaf = JSONValue.string(String(decoding: text, as: UTF8.self))
                out.value(leaf, &sink)
                keepFinished(leaf, of: slot)
            }
            substituted[slot] = true
            return true
        case .number:
            guard let number = usualNumber(shape) else { return false }
            if context.referenced[slot] {
                // Kept for its repeats as JSON (a number holds nothing ``NestedArchives`` deepens).
                let json = Self.numberJSON(number)
                out.value(json, &sink)
                keepFinished(json, of: slot)
            } else {
                writeNumber(number)
            }
            substituted[slot] = true
            return true
        case .unknown, .none, .array, .dictionary, .attributed, .url, .record:
            return false
        }
    }

    /// The JSON of a number object of the usual shape (``usualNumber(_:)``); `nil` for any other.
    func usualNumberJSON(_ shape: LeafShape) -> JSONValue? {
        usualNumber(shape).map(Self.numberJSON)
    }

    /// The JSON of `number` as the hook's way gives it (a `BOOL` a boolean).
    static func numberJSON(_ number: NumberValue) -> JSONValue {
        if case .bool(let b) = number { return .bool(b) }
        return FoundationPlainJSON.json(.number(number))
    }

    /// Writes `number` as ``numberJSON(_:)`` gives it, its digits straight to the text.
    mutating func writeNumber(_ number: NumberValue) {
        switch number {
        case .bool(let b): out.bool(b)
        case .int(let v): out.integer(v)
        case .uint(let v): out.unsigned(v)
        case .float(let v): if v.isFinite { out.number(v.description) } else { writeNonFinite(Double(v)) }
        case .double(let v): if v.isFinite { out.number(v.description) } else { writeNonFinite(v) }
        }
    }

    /// The number of a number object of the usual shape — a `"*"` objCType, then one value of
    /// exactly that type — as ``NumberObject`` reads it; `nil` for any other shape, or a value
    /// that is no number of its objCType.
    func usualNumber(_ shape: LeafShape) -> NumberValue? {
        guard shape.groupCount == 2, shape.type0.payloadEnd - shape.type0.payloadStart == 1,
              bytes[Int(shape.type0.payloadStart)] == UInt8(ascii: "*"),
              shape.value0.code == .cString, shape.value0.form != .null else { return nil }
        let objCType = shape.value0.form == .reference ? index.text(ofSlot: Int(shape.value0.slot)) ?? [] : bytes[shape.value0.payload]
        guard bytes[shape.type1.payload].elementsEqual(objCType), let value = context.leafValue(shape.value1) else { return nil }
        return NumberObject.number(value, objCType: String(decoding: objCType, as: UTF8.self))
    }

    /// Writes the new object in `slot`, whose `new` and first class link `link` were just read
    /// from the stream, straight from its tokens when it is a simple string or number (the
    /// tokens are then passed over); false, having read and written nothing, otherwise.
    mutating func writeDirectStreamed(_ slot: Int, link: CompactToken, kind: DirectKind, sink: inout OutputWriter) -> Bool {
        guard repeating == 0, depth < maximumNesting else { return false }
        let linkIsNew = link.form == .new
        guard let shape = Self.leafShape(linkIsNew: linkIsNew, { stream.peek($0).map(PlainItem.init) }) else { return false }
        guard writeDirect(slot, kind: kind, shape, sink: &sink) else { return false }
        stream.advance(shape.count)
        return true
    }

    /// ``writeDirect(_:kind:_:sink:)`` for an object whose tokens are in the window.
    mutating func writeDirectFromWindow(_ slot: Int, sink: inout OutputWriter) throws(ArchiveJSONError) -> Bool {
        guard repeating == 0, let start = stream.start(ofSlot: slot), let link = stream.item(start + 1),
              link.code == .classLink, link.form != .null else { return false }
        let kind = directKind(classSlot: Int(link.slot))
        if kind == .dictionary { return try writeDictionaryFromWindow(slot, start: start, sink: &sink) }
        if kind == .attributed { return writeAttributedFromWindow(slot, start: start, sink: &sink) }
        guard kind == .string || kind == .number else { return false }
        guard let shape = Self.leafShape(linkIsNew: link.form == .new, { stream.item(start + 2 + $0) }) else { return false }
        return writeDirect(slot, kind: kind, shape, sink: &sink)
    }

    /// The text a key object in the window will convert to, when that is sure without a view:
    /// a new string of the usual shape, or an object already written whose kept value is a
    /// string (what ``predictedString(_:_:_:)`` gives for them); `nil` otherwise.
    mutating func directKey(_ token: PlainItem, at position: Int) -> String? {
        let slot = Int(token.slot)
        guard token.code == .object, token.form != .null, index.kind(ofSlot: slot) == .object,
              slot >= 0, slot < ids.count, ids[slot] == 0, !inProgress[slot] else { return nil }
        if token.form == .reference {
            if case .string(let s)? = finished[slot] { return s }
            return nil
        }
        guard let link = stream.item(position + 1), link.code == .classLink, link.form != .null,
              directKind(classSlot: Int(link.slot)) == .string,
              let shape = Self.leafShape(linkIsNew: link.form == .new, { stream.item(position + 2 + $0) }),
              let text = usualStringText(shape) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The text of a string object of the usual shape — one `"+"` group holding valid UTF-8 —
    /// or `nil` for any other shape.
    func usualStringText(_ shape: LeafShape) -> ArraySlice<UInt8>? {
        guard shape.groupCount == 1, shape.type0.payloadEnd - shape.type0.payloadStart == 1,
              bytes[Int(shape.type0.payloadStart)] == UInt8(ascii: "+"),
              shape.value0.code == .unsharedString, shape.value0.form != .null else { return nil }
        let text = bytes[shape.value0.payload]
        return ByteText.isValidUTF8(text) ? text : nil
    }

    /// Writes the dictionary in `slot`, whose `new` is at `start` of the window, as the hook's
    /// way writes it (``PlainJSON/Natural/dictionary(fromGroup:)`` from group 1) when its shape is
    /// the usual one — a first group of one integer, then one `@` group per key and per value,
    /// every key a string sure without a view (``directKey(_:at:)``), no key twice, nothing in it
    /// referring back to it — and returns true; else returns false having written nothing.
    mutating func writeDictionaryFromWindow(_ slot: Int, start: Int, sink: inout OutputWriter) throws(ArchiveJSONError) -> Bool {
        guard context.overBudget == nil, slot >= 0, slot < substituted.count, !context.selfReferenced.contains(slot),
              let link = stream.item(start + 1) else { return false }
        var i = start + 2
        if link.form == .new {
            while true {
                guard let next = stream.item(i), next.code == .classLink else { return false }
                i += 1
                if next.form != .new { break }
            }
        }
        // The first group: one integer (the count), not written.
        guard let countType = stream.item(i), countType.code == .typeString, let count = stream.item(i + 1), count.code == .integer,
              let afterCount = stream.item(i + 2), afterCount.code == .typeString || afterCount.code == .endOfObject else { return false }
        i += 2
        // The entries: `@` groups of one object each, in the window's positions.
        var places: [Int] = []
        while true {
            guard let token = stream.item(i) else { return false }
            if token.code == .endOfObject { break }
            guard token.code == .typeString, token.payloadEnd - token.payloadStart == 1, bytes[Int(token.payloadStart)] == UInt8(ascii: "@"),
                  let value = stream.item(i + 1), value.code == .object else { return false }
            places.append(i + 1)
            if value.form == .new {
                let end = stream.end(ofNew: i + 1)
                guard end > i + 1 else { return false }
                i = end + 1
            } else {
                i += 2
            }
        }
        guard places.count % 2 == 0 else { return false }
        var keys: [String] = []
        keys.reserveCapacity(places.count / 2)
        // Repeated keys: compared one by one while there are few, through a set beyond.
        var seen = Set<String>()
        for pair in stride(from: 0, to: places.count, by: 2) {
            guard let key = directKey(stream.item(places[pair])!, at: places[pair]),
                  keys.count < 32 ? !keys.contains(key) : seen.isEmpty ? Self.startSet(&seen, keys, key) : seen.insert(key).inserted else { return false }
            keys.append(key)
        }
        inProgress[slot] = true
        out.beginObject(memberCount: places.count / 2, &sink)
        for (n, place) in places.enumerated() {
            let token = stream.item(place)!
            if n % 2 == 0 {
                out.mute()
                try convertObject(Int(token.slot), sink: &sink)
                out.unmute()
                out.key(keys[n / 2])
            } else if token.form == .null {
                out.null()
            } else if index.kind(ofSlot: Int(token.slot)) == .class {
                writeClassObject(Int(token.slot), &sink)
            } else {
                try convertObject(Int(token.slot), sink: &sink)
            }
            out.drainIfLarge(into: &sink)
        }
        out.end(&sink)
        inProgress[slot] = false
        substituted[slot] = true
        return true
    }
}
