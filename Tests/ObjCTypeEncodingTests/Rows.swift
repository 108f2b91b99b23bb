import Testing
import ObjCTypeEncoding

/// Shorthand for building expected trees in table rows.
extension ObjCType {
    static func st(_ name: String?, _ types: ObjCType...) -> ObjCType {
        .structure(name: name, fields: types.map { ObjCField(type: $0) })
    }
    static func un(_ name: String?, _ types: ObjCType...) -> ObjCType {
        .union(name: name, fields: types.map { ObjCField(type: $0) })
    }
    static func named(_ name: String?, _ members: (String, ObjCType)...) -> ObjCType {
        .structure(name: name, fields: members.map { ObjCField(name: $0.0, type: $0.1) })
    }
    static func q(_ letters: String, _ inner: ObjCType) -> ObjCType {
        .qualified(ObjCTypeQualifiers(letters: Array(letters.utf8)), inner)
    }
    static var id: ObjCType { .object(className: nil) }
}

/// A type string and the tree it parses to; remembers where the row was written.
struct ParseRow: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: ObjCType
    /// The canonical spelling, when it differs from `text`.
    let canonical: String
    let location: SourceLocation

    init(_ text: String, _ expected: ObjCType, canonical: String? = nil, _ location: SourceLocation = #_sourceLocation) {
        self.text = text
        self.expected = expected
        self.canonical = canonical ?? text
        self.location = location
    }

    var testDescription: String { "\"\(text)\"" }
}

/// A malformed type string with the error code and position it must give.
struct ErrorRow: Sendable, CustomTestStringConvertible {
    let text: String
    let code: ObjCTypeError.Code
    let position: Int
    let location: SourceLocation

    init(_ text: String, _ code: ObjCTypeError.Code, at position: Int, _ location: SourceLocation = #_sourceLocation) {
        self.text = text
        self.code = code
        self.position = position
        self.location = location
    }

    var testDescription: String { text.utf8.count > 20 ? "\"\(text.prefix(12))…\" (\(text.utf8.count) bytes)" : "\"\(text)\"" }
}

/// A type with its expected size and alignment under both data models.
struct LayoutRow: Sendable, CustomTestStringConvertible {
    let text: String
    let ilp32: ObjCTypeLayout?
    let lp64: ObjCTypeLayout?
    let location: SourceLocation

    init(_ text: String, ilp32: (Int, Int)?, lp64: (Int, Int)?, _ location: SourceLocation = #_sourceLocation) {
        self.text = text
        self.ilp32 = ilp32.map { ObjCTypeLayout(size: $0.0, alignment: $0.1) }
        self.lp64 = lp64.map { ObjCTypeLayout(size: $0.0, alignment: $0.1) }
        self.location = location
    }

    init(_ text: String, both: (Int, Int)?, _ location: SourceLocation = #_sourceLocation) {
        self.init(text, ilp32: both, lp64: both, location)
    }

    var testDescription: String { "\"\(text)\"" }
}
