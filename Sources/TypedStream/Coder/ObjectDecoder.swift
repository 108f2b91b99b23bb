/// What a class codec reads its object's contents from: the ordered, NSCoder-style vocabulary of
/// ``ArchivableObject/decodeContents(with:)``.
///
/// ``Unarchiver`` is the decoder of typedstream bytes and graphs; any other source of an object's
/// groups — a test double, a decoder of another archive form — conforms by answering these
/// requirements, and every codec then runs on it unchanged. Values come back one *group* per
/// call, in the order they were written, each call naming the type it expects; a conformer
/// throws ``CoderError`` (`typeMismatch`, `noMoreValues` …) rather than misreading.
///
/// The requirements with a default implementation below (``nextGroupHasTypeString(_:)``,
/// ``decodeByteSlice()``, ``decodeCString()``, ``object(for:)-(ArchivedValue)``, the offsets) are there for a
/// minimal conformer; ``Unarchiver`` answers them itself, faster. The helpers codecs call most —
/// ``decode(_:)``, ``decodeObject(of:)``, ``decodeBytes()``, ``decodeDataObject()`` — are
/// extensions written in terms of the requirements, inlinable so that a codec specialized for a
/// coder (see ``ArchivableObject``) calls that coder directly.
///
/// ```swift
/// func decodeContents(with decoder: some ObjectDecoder) throws {
///     x = try decoder.decode()                        // an "i" group as Int32
///     name = try decoder.decodeObject(of: StringObject.self)
/// }
/// ```
public protocol ObjectDecoder: AnyObject {
    // MARK: Where decoding stands

    /// The class chain of the object being decoded, most derived first (empty at the top level).
    var currentClassChain: [ArchiveClassLink] { get }
    /// Whether every class of ``currentClassChain`` was archived at version 0 (the usual case,
    /// asked before any version is compared), answered without copying the chain where the
    /// decoder can.
    var currentClassChainIsAtVersionZero: Bool { get }
    /// The version `className` was archived with (`versionForClassName:`): from the current
    /// object's chain, else from any class met so far; `nil` when the archive has no such class.
    func version(ofClass className: String) -> Int64?
    /// The byte offset where the object being decoded begins in its source, when known: what
    /// codecs name in their errors.
    var currentObjectOffset: Int? { get }
    /// The byte offset of the object's end marker in its source, once all its groups are taken
    /// (when known).
    var currentObjectEndOffset: Int? { get }
    /// The graph entry of the object being decoded, when the decoder reads an archive graph
    /// (``GenericObject/source`` keeps it); `nil` otherwise. Never makes a graph.
    var currentGraphObject: ArchivedObject? { get }
    /// The byte offset of the next group, when known: what errors about that group name.
    var nextGroupOffset: Int? { get }
    /// Whether the current object (or the top level) has groups left.
    var hasMoreGroups: Bool { get }
    /// Checks, before anything is allocated, that the current object could hold `needed`
    /// groups in all, so a count read from the input cannot ask for more elements than it
    /// carries. Throws ``CoderError`` `badContents` naming `what`.
    func requireGroups(_ needed: Int, for what: @autoclosure () -> String) throws(CoderError)
    /// The type string of the next group, without taking it (`nil` at the end).
    func peekTypeString() -> String?
    /// Whether the next group's type string is exactly `typeString`.
    func nextGroupHasTypeString(_ typeString: String) -> Bool

    // MARK: Values

    /// Takes the next group, which must be a single value of type `typeString`
    /// (`decodeValueOfObjCType:at:`). Throws ``CoderError`` `typeMismatch` for another type,
    /// `noMoreValues` at the end.
    func decodeValue(ofObjCType typeString: String) throws(CoderError) -> ArchivedValue
    /// Takes the next group, which must have exactly the type string `typeString` (`"iI"`),
    /// and returns its values (`decodeValuesOfObjCTypes:`).
    func decodeValues(ofObjCTypes typeString: String) throws(CoderError) -> [ArchivedValue]
    /// Takes counted bytes (type `"+"`, `decodeBytesWithReturnedLength:`); `nil` for NULL.
    func decodeByteSlice() throws(CoderError) -> ArraySlice<UInt8>?
    /// Takes a C string (type `"*"`, `decodeValueOfObjCType:"*"`) and returns its text; `nil`
    /// for NULL. Throws ``CoderError`` `typeMismatch` for another type, `noMoreValues` at the end.
    func decodeCString() throws(CoderError) -> String?
    /// Takes the next group whatever its type (for keeping an object generically). Throws
    /// `noMoreValues` at the end.
    func decodeGroup() throws(CoderError) -> ArchivedGroup

    // MARK: Objects

    /// Takes the next `"@"` group: the object (typed where its class is registered, else a
    /// ``GenericObject``), or `nil` (`decodeObject`).
    func decodeObject() throws(CoderError) -> AnyObject?
    /// The decoded instance an `@` value of a group refers to (`nil` for nil), decoding it on
    /// first use; a ``ClassReference`` for a slot naming a class.
    func object(for value: ArchivedValue) throws(CoderError) -> AnyObject?
    /// The decoded instance of a graph object a group refers to, decoding it on first use.
    func object(for entry: ArchivedObject) throws(CoderError) -> AnyObject
}

// MARK: - Defaults for a minimal conformer

extension ObjectDecoder {
    /// Looks at ``currentClassChain``.
    public var currentClassChainIsAtVersionZero: Bool {
        currentClassChain.isAtVersionZero
    }

    /// Looks in the current object's chain only.
    public func version(ofClass className: String) -> Int64? {
        currentClassChain.first { $0.name == className }?.version
    }

    /// Unknown: `nil`.
    public var currentObjectOffset: Int? { nil }
    /// Unknown: `nil`.
    public var currentObjectEndOffset: Int? { nil }
    /// No graph: `nil`.
    public var currentGraphObject: ArchivedObject? { nil }
    /// Unknown: `nil`.
    public var nextGroupOffset: Int? { nil }

    /// Compares ``peekTypeString()`` with `typeString`.
    public func nextGroupHasTypeString(_ typeString: String) -> Bool {
        peekTypeString() == typeString
    }

    /// Takes a `"+"` value with ``decodeValue(ofObjCType:)``.
    public func decodeByteSlice() throws(CoderError) -> ArraySlice<UInt8>? {
        guard case .unsharedString(let payload, _) = try decodeValue(ofObjCType: "+") else {
            throw CoderError(.badContents, at: currentObjectOffset, "counted bytes expected")
        }
        return payload
    }

    /// Takes a `"*"` value with ``decodeValue(ofObjCType:)``.
    public func decodeCString() throws(CoderError) -> String? {
        guard case .cString(let entry, _) = try decodeValue(ofObjCType: "*") else {
            throw CoderError(.typeMismatch, at: currentObjectOffset, "a C string expected")
        }
        return entry?.string
    }

    /// Nil for nil, ``object(for:)-(ArchivedObject)`` for an object, a ``ClassReference`` for
    /// a slot naming a class; throws `typeMismatch` for any other value.
    public func object(for value: ArchivedValue) throws(CoderError) -> AnyObject? {
        switch value {
        case .object(let entry, _):
            guard let entry else { return nil }
            return try object(for: entry)
        case .objectSlotClass(let entry, _):
            return ClassReference(entry)
        default:
            throw CoderError(.typeMismatch, "expected an object, found \(value.kindName)")
        }
    }
}

// MARK: - Helpers every conformer gets

extension ObjectDecoder {
    /// Decodes the next group as a `T` (`Int32` from `"i"`, a rect from `"{?=ffff}"`); an error
    /// without an offset gets the group's.
    ///
    /// Always inlined, as ``decodeObject(of:)``: a codec's call is then specialized for its `T`
    /// even while the codec is generic over its decoder, where a call of the generic helper
    /// looked up `T`'s metadata and cast through it at run time on every value.
    @inlinable @inline(__always)
    public func decode<T: ObjCValueConvertible>(_ type: T.Type = T.self) throws(CoderError) -> T {
        let offset = nextGroupOffset
        do { return try T(archivedValue: decodeValue(ofObjCType: T.objCType)) } catch {
            throw CoderError(error.code, at: error.offset ?? offset, error.reason)
        }
    }

    /// Decodes the next `"@"` group as a `T`; throws `unexpectedClass` when it is something else.
    @inlinable @inline(__always)
    public func decodeObject<T>(of type: T.Type) throws(CoderError) -> T? {
        let offset = nextGroupOffset
        guard let object = try decodeObject() else { return nil }
        guard let typed = object as? T else {
            throw CoderError(.unexpectedClass, at: offset, "expected \(T.self), found \(describeDecodedObject(object))")
        }
        return typed
    }

    /// Decodes the next group as a C array of `count` elements of `T` (`"[4i]"`).
    public func decodeArray<T: ObjCValueConvertible>(of type: T.Type = T.self, count: Int) throws(CoderError) -> [T] {
        let value = try decodeValue(ofObjCType: "[\(count)\(T.objCType)]")
        switch value {
        case .array(let values):
            var result: [T] = []
            result.reserveCapacity(values.count)
            for v in values { result.append(try T(archivedValue: v)) }
            return result
        case .bytes(let payload):
            var result: [T] = []
            for b in payload { result.append(try T(archivedValue: .byte(b))) }
            return result
        default:
            throw CoderError(.typeMismatch, "expected an array, found \(value.kindName)")
        }
    }

    /// Decodes counted bytes (`"+"`) as an array; `nil` for NULL.
    @inlinable
    public func decodeBytes() throws(CoderError) -> [UInt8]? {
        try decodeByteSlice().map(Array.init)
    }

    /// Decodes a data object as NSData writes it: an `"i"` length group, then a `"[Nc]"` group
    /// (which an empty one may leave out). Throws `badContents` for a negative length.
    @inlinable
    public func decodeDataObject() throws(CoderError) -> ArraySlice<UInt8> {
        let lengthOffset = nextGroupOffset
        let length: Int32 = try decode()
        guard length >= 0 else { throw CoderError(.badContents, at: lengthOffset, "data length \(length) is negative") }
        if length == 0, !nextGroupHasTypeString("[0c]") { return [] }
        guard case .bytes(let payload) = try decodeValue(ofObjCType: "[\(length)c]") else {
            throw CoderError(.badContents, at: lengthOffset, "data bytes expected")
        }
        return payload
    }
}

/// How an unexpected object is named in errors ("an object of class NSString").
@usableFromInline
func describeDecodedObject(_ object: AnyObject) -> String {
    if let archivable = object as? ArchivableObject, let first = archivable.archiveClassChain.first {
        return "an object of class \(first.name)"
    }
    return "\(type(of: object))"
}
