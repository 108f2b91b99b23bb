import Foundation
import TypedStream
import TypedStreamExport

/// A property-list value as a Swift value (named apart from TypedStreamExport's `PlistValue`, which
/// the command-line module imports too), so settings entries this program does not know can be
/// kept and written back unchanged.
public enum SettingsValue: Hashable, Sendable {
    /// `<string>`.
    case string(String)
    /// `<integer>`.
    case integer(Int)
    /// `<real>`.
    case real(Double)
    /// `<true/>` / `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data([UInt8])
    /// `<array>`.
    case array([SettingsValue])
    /// `<dict>`.
    case dictionary([String: SettingsValue])

    /// Converts a value from `PropertyListSerialization`; `nil` for anything else.
    public init?(_ any: Any) {
        // Numbers first, by their exact type: an NSNumber holding 1 also casts to Bool.
        if let b = any as? Bool, type(of: any) == Bool.self {
            self = .bool(b)
            return
        }
        if let number = any as? NSNumber {
            switch String(cString: number.objCType) {
            case "f", "d": self = .real(number.doubleValue)
            default: self = .integer(number.intValue)
            }
            return
        }
        switch any {
        case let s as String: self = .string(s)
        case let d as Date: self = .date(d)
        case let d as Data: self = .data(Array(d))
        case let a as [Any]:
            var values: [SettingsValue] = []
            for element in a {
                guard let value = SettingsValue(element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let d as [String: Any]:
            var values: [String: SettingsValue] = [:]
            for (key, element) in d {
                guard let value = SettingsValue(element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        default: return nil
        }
    }

    /// The value for `PropertyListSerialization`.
    public var propertyList: Any {
        switch self {
        case .string(let s): s
        case .integer(let i): i
        case .real(let d): d
        case .bool(let b): b
        case .date(let d): d
        case .data(let d): Data(d)
        case .array(let a): a.map(\.propertyList)
        case .dictionary(let d): d.mapValues(\.propertyList)
        }
    }

    /// The integer, also from a string of digits.
    public var integerValue: Int? {
        switch self {
        case .integer(let i): i
        case .string(let s): Int(s)
        default: nil
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: [UInt8]? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [SettingsValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The entries, if this is a dictionary.
    public var dictionaryValue: [String: SettingsValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// Parses a property list (XML or binary) whose root is a dictionary. Throws
    /// ``ModelDocumentError`` with `code` when it is not one.
    public static func parseDictionary(_ bytes: [UInt8], path: String?, code: ModelDocumentError.Code) throws(ModelDocumentError) -> [String: SettingsValue] {
        // Binary and XML property lists are checked by our bounded readers first (nesting, shared
        // references, no entities: PlistLimits), so Foundation only parses what they accept.
        if let format = ForeignFormat.recognise(bytes), format != .gnustepArchive {
            do { _ = try KeyedArchiveImporter.plist(from: bytes) } catch {
                throw ModelDocumentError(code, path: path, offset: error.offset, "not a property list: \(error.reason)")
            }
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ModelDocumentError(code, path: path, "not a property list: \(error.localizedDescription)")
        }
        guard let dictionary = SettingsValue(object)?.dictionaryValue else {
            throw ModelDocumentError(code, path: path, "the property list's root is not a dictionary of plain values")
        }
        return dictionary
    }

    /// Writes a dictionary as an XML property list (keys sorted, so the bytes are stable).
    public static func xmlBytes(_ dictionary: [String: SettingsValue]) throws(ModelDocumentError) -> [UInt8] {
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: dictionary.mapValues(\.propertyList), format: .xml, options: 0)
            return Array(data)
        } catch {
            throw ModelDocumentError(.io, "cannot write a property list: \(error.localizedDescription)")
        }
    }
}
