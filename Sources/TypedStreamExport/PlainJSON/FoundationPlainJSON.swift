import Foundation
import TypedStream
import TypedStreamFoundation

/// Natural JSON for Foundation classes in `--plain` output: an `NSString` is a JSON string, an
/// `NSNumber` a number, `NSArray`/`NSSet` arrays, an `NSDictionary` with string keys an object
/// (otherwise an array of `[key, value]` pairs), `NSNull` null, `NSData` `{"$data": base64}`,
/// `NSDate` an ISO 8601 string, `NSURL` its absolute string, attributed strings
/// `{"string", "runs": [{"location", "length", "attributes"}]}`, geometry `{"x", "y", …}`,
/// fonts and colours their ``ReadableValues`` (`{"$class": "NSColor", "colorSpace": …}`).
/// Every other class keeps the generic `{"$class", "$id", "contents"}` form.
///
/// Strings, arrays and dictionaries are written from their groups as they are converted;
/// every other registered class is decoded by its codec (``PlainJSONContext/typedObject(_:registry:)``)
/// and its ``NaturalValue`` written.
public enum FoundationPlainJSON {
    /// The options for ``PlainJSON`` with the Foundation hook, decoding typed leaves through
    /// `registry`.
    public static func options(registry: ClassRegistry = .foundation, pretty: Bool = true) -> PlainJSON.Options {
        var options = PlainJSON.Options(pretty: pretty, naturalValue: { object, context in
            natural(object, context, registry: registry)
        })
        options.arrayClasses = arrayClasses
        let numbers = registry.type(forClassName: "NSNumber") == NumberObject.self
        let codecs: [(names: [String], type: any ArchivableObject.Type)] = [
            (["NSAttributedString", "NSMutableAttributedString"], AttributedStringObject.self),
            (["NSString", "NSMutableString"], StringObject.self), (["NSDictionary", "NSMutableDictionary"], DictionaryObject.self),
            (["NSURL"], URLObject.self),
        ]
        let attributed = numbers && codecs.allSatisfy { codec in codec.names.allSatisfy { registry.type(forClassName: $0) == codec.type } }
        options.foundationDirect = .init(numbers: numbers, attributed: attributed)
        return options
    }

    /// The classes whose natural value is the array of their elements, whatever their groups.
    static let arrayClasses = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet"]

    /// The plain JSON bytes of the archive `bytes` with natural Foundation values. Throws as
    /// ``PlainJSON/encode(_:options:)-([UInt8],_)``.
    public static func encode(_ bytes: [UInt8], pretty: Bool = true) throws -> [UInt8] {
        var options = options(pretty: pretty)
        if let index = try? ArchiveIndex(bytes: bytes) { options.documentMembers = documentMembers(index) }
        return try PlainJSON.encode(bytes, options: options)
    }

    /// The document members that describe the archive as a whole: `"colorList"`, a list of
    /// `{"name", "color"}`, when the archive is a colour list (``ReadableValues/colorList(_:)``);
    /// else none.
    public static func documentMembers(_ index: ArchiveIndex) -> [JSONMember] {
        guard let list = ReadableValues.colorList(index) else { return [] }
        return [JSONMember("colorList", ReadableValues.json(list))]
    }

    /// The natural value of `object` for Foundation's classes, `nil` for the generic form.
    public static func natural(_ object: PlainJSONObject, _ context: PlainJSONContext, registry: ClassRegistry = .foundation) -> PlainJSON.Natural? {
        switch object.className {
        case "NSString", "NSMutableString":
            guard object.groups.count == 1, object.groups[0].valueCount > 0 else { return nil }
            return .value(group: 0, index: 0)
        case _ where arrayClasses.contains(object.className):
            return .values(fromGroup: 1)
        case "NSDictionary", "NSMutableDictionary":
            return .dictionary(fromGroup: 1)
        case "NSNull":
            return .null
        case "NSData", "NSMutableData":
            // The bytes group itself, written as bytes are everywhere ({"$data"} with the readable
            // members and, with --deep, the nested archive); other shapes take the codec's way.
            let groups = object.groups
            if groups.count == 2, groups[1].valueCount == 1, let type = groups[1].typeString,
               type.first == UInt8(ascii: "["), type.last == UInt8(ascii: "]"),
               context.chainVersionsAreZero(object, for: ["NSData", "NSMutableData"]) {
                return .value(group: 1, index: 0)
            }
            return typed(object, context, registry: registry)
        case "NSNumber" where registry.type(forClassName: "NSNumber") == NumberObject.self:
            return number(object, context) ?? typed(object, context, registry: registry)
        default:
            return typed(object, context, registry: registry)
        }
    }

    /// The natural value of `object` from its codec's typed decoding.
    private static func typed(_ object: PlainJSONObject, _ context: PlainJSONContext, registry: ClassRegistry) -> PlainJSON.Natural? {
        // A catalogued class has no natural value: its named fields are written (without
        // decoding the objects it holds first).
        if registry.type(forClassName: object.className) == LaidOutObject.self { return nil }
        guard let typed = context.typedObject(object, registry: registry), !(typed is GenericObject) else { return nil }
        if let readable = ReadableValues.json(typed) { return .json(readable) }
        let value = naturalValue(of: typed)
        if case .object = value { return nil }
        return .json(json(value))
    }

    /// An `NSNumber` of the usual shape — `"*"` objCType, then one value of exactly that type,
    /// NSNumber and NSValue at version 0 — read as ``NumberObject`` reads it, without decoding a
    /// graph (the common case, worth it: dictionaries hold many). `nil` for any other shape,
    /// which takes the codec's own way.
    private static func number(_ object: PlainJSONObject, _ context: PlainJSONContext) -> PlainJSON.Natural? {
        let groups = object.groups
        guard groups.count == 2, groups[0].typeString?.elementsEqual("*".utf8) == true, groups[0].valueCount == 1,
              groups[1].valueCount == 1,
              let type = context.cStringText(object, group: 0),
              let typeString = groups[1].typeString, typeString.elementsEqual(type),
              let value = context.leafValue(object, group: 1, index: 0) else { return nil }
        guard context.chainVersionsAreZero(object, for: ["NSNumber", "NSValue"]) else { return nil }
        // Not a number for its objCType: the codec refuses it, and the object stays generic.
        guard let number = NumberObject.number(value, objCType: String(decoding: type, as: UTF8.self)) else { return .genericAfter([]) }
        // A number holds no objects: its own natural value (a `BOOL` a boolean), as
        // ``NumberObject`` makes it, without decoding a graph or making the object.
        if case .bool(let b) = number { return .json(.bool(b)) }
        return .json(json(.number(number)))
    }

    /// The JSON the typed decoding of an absolute `NSURL` of `string` gives (its absolute
    /// string, or its description when the string is no URL).
    static func urlJSON(_ string: String) -> JSONValue {
        json(naturalValue(of: URLObject(string: string)))
    }

    /// The JSON form of a natural value.
    public static func json(_ value: NaturalValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .data(let d):
            var members = [JSONMember("$data", .string(ByteText.base64(ArraySlice(d))))]
            if let text = ReadableValues.rtfText(ArraySlice(d)) { members.append(JSONMember("$rtfText", .string(text))) }
            return .object(members)
        case .date(let date):
            // To the precision stored; a date no four-digit year can write stays a number.
            let seconds = date.timeIntervalSinceReferenceDate
            return ISODate.formatWithFraction(secondsSince2001: seconds).map(JSONValue.string) ?? .double(seconds)
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
