extension XMLPlistWriter {
    /// Writes the keyed archive `{$version, $archiver, $top, $objects}` — the dictionary
    /// ``KeyedArchiveExporter`` makes — to `out`, byte for byte as ``write(_:)`` writes it, one
    /// `$objects` entry at a time, so memory stays that of the packed table. Every value is
    /// checked before the first byte is written: throws ``Unrepresentable`` (with the path from
    /// the root, e.g. `$objects[57]`) and writes nothing.
    static func writeKeyedArchive(version: Int64, top: [PlistEntry], objects: KeyedObjectTable,
                                  to out: inout OutputWriter) throws(Unrepresentable) {
        let head: [PlistEntry] = [PlistEntry("$version", .integer(version)), PlistEntry("$archiver", .string("NSKeyedArchiver")),
                                  PlistEntry("$top", .dictionary(top))]
        // The check: each part formatted once into a sink that drops it.
        var dropped = OutputWriter(sink: DroppedOutput())
        for entry in head {
            do throws(Unrepresentable) { try append(entry.value, indent: 1, into: &dropped) } catch { throw error.inside("." + entry.key) }
        }
        // The `$objects` entries are checked in their packed form; one that holds a value XML
        // cannot is formatted to name it.
        var keyChecked = [Bool](repeating: false, count: objects.keyNames.count)
        for index in 0..<objects.count where !isRepresentable(objects, index, keyChecked: &keyChecked) {
            do throws(Unrepresentable) { try append(objects.value(index), indent: 2, into: &dropped) } catch {
                throw error.inside("[\(index)]").inside(".$objects")
            }
        }
        // The writing, in the order and layout of `write(_:)` on the same dictionary, straight
        // to `out` (an entry of millions of references is never held as text).
        out.append(header)
        out.append("<dict>\n" as StaticString)
        for entry in head {
            out.append("\t<key>\(entry.key)</key>\n")
            try append(entry.value, indent: 1, into: &out)
        }
        out.append(objects.count == 0 ? "\t<key>$objects</key>\n\t<array/>\n" as StaticString : "\t<key>$objects</key>\n\t<array>\n")
        for index in 0..<objects.count {
            try appendEntry(index, of: objects, indent: 2, into: &out)
        }
        out.append((objects.count == 0 ? "" : "\t</array>\n") + "</dict>\n" + footer)
    }

    /// Appends entry `index` of `objects` as ``append(_:indent:into:)`` appends
    /// `objects.value(index)`, read from its packed code: only its scalars are made, one at a
    /// time, so an entry of millions of references costs no more memory than a short one.
    private static func appendEntry(_ index: Int, of objects: KeyedObjectTable, indent: Int,
                                    into out: inout OutputWriter) throws(Unrepresentable) {
        guard let start = objects.start(of: index) else { return try append(objects.value(index), indent: indent, into: &out) }
        let keyNames = objects.keyNames
        var reader = PlistCode.Reader(objects.code, at: start)
        // The collections being written, innermost last: a dictionary's key names (an array has
        // none), how many values it has and how many are written.
        var open: [(isDictionary: Bool, keys: [String], count: Int, written: Int)] = []
        repeat {
            let level = indent + open.count
            if let top = open.last, top.isDictionary { try appendKey(top.keys[top.written], indent: level, into: &out) }
            let tag = reader.byte()
            switch tag {
            case PlistCode.array:
                let count = reader.varint()
                if openCollection("array", count: count, indent: level, into: &out) {
                    open.append((false, [], count, 0))
                    continue
                }
            case PlistCode.dictionary:
                let count = reader.varint()
                // A dictionary's code holds its keys, then its values.
                var names: [String] = []
                names.reserveCapacity(count)
                for _ in 0..<count {
                    guard case .string(let name) = reader.scalar(reader.byte(), keys: keyNames) else { preconditionFailure("plist code key") }
                    names.append(name)
                }
                if openCollection("dict", count: count, indent: level, into: &out) {
                    open.append((true, names, count, 0))
                    continue
                }
            default:
                try appendScalar(reader.scalar(tag, keys: keyNames), indent: level, into: &out)
            }
            // A value is written: count it, closing the collections it completes.
            while let top = open.last {
                open[open.count - 1].written += 1
                if top.written + 1 < top.count { break }
                open.removeLast()
                closeCollection(top.isDictionary ? "dict" : "array", indent: indent + open.count, into: &out)
            }
        } while !open.isEmpty
    }

    /// A sink that drops what it is given: the check formats values only to find one XML
    /// cannot hold.
    private final class DroppedOutput: OutputSink, @unchecked Sendable {
        func write(_ bytes: UnsafeRawBufferPointer) {}
    }

    /// Whether entry `index` of `objects` can be written as XML, read from its packed code
    /// without making its values: every string and dictionary key holds only characters XML
    /// 1.0 can hold and every date is within the years 1 to 9999 (what ``append(_:indent:into:)``
    /// throws for). `keyChecked` notes the dictionary keys, by number, found representable.
    private static func isRepresentable(_ objects: KeyedObjectTable, _ index: Int, keyChecked: inout [Bool]) -> Bool {
        guard let start = objects.start(of: index) else { return true }
        let keyNames = objects.keyNames
        return objects.code.withUnsafeBufferPointer { code in
            var reader = PlistCode.Reader(objects.code, at: start)
            // Values still to read in the entry: a collection adds its elements (a dictionary
            // its keys and values), so nothing is kept per level.
            var left = 1
            while left > 0 {
                left -= 1
                let tag = reader.byte()
                switch tag {
                case PlistCode.string:
                    let range = reader.payload()
                    if unrepresentableScalar(in: UnsafeBufferPointer(rebasing: code[range])) != nil { return false }
                case PlistCode.key:
                    let number = reader.varint()
                    if !keyChecked[number] {
                        var name = keyNames[number]
                        if name.withUTF8({ unrepresentableScalar(in: $0) }) != nil { return false }
                        keyChecked[number] = true
                    }
                case PlistCode.date:
                    if ISODate.format(secondsSince2001: Double(bitPattern: reader.word())) == nil { return false }
                case PlistCode.array:
                    left += reader.varint()
                case PlistCode.dictionary:
                    left += 2 * reader.varint()
                default:
                    reader.position -= 1
                    reader.skipScalar()
                }
            }
            return true
        }
    }
}
