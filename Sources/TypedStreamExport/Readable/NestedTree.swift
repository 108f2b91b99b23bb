import TypedStream

/// How the `decode` tree shows what `--deep` finds in bytes (``NestedArchives``): a line
/// beneath the bytes saying what they hold, then, indented beneath it, the nested archive's
/// tree or the property list's values.
///
/// ```
/// "[582c]" <582 bytes: 62 70 6c 69 73 74 30 30 d4 01 02 03 04 05 06 07 …>
///   nested binary property list (keyed archive), 582 bytes:
///     $version: 100000
///     $archiver: "NSKeyedArchiver"
///     $top: {1 entry}
///       root: UID 1
///     $objects: [12 elements]
///       0: "$null"
///       …
/// ```
///
/// A property list's dictionary is `{N entries}` with one `key: value` line per entry beneath,
/// an array `[N elements]` with one line per element (`0: …`, so a keyed archive's `UID n` is
/// element `n:` of `$objects`), data `<N bytes: …>` (decoded in place one
/// level deeper, and with its RTF text), a date in ISO 8601, a keyed archive's reference
/// `UID n`, the NeXT list's nil `nil`.
enum NestedTree {
    /// What is written beneath the line once it ends.
    enum Pending {
        /// A nested typedstream's tree.
        case archive(ArchiveIndex, ArchiveTree.Options)
        /// A property list's values.
        case plist(PlistNode, ArchiveTree.Options)
    }

    /// With `--deep`: on a new line at `indent`, what `payload` holds (`nested typedstream, 99
    /// bytes:`, or `…, 99 bytes, damaged at …`); returns what to write beneath it (at
    /// `indent + 2`) once the current line ends. Nothing is written for other bytes.
    static func header(_ payload: ArraySlice<UInt8>, budget: NestedArchives, options: ArchiveTree.Options,
                       indent: Int, _ out: inout OutputWriter) -> Pending? {
        let outcome = budget.read(payload, depth: options.nestingDepth + 1)
        var inner = options
        inner.indent = indent + 2
        inner.nestingDepth = options.nestingDepth + 1
        let title: String
        var pending: Pending?
        switch outcome {
        case .notAnArchive: return nil
        case .archive(let index):
            title = NestedArchives.Kind.typedstream.title
            pending = .archive(index, inner)
        case .plist(let plist):
            title = plist.title
            pending = .plist(plist.value, inner)
        case .refused(let kind, _):
            title = kind.title
        }
        out.append(0x0A)
        out.appendSpaces(indent)
        out.append("nested ")
        out.append(title)
        out.append(", ")
        out.appendDecimal(payload.count)
        if case .refused(_, let reason) = outcome {
            out.append(" bytes, ")
            out.append(reason)
        } else {
            out.append(" bytes:")
        }
        return pending
    }

    /// Writes what ``header(_:budget:options:indent:_:)`` left to write beneath its line.
    /// Bounded: each nested level is one deeper, and ``NestedArchives`` stops at its maximum.
    static func write(_ pending: Pending, to out: inout OutputWriter) {
        switch pending {
        case .archive(let index, let options):
            ArchiveTree.write(index, options: options, to: &out)
        case .plist(let node, let options):
            switch node {
            case .array(let elements):
                for (i, element) in elements.enumerated() { line(String(i), element, depth: 0, options, &out) }
            case .dictionary(let entries):
                for entry in entries { line(entry.key, entry.value, depth: 0, options, &out) }
            default:
                line(nil, node, depth: 0, options, &out)
            }
        }
    }

    /// One value's line (`key: value`), then its elements or entries beneath it. Recursion is
    /// bounded by ``NestedArchives/maximumPlistDepth``, the readers' bound on the list's depth.
    private static func line(_ key: String?, _ node: PlistNode, depth: Int, _ options: ArchiveTree.Options,
                             _ out: inout OutputWriter) {
        let indent = options.indent + 2 * depth
        out.appendSpaces(indent)
        if let key {
            out.append(keyText(key, limit: options.previewLength))
            out.append(": ")
        }
        var pending: Pending?
        switch node {
        case .string(let s): out.append(TextExcerpt.quoted(s, limit: options.previewLength))
        case .integer(let i): out.append("\(i)")
        case .real(let r): out.append("\(r)")
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("nil")
        case .uid(let u): out.append("UID \(u)")
        case .date(let d): out.append(ISODate.format(secondsSince2001: d) ?? "date \(d)")
        case .data(let bytes):
            out.append("<\(bytes.count) bytes: ")
            out.append(bytes.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))
            out.append(bytes.count > 16 ? " …>" : ">")
            if let text = ReadableValues.rtfText(bytes[...]) {
                out.append(0x0A)
                out.appendSpaces(indent + 2)
                out.append("RTF text: ")
                out.append(TextExcerpt.quoted(text, limit: 8 * options.previewLength))
            }
            if let budget = options.nestedArchives {
                pending = header(bytes[...], budget: budget, options: options, indent: indent + 2, &out)
            }
        case .array(let elements):
            out.append("[\(elements.count) element\(elements.count == 1 ? "" : "s")]")
        case .dictionary(let entries):
            out.append("{\(entries.count) entr\(entries.count == 1 ? "y" : "ies")}")
        }
        out.append(0x0A)
        if let pending { write(pending, to: &out) }
        switch node {
        case .array(let elements):
            for (i, element) in elements.enumerated() { line(String(i), element, depth: depth + 1, options, &out) }
        case .dictionary(let entries):
            for entry in entries { line(entry.key, entry.value, depth: depth + 1, options, &out) }
        default:
            break
        }
    }

    /// A key as it is when it is a plain name (`$objects`, `NS.keys`, `root`), else quoted.
    private static func keyText(_ key: String, limit: Int) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.count <= limit && key.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "$._-".unicodeScalars.contains($0)
        }
        return plain ? key : TextExcerpt.quoted(key, limit: limit)
    }
}
