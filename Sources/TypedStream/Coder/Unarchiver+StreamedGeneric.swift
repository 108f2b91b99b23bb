/// Generic objects while streaming: their groups are walked in wire order — a new object
/// among them decoded where it stands, new C strings and classes entered in the stream's
/// tables — and nothing else is made. The object keeps its slot and the instances its `@`
/// values stand for, and where each new object among them ends; its groups are read again from
/// the archive's index only when asked for (``GenericObjectSource``), passing over those objects.
extension Unarchiver {
    /// Takes every remaining group of the object being decoded, for a ``GenericObject``: its
    /// compact contents (`nil` for an object without groups: nothing to read again) and the
    /// offset of its end-of-object marker. `nil` when not streaming inside an object (the
    /// caller takes the groups one by one). A reader error, or anything the stream cannot
    /// follow, makes the call under way go over the graph, as elsewhere.
    func streamGenericContents() throws(CoderError) -> (contents: CompactGenericContents?, endOffset: Int)? {
        guard isStreaming, let object = stream.open.last, let index = streamIndex,
              let slot = UInt32(exactly: object.slot) else { return nil }
        if !streamHasMoreGroups {
            guard !stream.needsGraph else { throw streamNeedsGraph() }
            return (nil, stream.reader.offset)
        }
        var held: [AnyObject] = []
        var nestedEnds: [UInt32] = []
        while streamHasMoreGroups {
            let (_, operations) = try streamRead { (reader) throws(WireError) in try reader.directGroupStart() }
            if stream.reader.isStraightLine(operations) {
                for pc in operations {
                    try streamHold(streamRead { (reader) throws(WireError) in try reader.directValue(at: pc) }, into: &held, ends: &nestedEnds)
                }
            } else {
                stream.reader.enterGroup(operations)
                while !stream.reader.leaveFinishedGroup() {
                    let next = try streamNextToken()
                    switch next.code {
                    case .arrayStart, .arrayEnd, .structStart, .structEnd: continue
                    default: try streamHold(next, into: &held, ends: &nestedEnds)
                    }
                }
            }
        }
        guard !stream.needsGraph else { throw streamNeedsGraph() }
        let source: GenericObjectSource
        if let made = genericSource {
            source = made
        } else {
            source = GenericObjectSource(index: index)
            genericSource = source
        }
        return (CompactGenericContents(source: source, held: held, nestedEnds: nestedEnds, slot: slot), stream.reader.offset)
    }

    /// Follows one value token of a generic object's group: a new object is decoded, an
    /// object's instance noted in `held` (and a new one's end-of-object marker in `ends`,
    /// unless it is a generic object, which notes it itself); C strings and classes enter the
    /// stream's tables.
    private func streamHold(_ token: CompactToken, into held: inout [AnyObject], ends: inout [UInt32]) throws(CoderError) {
        switch token.code {
        case .object:
            switch token.form {
            case .null:
                return
            case .reference:
                if stream.reader.kind(ofSlot: token.slot) == .class { return }  // an `@` slot naming a class
                guard token.slot < stream.instances.count, let instance = stream.instances[token.slot] else { throw streamNeedsGraph() }
                held.append(instance)
            default:
                let instance = try streamDecodeNewObject(slot: token.slot, offset: token.start)
                held.append(instance)
                // The reader is just past the object's end-of-object marker; a generic object
                // notes its own.
                if (instance as? GenericObject)?.endOffset == nil {
                    ends.append(UInt32(truncatingIfNeeded: stream.reader.offset - 1))
                }
            }
        case .cString:
            _ = try streamCStringValue(token)
        case .classLink:
            _ = try streamClassValue(token)
        case .integer, .float, .double, .byte, .rawBytes, .unsharedString, .sharedString, .ignored,
             .arrayStart, .arrayEnd, .structStart, .structEnd:
            return
        default:
            throw streamNeedsGraph()
        }
    }
}
