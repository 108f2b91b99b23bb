import ObjCTypeEncoding
import TypedStream

/// Records written from the window: the objects of a class whose record form answers from the
/// group type strings alone (``RecordForm/plainJSONFollowsTypesOnly``) are not each given a view
/// and put to the form. The form is asked once per shape — the class, its group type strings and
/// the kinds of its own tokens — with the view of the first object of that shape; each later
/// object of the same shape gets the same natural value and the same groups, and only its own
/// tokens are copied from the window. What is written from them is what the hook's way writes.
extension PlainJSONConverter {
    /// The last shape met of one record class, and what its form answered for it.
    struct RecordShape {
        /// The shape: per group its type string's shared-string number (as `-1 - n`), then per own
        /// token of the group its code (as its raw value).
        var signature: [Int64]
        /// The groups of every object of this shape (their types, and where their values are).
        var groups: [PlainJSONObject.Group]
        /// What the form gives for this shape; `nil` when it declined (the hook's way is taken).
        var natural: PlainJSON.Natural?
        /// ``natural`` as steps, when it is made of members, values and elements only.
        var steps: [RecordStep]?
    }

    /// One step of writing a record's natural value (``RecordShape/steps``): what
    /// ``writeNatural(_:of:sink:)`` does for it, with the places of its values worked out once
    /// for the shape.
    enum RecordStep {
        /// Opens an object of this many members.
        case beginObject(Int)
        /// A member name.
        case key(String)
        /// Closes the object.
        case end
        /// A finished value.
        case json(JSONValue)
        /// `null`.
        case null
        /// The value starting at this item of the object, of this type; `drains` as a group
        /// value written alone does.
        case value(item: Int, type: ObjCType?, drains: Bool)
    }

    /// The steps of `natural` for objects shaped as `object`, appended to `steps`; false when
    /// it holds anything but members, finished values, values and elements.
    func recordSteps(_ natural: PlainJSON.Natural, of object: PlainJSONObject, into steps: inout [RecordStep]) -> Bool {
        switch natural {
        case .json(let value):
            steps.append(.json(value))
        case .null:
            steps.append(.null)
        case .object(let members):
            steps.append(.beginObject(members.count))
            for member in members {
                steps.append(.key(member.name))
                guard recordSteps(member.value, of: object, into: &steps) else { return false }
            }
            steps.append(.end)
        case .value(let group, let index):
            // As ``writeNatural(_:of:sink:)`` and ``convertValues(of:group:writing:sink:)``.
            guard group >= 0, group < object.groups.count, index >= 0, index < object.groups[group].valueCount else {
                steps.append(.null)
                return true
            }
            if let item = object.itemIndex(group: group, value: index) {
                steps.append(.value(item: item, type: object.groups[group].types[index].unqualified, drains: true))
            }
        case .element(let group, let index, let element):
            guard let (item, type) = Self.elementPlace(of: object, group: group, index: index, element: element) else {
                steps.append(.null)
                return true
            }
            steps.append(.value(item: item, type: type, drains: false))
        case .values, .dictionary, .genericAfter:
            return false
        }
        return true
    }

    /// Writes `steps` for `object`.
    mutating func writeSteps(_ steps: [RecordStep], of object: PlainJSONObject, sink: inout OutputWriter) throws(ArchiveJSONError) {
        for step in steps {
            switch step {
            case .beginObject(let count): out.beginObject(memberCount: count, &sink)
            case .key(let name): out.key(name)
            case .end: out.end(&sink)
            case .json(let value): out.value(options.nestedArchives?.deepened(value, options: options) ?? value, &sink)
            case .null: out.null()
            case .value(let item, let type, let drains):
                var at = item
                try convertValue(object, at: &at, type: type, sink: &sink)
                if drains { out.drainIfLarge(into: &sink) }
            }
        }
    }

    /// The view of the object in `slot` and its natural value when its class is a record class
    /// (``DirectKind/record``) and its shape has been met before and answered; otherwise `nil`,
    /// having asked the form for the shape when it is new (the caller then takes the hook's way).
    mutating func recordFromWindow(_ slot: Int) -> (object: PlainJSONObject, natural: PlainJSON.Natural, steps: [RecordStep]?)? {
        guard let start = stream.start(ofSlot: slot), let link = stream.item(start + 1),
              link.code == .classLink, link.form != .null else { return nil }
        let classSlot = Int(link.slot)
        guard directKind(classSlot: classSlot) == .record, let end = Optional(stream.end(ofNew: start)), end > start else { return nil }
        // The rest of the chain (as the view's builder reads it).
        var i = start + 2
        if link.form == .new {
            guard let after = Self.afterChain(from: i, { stream.item($0) }) else { return nil }
            i = after
        }
        recordSignature.removeAll(keepingCapacity: true)
        var items: [PlainItem] = []
        items.reserveCapacity(end - i)
        var groups = 0
        while i < end, let item = stream.item(i) {
            switch item.code {
            case .typeString:
                recordSignature.append(-1 - item.value)
                groups += 1
                i += 1
                continue
            case .instanceSize, .header:
                i += 1
                continue
            // Untyped groups and class values (whose superclasses the builder reads past) are
            // left to the view.
            case .untypedGroup, .classLink, .endOfObject:
                return nil
            default:
                break
            }
            guard groups > 0 else { return nil }
            items.append(item)
            recordSignature.append(Int64(item.code.rawValue))
            if item.code == .object, item.form == .new {
                let inner = stream.end(ofNew: i)
                guard inner > i else { return nil }
                i = inner + 1
            } else {
                i += 1
            }
        }
        guard i == end else { return nil }
        if let known = recordShapes[classSlot], known.signature == recordSignature {
            guard let natural = known.natural else { return nil }
            let object = PlainJSONObject(slot: slot, classSlot: classSlot, classNameBytes: index.text(ofSlot: classSlot) ?? [],
                                         groups: known.groups, items: items)
            return (object, natural, known.steps)
        }
        // A new shape: the form is asked with the object's view; the answer holds for the shape
        // when the view is what the tokens above make.
        guard let object = view(slot), object.classSlot == classSlot, object.groups.count == groups,
              object.items.count == items.count, zip(object.items, items).allSatisfy({ $0.code == $1.code && $0.form == $1.form }),
              let form = options.recordForms.form(forClassNameBytes: object.classNameBytes) else { return nil }
        let natural = form.plainJSON(object, context: context)
        var steps: [RecordStep]? = []
        if let natural, !recordSteps(natural, of: object, into: &steps!) { steps = nil }
        if recordShapes.count < 1 << 10 || recordShapes[classSlot] != nil {
            recordShapes[classSlot] = RecordShape(signature: recordSignature, groups: object.groups, natural: natural, steps: steps)
        }
        return natural.map { (object, $0, steps) }
    }
}
