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
        var text: [UInt8] = []
        // The check: each part formatted once and dropped.
        for entry in head {
            do throws(Unrepresentable) { try append(entry.value, indent: 1, into: &text) } catch { throw error.inside("." + entry.key) }
            text.removeAll(keepingCapacity: true)
        }
        for index in 0..<objects.count {
            do throws(Unrepresentable) { try append(objects.value(index), indent: 2, into: &text) } catch {
                throw error.inside("[\(index)]").inside(".$objects")
            }
            text.removeAll(keepingCapacity: true)
        }
        // The writing, in the order and layout of `write(_:)` on the same dictionary.
        text = Array((header + "<dict>\n").utf8)
        for entry in head {
            text += "\t<key>\(entry.key)</key>\n".utf8
            try append(entry.value, indent: 1, into: &text)
        }
        text += (objects.count == 0 ? "\t<key>$objects</key>\n\t<array/>\n" : "\t<key>$objects</key>\n\t<array>\n").utf8
        out.append(text)
        for index in 0..<objects.count {
            text.removeAll(keepingCapacity: true)
            try append(objects.value(index), indent: 2, into: &text)
            out.append(text)
        }
        out.append((objects.count == 0 ? "" : "\t</array>\n") + "</dict>\n" + footer)
    }
}
