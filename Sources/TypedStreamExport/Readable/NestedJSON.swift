import TypedStream

/// The plain-JSON members `--deep` adds beside `"$data"` (docs/json-schema.md):
///
/// | the bytes hold | members |
/// |---|---|
/// | a typedstream | `"$archive"`: its plain JSON document |
/// | a property list (binary, XML, NeXT) | `"$plistFormat"`: `binary`, `xml` or `nextstep`; `"$plist"`: its value |
/// | one that is not decoded | `"$archiveError"`: why (too deep, over the budget, damaged at an offset) |
///
/// A property-list value is JSON as plain JSON writes values: strings, numbers, `true`/`false`,
/// arrays, objects (keys in order), data `{"$data": base64}` (itself decoded in place one level
/// deeper), a date `{"$date": "2001-01-01T00:00:00Z"}`, a keyed archive's reference
/// `{"$uid": n}`, the NeXT list's nil `null`. A keyed archive is shown as the property list it
/// is (`$archiver`, `$top`, `$objects` with `$uid` references).
extension NestedArchives {
    /// The members for `data` at the nesting of `options` (none when the bytes hold nothing
    /// to decode).
    func jsonMembers(_ data: ArraySlice<UInt8>, options: PlainJSON.Options) -> [JSONMember] {
        switch read(data, depth: options.nestingDepth + 1) {
        case .notAnArchive:
            return []
        case .refused(_, let reason):
            return [JSONMember("$archiveError", .string(reason))]
        case .plist(let plist):
            var inner = options
            inner.nestingDepth += 1
            return [JSONMember("$plistFormat", .string(plist.kind.plistFormat)),
                    JSONMember("$plist", json(plist.value, options: inner))]
        case .archive(let index):
            var inner = options
            inner.nestingDepth += 1
            inner.pretty = false
            inner.trailingValues = []
            inner.documentMembers = []
            let capture = CapturedOutput()
            var writer = OutputWriter(sink: capture)
            // Bounded: each nested document is one level deeper, and read(_:depth:) stops at maximumDepth.
            do {
                try PlainJSON.write(index, options: inner, to: &writer)
                writer.flush()
                return [JSONMember("$archive", try JSONValue.parse(capture.bytes))]
            } catch {
                return [JSONMember("$archiveError", .string("\(error)"))]
            }
        }
    }

    /// A property-list value as JSON; data decoded in place at `options`' nesting. Recursion is
    /// bounded by ``maximumPlistDepth`` (the readers' bound) and ``maximumDepth``.
    func json(_ node: PlistNode, options: PlainJSON.Options) -> JSONValue {
        switch node {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .real(let r): return .double(r)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .uid(let u): return .object([JSONMember("$uid", .integer(u))])
        case .date(let d):
            return .object([JSONMember("$date", ISODate.format(secondsSince2001: d).map(JSONValue.string) ?? .double(d))])
        case .data(let bytes):
            var members = [JSONMember("$data", .string(ByteText.base64(bytes[...])))]
            if let text = ReadableValues.rtfText(bytes[...]) { members.append(JSONMember("$rtfText", .string(text))) }
            members += jsonMembers(bytes[...], options: options)
            return .object(members)
        case .array(let elements):
            return .array(elements.map { json($0, options: options) })
        case .dictionary(let entries):
            return .object(entries.map { JSONMember($0.key, json($0.value, options: options)) })
        }
    }
}

extension NestedArchives {
    /// Nesting of a natural value's JSON followed when looking for data to decode in place.
    static let maximumNaturalDepth = 64

    /// `value` (a class's natural value, such as an attributed string's attribute dictionary)
    /// with every `{"$data": base64}` in it given the members of ``jsonMembers(_:options:)``.
    /// Looks at most ``maximumNaturalDepth`` levels deep; data deeper stays as it is.
    func deepened(_ value: JSONValue, options: PlainJSON.Options, depth: Int = 0) -> JSONValue {
        guard depth < Self.maximumNaturalDepth else { return value }
        switch value {
        case .array(let elements):
            return .array(elements.map { deepened($0, options: options, depth: depth + 1) })
        case .object(let members):
            if let first = members.first, first.key == "$data", case .string(let text) = first.value,
               !members.contains(where: { $0.key == "$archive" || $0.key == "$plist" || $0.key == "$archiveError" }) {
                guard let bytes = ByteText.bytes(fromBase64: text) else { return value }
                return .object(members + jsonMembers(bytes[...], options: options))
            }
            return .object(members.map { JSONMember($0.key, deepened($0.value, options: options, depth: depth + 1)) })
        default:
            return value
        }
    }
}
