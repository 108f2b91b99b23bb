import Foundation
import TypedStream
import TypedStreamFoundation

/// Natural JSON for Foundation classes in `--plain` output: an `NSString` is a JSON string, an
/// `NSNumber` a number, `NSArray`/`NSSet` arrays, an `NSDictionary` with string keys an object
/// (otherwise an array of `[key, value]` pairs), `NSNull` null, `NSData` `{"$data": base64}`,
/// `NSDate` an ISO 8601 string, `NSURL` its absolute string, attributed strings
/// `{"string", "runs": [{"location", "length", "attributes"}]}`, geometry `{"x", "y", …}`.
/// Every other class keeps the generic `{"$class", "$id", "contents"}` form.
public enum FoundationPlainJSON {
    /// The options for ``PlainJSON`` with the Foundation hook, decoding typed leaves through
    /// `registry`.
    public static func options(for archive: Archive, registry: ClassRegistry = .foundation, pretty: Bool = true) -> PlainJSON.Options {
        let box = UnarchiverBox(Unarchiver(archive: archive, registry: registry))
        return PlainJSON.Options(pretty: pretty, naturalValue: { entry, converter in
            natural(entry, &converter, box)
        })
    }

    /// The plain JSON bytes of `archive` with natural Foundation values.
    public static func encode(_ archive: Archive, pretty: Bool = true) throws(ArchiveJSONError) -> [UInt8] {
        try PlainJSON.encode(archive, options: options(for: archive, pretty: pretty))
    }

    /// The unarchiver is used from the hook only, on the converting thread.
    private final class UnarchiverBox: @unchecked Sendable {
        let unarchiver: Unarchiver
        init(_ unarchiver: Unarchiver) { self.unarchiver = unarchiver }
    }

    private static func natural(_ entry: ArchivedObject, _ converter: inout PlainJSONConverter, _ box: UnarchiverBox) -> JSONValue? {
        let groups = entry.groups
        func values(from start: Int) -> [JSONValue] {
            guard start <= groups.count else { return [] }
            return groups[start...].flatMap { converter.values(of: $0) }
        }
        switch entry.className {
        case "NSString", "NSMutableString":
            guard groups.count == 1 else { return nil }
            return converter.values(of: groups[0]).first
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet":
            return .array(values(from: 1))
        case "NSDictionary", "NSMutableDictionary":
            let flat = values(from: 1)
            guard flat.count % 2 == 0 else { return nil }
            var members: [JSONMember] = []
            var pairs: [JSONValue] = []
            var allStrings = true
            var seen = Set<String>()
            for i in stride(from: 0, to: flat.count, by: 2) {
                pairs.append(.array([flat[i], flat[i + 1]]))
                if case .string(let key) = flat[i], seen.insert(key).inserted {
                    members.append(JSONMember(key, flat[i + 1]))
                } else {
                    allStrings = false
                }
            }
            return allStrings ? .object(members) : .array(pairs)
        case "NSNull":
            return .null
        default:
            guard let object = try? box.unarchiver.object(for: entry), !(object is GenericObject) else { return nil }
            let value = naturalValue(of: object)
            if case .object = value { return nil }
            return json(value)
        }
    }

    /// The JSON form of a natural value.
    public static func json(_ value: NaturalValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .data(let d): return PlainJSONConverter.data(ArraySlice(d))
        case .date(let date): return .string(ISODate.format(secondsSince2001: date.timeIntervalSinceReferenceDate))
        case .url(let url): return .string(url.absoluteString)
        case .number(let n):
            switch n {
            case .int(let v): return .integer(v)
            case .uint(let v): return .integer(v)
            case .float(let v): return v.isFinite ? .number(v.description) : .double(Double(v))
            case .double(let v): return .double(v)
            case .bool(let b): return .bool(b)
            }
        case .bool(let b): return .bool(b)
        case .geometry(let g):
            switch g {
            case .point(let x, let y): return .object([JSONMember("x", .double(x)), JSONMember("y", .double(y))])
            case .size(let w, let h): return .object([JSONMember("width", .double(w)), JSONMember("height", .double(h))])
            case .rect(let x, let y, let w, let h):
                return .object([JSONMember("x", .double(x)), JSONMember("y", .double(y)), JSONMember("width", .double(w)), JSONMember("height", .double(h))])
            case .range(let location, let length): return .object([JSONMember("location", .integer(location)), JSONMember("length", .integer(length))])
            }
        case .array(let items), .set(let items): return .array(items.map(json))
        case .dictionary(let entries):
            var members: [JSONMember] = []
            for entry in entries {
                guard case .string(let key) = entry.key else { return .array(entries.map { .array([json($0.key), json($0.value)]) }) }
                members.append(JSONMember(key, json(entry.value)))
            }
            return .object(members)
        case .null, .nilObject: return .null
        case .attributedString(let text):
            return .object([
                JSONMember("string", .string(text.string)),
                JSONMember("runs", .array(text.runs.map { run in
                    .object([JSONMember("location", .integer(run.range.lowerBound)), JSONMember("length", .integer(run.range.count)),
                             JSONMember("attributes", json(.dictionary(run.attributes)))])
                })),
            ])
        case .object(let className, let description):
            return .object([JSONMember("$class", .string(className)), JSONMember("$description", .string(description))])
        }
    }
}
