import ObjCTypeEncoding
import TypedStream

/// The converter's front-to-back reading (``PlainJSONStream``): the top-level values, and the
/// objects of ``PlainJSON/Options/arrayClasses`` met where the reading is, are written as their
/// tokens are read; every other value is read whole into the window and converted from the
/// views of its objects. Objects met again elsewhere (references, repeats, objects passed over)
/// are read again from the bytes, as ``PlainJSONContext/object(_:)`` does.
extension PlainJSONConverter {
    /// The view of the object in `slot`: from the window when it is there, else read again.
    func view(_ slot: Int) -> PlainJSONObject? {
        stream.view(slot) ?? context.object(slot)
    }

    /// Converts the top-level values in order.
    mutating func convertTopLevel(sink: inout OutputWriter) throws(ArchiveJSONError) {
        var types: [ObjCType] = []
        var next = 0
        while let token = stream.next() {
            switch token.code {
            case .header, .instanceSize:
                continue
            case .typeString:
                types = stream.types(ofSharedString: token.textIndex)
                next = 0
                if sink.failed { return }
            case .untypedGroup:
                types = [.object(className: nil)]
                next = 0
                if sink.failed { return }
            default:
                let type = next < types.count ? types[next].unqualified : nil
                next += 1
                try convertStreamed(token, type: type, sink: &sink)
                out.drainIfLarge(into: &sink)
            }
        }
    }

    /// Converts the value that starts with `first`, read from the stream.
    mutating func convertStreamed(_ first: CompactToken, type: ObjCType?, sink: inout OutputWriter) throws(ArchiveJSONError) {
        switch first.code {
        case .object where first.form == .new:
            guard let link = stream.next() else { return out.null() }
            if link.code == .classLink, link.form != .null {
                let kind = directKind(classSlot: link.slot)
                if kind == .array { return try streamObject(first.slot, link: link, sink: &sink) }
                if kind == .string || kind == .number, writeDirectStreamed(first.slot, link: link, kind: kind, sink: &sink) { return }
            }
            stream.fill(object: first, link: link)
            defer { stream.clear() }
            try convertObject(first.slot, sink: &sink)
        case .object where first.form == .reference:
            // As ``convertValue(_:at:type:sink:)`` converts a reference.
            if index.kind(ofSlot: first.slot) == .class {
                writeClassObject(first.slot, &sink)
            } else {
                try convertObject(first.slot, sink: &sink)
            }
        default:
            stream.fill(first)
            defer { stream.clear() }
            let value = PlainJSONObject(slot: -1, classSlot: -1, classNameBytes: [], groups: [], items: stream.valueItems())
            var item = 0
            try convertValue(value, at: &item, type: type, sink: &sink)
        }
    }

    /// Writes the object in `slot` — of a class of ``PlainJSON/Options/arrayClasses``, its `new`
    /// and first class link `link` just read — as its natural value, the array of the values of
    /// its groups from the second on, as they are read (what ``convertObject(_:sink:)`` writes
    /// for it at its first occurrence).
    mutating func streamObject(_ slot: Int, link: CompactToken, sink: inout OutputWriter) throws(ArchiveJSONError) {
        if repeating > 0 { try checkBudget(slot) }
        guard nest() else {
            stream.skipObjectRest()
            return writeTooDeep(&sink)
        }
        defer { depth -= 1 }
        inProgress[slot] = true
        if let over = context.overBudget { throw expansionError(over) }
        let mayCycle = context.selfReferenced.contains(slot)
        if mayCycle { out.beginCapture() }
        out.beginArray(&sink)
        // The rest of the class chain.
        var chainLink = link
        while chainLink.form == .new, let next = stream.next(), next.code == .classLink { chainLink = next }
        var group = -1
        var types: [ObjCType] = []
        var next = 0
        while let token = stream.next() {
            switch token.code {
            case .endOfObject:
                break
            case .instanceSize:
                continue
            case .typeString:
                group += 1
                types = stream.types(ofSharedString: token.textIndex)
                next = 0
                continue
            case .untypedGroup:
                group += 1
                types = [.object(className: nil)]
                next = 0
                continue
            default:
                let type = next < types.count ? types[next].unqualified : nil
                next += 1
                if group >= 1 {
                    try convertStreamed(token, type: type, sink: &sink)
                    out.drainIfLarge(into: &sink)
                } else {
                    stream.skip(token)
                }
                continue
            }
            break
        }
        out.end(&sink)
        inProgress[slot] = false
        if referencedInProgress[slot] {
            out.endCapture(wrappingWith: slot)
        } else {
            if mayCycle { out.endCapture(wrappingWith: nil) }
            substituted[slot] = true
        }
    }
}
