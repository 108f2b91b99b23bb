import TypedStream
import TypedStreamFoundation

/// The readable keys the keyed export adds beside the exact data (docs/keyed-mapping.md,
/// "Readable keys"), all of them ours (`TS…`) and all ignored by the import, so that
/// `convert --to typedstream` of the export gives back the same archive:
///
/// | key | on | value |
/// |---|---|---|
/// | `TSRTFText` | the object whose keys hold RTF (or serialized RTFD) bytes — an `NSMutableData`'s `NS.data`, a `[Nc]` value in `TSGroups` or a field — or which first refers to a plain `NSData` holding them | the plain text (``ReadableValues/rtfText(_:)``); an array of texts, in the order the bytes are written, when the object holds several |
/// | `TSArchives` | likewise, for bytes holding a typedstream, with ``KeyedArchiveExporter/Options/deep`` (`convert --deep`) | an array, one dictionary per such value in the order written: `TSFormat` (`typedstream`), `TSLength` (bytes), and `root`, `TSItem1` … (UIDs of the nested archive's top-level items, whose objects are written into the same `$objects`), or `TSError` (why it was not converted) |
/// | `TSColorList` | `$top`, for a colour list | `[{name: "…", color: UID of the colour object}]`, in the list's order |
///
/// A value is written as data whatever it holds, so nothing is lost; the nested archive's
/// objects are additional `$objects` entries that nothing but `TSArchives` refers to.
///
/// A class: writing a nested archive writes objects whose own keys begin and end here while
/// the holder's are being finished.
final class KeyedReadableKeys {
    /// One value met while writing an object.
    private enum Note {
        case rtf(String)
        case archive([UInt8])
    }

    /// The notes of the objects being written, innermost last.
    private var stack: [[Note]] = []
    /// The budget of nested archives (made at the first one).
    private var budget: NestedArchives?
    /// How deep the archive being written is nested (0: the file's own).
    private var nestingDepth = 0

    /// An object's keys begin.
    func begin() { stack.append([]) }

    /// An object's keys were not written (an error).
    func discard() { _ = stack.popLast() }

    /// Notes `bytes`, a data value of the object being written.
    func note(_ bytes: ArraySlice<UInt8>, deep: Bool) {
        guard !stack.isEmpty else { return }
        if let text = ReadableValues.rtfText(bytes) {
            stack[stack.count - 1].append(.rtf(text))
        } else if deep, NestedArchives.isTypedstream(bytes) {
            stack[stack.count - 1].append(.archive(Array(bytes)))
        }
    }

    /// The keys for the object whose keys end now; nested archives are written with `encoder`.
    func end(_ encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> [PlistEntry] {
        guard let notes = stack.popLast(), !notes.isEmpty else { return [] }
        var texts: [PlistValue] = []
        var archives: [PlistValue] = []
        for note in notes {
            switch note {
            case .rtf(let text): texts.append(.string(text))
            case .archive(let bytes): archives.append(try nested(bytes, encoder))
            }
        }
        var entries: [PlistEntry] = []
        if !texts.isEmpty { entries.append(PlistEntry("TSRTFText", texts.count == 1 ? texts[0] : .array(texts))) }
        if !archives.isEmpty { entries.append(PlistEntry("TSArchives", .array(archives))) }
        return entries
    }

    /// The `TSArchives` element of a nested typedstream: decoded as the export decodes a file
    /// (Foundation's codecs with a keyed layout, every other class generic) and its top-level
    /// items written with `encoder`, or why not. Bounded by ``NestedArchives``' depth and bytes.
    private func nested(_ bytes: [UInt8], _ encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> PlistValue {
        var entries = [PlistEntry("TSFormat", .string("typedstream")), PlistEntry("TSLength", .integer(Int64(bytes.count)))]
        if budget == nil { budget = NestedArchives() }
        switch budget!.read(bytes[...], depth: nestingDepth + 1) {
        case .refused(_, let reason):
            entries.append(PlistEntry("TSError", .string(reason)))
        case .notAnArchive, .plist:
            entries.append(PlistEntry("TSError", .string("not a typedstream")))
        case .archive:
            let items: [TopLevelItem]
            do {
                items = try Unarchiver(bytes: bytes, registry: ClassRegistry.foundation.keyedLayoutsOnly).decodeTopLevelItems()
            } catch {
                let offset = error.offset ?? 0
                entries.append(PlistEntry("TSError", .string("not decoded: \(CoderError.offsetText(offset)) of the nested archive: \(error.reason)")))
                return .dictionary(entries)
            }
            nestingDepth += 1
            defer { nestingDepth -= 1 }
            entries += try KeyedArchiveExporter.topEntries(items, encoder: encoder)
        }
        return .dictionary(entries)
    }

    /// Whether `item`, as top-level item number `index`, has the type string a colour list has
    /// there: `"i"` first, `"@i"` second, `"@@"` after.
    static func mayBeColorList(_ item: TopLevelItem, at index: Int) -> Bool {
        guard case .group(let group, _) = item else { return false }
        switch index {
        case 0: return group.typeText == "i"
        case 1: return group.typeText == "@i"
        default: return group.typeText == "@@"
        }
    }

    /// `$top`'s `TSColorList` when `items` are a colour list's groups (`"i"`, `"@i"`, then
    /// `"@@"` pairs of a colour and its name string), with the colours' UIDs; else `nil`.
    static func colorList(_ items: [TopLevelItem], encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> PlistEntry? {
        guard items.count >= 2, items.indices.allSatisfy({ mayBeColorList(items[$0], at: $0) }) else { return nil }
        var list: [PlistValue] = []
        for item in items.dropFirst(2) {
            guard case .group(let group, let objects) = item, group.values.count == 2,
                  case .object(let colorEntry?, _) = group.values[0], case .object(let nameEntry?, _) = group.values[1],
                  let color = objects[ObjectIdentifier(colorEntry)], let name = objects[ObjectIdentifier(nameEntry)] as? StringObject
            else { return nil }
            list.append(.dictionary([PlistEntry("name", .string(String(decoding: name.bytes, as: UTF8.self))),
                                     PlistEntry("color", try encoder.reference(to: color))]))
        }
        return PlistEntry("TSColorList", .array(list))
    }
}
