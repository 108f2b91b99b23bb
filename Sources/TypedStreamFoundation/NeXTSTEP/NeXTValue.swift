import ObjCTypeEncoding
import TypedStream

/// A value whose type is only known when the archive is read: a `HashTable` key or value, or a
/// `Storage` element. NeXTSTEP's containers archive their own type strings (`"i"`, `"%"`, `"@"`,
/// `"*"`, `"!"`, `"ii"` …) and then write each value with `NXWriteType(stream, type, &value)`.
///
/// Objects are kept as decoded instances (typed where their class is registered, else
/// ``GenericObject``), so shared references stay shared when written again; arrays and structs
/// that hold objects (NeXT nibs keep connections as `{*@@}` structs) are kept member by member.
/// Every other value is kept as the ``ArchivedValue`` that was read, with its recorded integer
/// width.
///
/// ```swift
/// table.entries[0].key.integerValue      // 5 for an "i" key
/// table.entries[0].value.object          // the "@" value
/// NeXTValue.atom("Helvetica")             // a "%" value to write
/// ```
public enum NeXTValue {
    /// A value of type `@`: the object, or `nil`.
    case object(AnyObject?)
    /// A struct (`{…}`) holding at least one object, member by member.
    indirect case structure([NeXTValue])
    /// A C array (`[N t]`) of elements holding objects, element by element.
    indirect case array([NeXTValue])
    /// A value with no objects inside (integers, atoms, C strings, `!`, plain structs…).
    case value(ArchivedValue)

    /// An integer value (`i`, `s`, `l`…), written with the smallest width.
    public static func integer(_ value: Int64) -> NeXTValue { .value(.integer(value, width: nil)) }

    /// An atom (`%`) or selector (`:`) value with the given text (NeXTSTEP encoding for non-ASCII).
    public static func atom(_ text: String) -> NeXTValue {
        .value(.sharedString(ArraySlice(NeXTSTEPCharacterSet.encode(text) ?? Array(text.utf8)), decision: nil))
    }

    /// A C-string (`*`) value with the given text (NeXTSTEP encoding for non-ASCII).
    public static func cString(_ text: String) -> NeXTValue {
        .value(.cString(ArchivedCString(text: NeXTSTEPCharacterSet.encode(text) ?? Array(text.utf8)), referenceWidth: nil))
    }

    /// The value of an ignored (`!`) field: nothing on the wire.
    public static var ignored: NeXTValue { .value(.ignored) }

    /// The object of an `@` value; `nil` for nil and for other values.
    public var object: AnyObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Appends the objects this value holds (in structs and arrays too) to `objects`.
    public func appendObjects(to objects: inout [AnyObject]) {
        switch self {
        case .object(let object): objects.appendObject(object)
        case .structure(let members), .array(let members): for member in members { member.appendObjects(to: &objects) }
        case .value: break
        }
    }

    /// The integer of an integer value (sign-extended), or `nil`.
    public var integerValue: Int64? {
        if case .value(.integer(let v, _)) = self { return v }
        return nil
    }

    /// The bytes of an atom, selector or C string (`nil` for NULL and for other values).
    public var stringBytes: ArraySlice<UInt8>? {
        switch self {
        case .value(.sharedString(let text, _)): return text
        case .value(.cString(let entry, _)): return entry?.text
        default: return nil
        }
    }

    /// The text of an atom, selector or C string, read in the NeXTSTEP character set (ASCII is
    /// unchanged); `nil` for NULL and for other values.
    public var stringValue: String? {
        stringBytes.map { NeXTSTEPCharacterSet.decode($0) }
    }

    /// The members of a struct or the elements of an array (of either form), else `nil`.
    public var members: [NeXTValue]? {
        switch self {
        case .structure(let members), .array(let members): return members
        case .value(.structure(let values)), .value(.array(let values)): return values.map { .value($0) }
        default: return nil
        }
    }

    /// Whether this is the value of an ignored (`!`) field.
    public var isIgnored: Bool {
        if case .value(.ignored) = self { return true }
        return false
    }
}

// MARK: - Reading and writing one runtime-typed group

extension ObjectDecoder {
    /// Decodes the next group, which must have the type string `typeString` with exactly one
    /// type, as a ``NeXTValue``. Throws ``CoderError`` `typeMismatch` for another type string.
    func decodeNeXTValue(ofType typeString: String) throws(CoderError) -> NeXTValue {
        try nextValue(from: decodeValue(ofObjCType: typeString))
    }

    /// Converts a decoded value of a runtime type into a ``NeXTValue``, decoding its objects.
    func nextValue(from value: ArchivedValue) throws(CoderError) -> NeXTValue {
        switch value {
        case .object, .objectSlotClass:
            return .object(try object(for: value))
        case .structure(let members) where value.containsObjects:
            var out: [NeXTValue] = []
            for member in members { out.append(try nextValue(from: member)) }
            return .structure(out)
        case .array(let elements) where value.containsObjects:
            var out: [NeXTValue] = []
            for element in elements { out.append(try nextValue(from: element)) }
            return .array(out)
        default:
            return .value(value)
        }
    }

    /// The byte offset of the object being decoded, when known (for messages).
    var objectOffset: Int? {
        currentObjectOffset
    }
}

extension ArchivedValue {
    /// Whether the value is, or holds inside arrays and structs, a class (`#`).
    var containsClasses: Bool {
        switch self {
        case .classObject: return true
        case .array(let values), .structure(let values): return values.contains { $0.containsClasses }
        default: return false
        }
    }

    /// Whether the value is, or holds inside arrays and structs, an object.
    var containsObjects: Bool {
        switch self {
        case .object, .objectSlotClass: return true
        case .array(let values), .structure(let values): return values.contains { $0.containsObjects }
        default: return false
        }
    }
}

extension ObjectEncoder {
    /// Appends one group with the exact type-string bytes `typeString` and `values`, where a
    /// ``NeXTValue/object(_:)`` becomes an object reference written through this archiver.
    ///
    /// Type strings that print canonically (`"i"`, `"%"`, `"[3*]"`) go through the checked
    /// ``ObjectEncoder/encodeValues(_:ofObjCTypes:)``; NeXT's own spellings that do not (`"[3ii]"`,
    /// an array of unnamed structs) are kept byte for byte, as are values holding classes (`#`),
    /// which the archiver re-shares by name. Throws ``CoderError`` `invalidValue`
    /// when the type string does not parse or the values do not fit it.
    func encodeNeXTValues(_ values: [NeXTValue], typeString: [UInt8]) throws(CoderError) {
        let (archived, objects) = try archivedValues(values)
        try encodeExactGroup(archived, objects: objects, typeString: typeString)
    }

    /// Appends one group holding a C array (`typeString` is its `"[N t]"` spelling) of `elements`.
    func encodeNeXTArray(_ elements: [NeXTValue], typeString: [UInt8]) throws(CoderError) {
        let (archived, objects) = try archivedValues(elements)
        try encodeExactGroup([.array(archived)], objects: objects, typeString: typeString)
    }

    private func archivedValues(_ values: [NeXTValue]) throws(CoderError) -> ([ArchivedValue], [ObjectIdentifier: AnyObject]) {
        var archived: [ArchivedValue] = []
        var objects: [ObjectIdentifier: AnyObject] = [:]
        for value in values { archived.append(try archivedValue(for: value, &objects)) }
        return (archived, objects)
    }

    private func archivedValue(for value: NeXTValue, _ objects: inout [ObjectIdentifier: AnyObject]) throws(CoderError) -> ArchivedValue {
        switch value {
        case .object(let object):
            let entry = try archivedValue(for: object)
            if case .object(let graphEntry?, _) = entry, let object { objects[ObjectIdentifier(graphEntry)] = object }
            return entry
        case .structure(let members):
            var out: [ArchivedValue] = []
            for member in members { out.append(try archivedValue(for: member, &objects)) }
            return .structure(out)
        case .array(let elements):
            var out: [ArchivedValue] = []
            for element in elements { out.append(try archivedValue(for: element, &objects)) }
            return .array(out)
        case .value(let plain):
            return try normalized(plain)
        }
    }

    private func encodeExactGroup(_ values: [ArchivedValue], objects: [ObjectIdentifier: AnyObject], typeString: [UInt8]) throws(CoderError) {
        let text = String(decoding: typeString, as: UTF8.self)
        let types: [ObjCType]
        do { types = try ObjCType.parseGroup(bytes: typeString) } catch {
            throw CoderError(.invalidValue, "type string '\(text)' does not parse: \(error.description)")
        }
        guard types.count == values.count else {
            throw CoderError(.invalidValue, "'\(text)' has \(types.count) types but \(values.count) values were given")
        }
        if !values.contains(where: \.containsClasses), types.map(\.encoding).joined().utf8.elementsEqual(typeString) {
            try encodeValues(values, ofObjCTypes: text)
        } else {
            try encodeGroup(ArchivedGroup(typeString: ArraySlice(typeString), types: types, values: values), objects: objects)
        }
    }

    /// A plain value with the source archive's string and C-string decisions dropped, so it is
    /// shared and numbered as this archiver decides. Throws `invalidValue` for objects.
    private func normalized(_ value: ArchivedValue) throws(CoderError) -> ArchivedValue {
        try value.mappingLeaves { (leaf) throws(CoderError) -> ArchivedValue in
            switch leaf {
            case .cString(let entry, _):
                return .cString(entry.map { cString($0.text) }, referenceWidth: nil)
            case .sharedString(let text, _):
                return .sharedString(text, decision: nil)
            case .object, .objectSlotClass:
                throw CoderError(.invalidValue, "an object inside a plain NeXT value; use NeXTValue.object")
            default:
                return leaf
            }
        }
    }
}

extension ObjectDecoder {
    /// Checks that `className` was archived with one of `supported` versions, else throws
    /// ``CoderError`` `unsupportedVersion` (the unarchiver then keeps the object generic).
    func requireVersion(of className: String, oneOf supported: [Int64]) throws(CoderError) {
        guard let version = version(ofClass: className), !supported.contains(version) else { return }
        let list = supported.map(String.init).joined(separator: ", ")
        throw CoderError(.unsupportedVersion, at: currentObjectOffset,
                         "\(className) version \(version) is not understood (supported: \(list))")
    }

    /// The archived version of `className` in the current object's chain (`nil` if absent).
    func chainVersion(of className: String) -> Int64? {
        currentClassChain.first { $0.name == className }?.version
    }
}

extension ArchivedValue {
    /// Whether two plain values hold the same contents, ignoring how they were written (integer
    /// widths, real forms, string and C-string sharing). Objects and classes compare by identity.
    func hasSameContents(as other: ArchivedValue) -> Bool {
        switch (self, other) {
        case (.integer(let a, _), .integer(let b, _)): return a == b
        case (.float(let a, _), .float(let b, _)): return a.bitPattern == b.bitPattern
        case (.double(let a, _), .double(let b, _)): return a.bitPattern == b.bitPattern
        case (.byte(let a), .byte(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a.elementsEqual(b)
        case (.unsharedString(let a, _), .unsharedString(let b, _)),
             (.sharedString(let a, _), .sharedString(let b, _)):
            return a.map(Array.init) == b.map(Array.init)
        case (.cString(let a, _), .cString(let b, _)): return a.map { Array($0.text) } == b.map { Array($0.text) }
        case (.object(let a, _), .object(let b, _)): return a === b
        case (.objectSlotClass(let a, _), .objectSlotClass(let b, _)): return a === b
        case (.classObject(let a, _), .classObject(let b, _)): return a === b
        case (.array(let a), .array(let b)), (.structure(let a), .structure(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.hasSameContents(as: $1) }
        case (.ignored, .ignored): return true
        default: return false
        }
    }
}
