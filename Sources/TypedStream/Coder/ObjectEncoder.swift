/// What a class codec writes its object's contents to: the ordered, NSCoder-style vocabulary of
/// ``ArchivableObject/encodeContents(with:)``.
///
/// ``Archiver`` writes typedstream bytes; any other sink for an object's groups — a test double,
/// an encoder of another archive form — conforms by answering these requirements, and every
/// codec then runs on it unchanged. Each call appends one *group* (a type string and its values)
/// to the object being encoded; objects are shared by identity (the first ``encodeObject(_:)``
/// of an instance writes it, later ones refer to it). A conformer throws ``CoderError``
/// `invalidValue` for values that do not fit their type string.
///
/// ``encodeValue(_:ofObjCType:)`` and ``encodeConditionalObject(_:)`` have default
/// implementations for a minimal conformer; the helpers codecs call most — ``encode(_:)``,
/// ``encodeBytes(_:)``, ``encodeDataObject(_:)`` — are extensions written in terms of the
/// requirements, inlinable so that a codec specialized for a coder (see ``ArchivableObject``)
/// calls that coder directly.
///
/// ```swift
/// func encodeContents(with encoder: some ObjectEncoder) throws {
///     try encoder.encode(x)                           // an "i" group from Int32
///     try encoder.encodeObject(name)
/// }
/// ```
public protocol ObjectEncoder: AnyObject {
    /// Appends one group of `values` with the type string `typeString`
    /// (`encodeValuesOfObjCTypes:`). Throws ``CoderError`` `invalidValue` when the values do not
    /// match the types.
    func encodeValues(_ values: [ArchivedValue], ofObjCTypes typeString: String) throws(CoderError)
    /// Appends one group holding one value of type `typeString` (`encodeValueOfObjCType:at:`).
    func encodeValue(_ value: ArchivedValue, ofObjCType typeString: String) throws(CoderError)
    /// Appends an `"@"` group with `object` (`nil` writes nil). The object must be an
    /// ``ArchivableObject`` (or a ``ClassReference``); its contents are written the first time
    /// it is met, later groups refer to it.
    func encodeObject(_ object: AnyObject?) throws(CoderError)
    /// Appends `object` only if something encodes it unconditionally; otherwise nil
    /// (`encodeConditionalObject:`).
    func encodeConditionalObject(_ object: AnyObject?) throws(CoderError)
    /// The `@` value for `object`, to be written inside a group of several values with
    /// ``encodeValues(_:ofObjCTypes:)``; its contents are encoded the first time it is met.
    func archivedValue(for object: AnyObject?) throws(CoderError) -> ArchivedValue
    /// A C-string value (for `"*"` slots), shared by content as NSArchiver shares constant
    /// `objCType` strings.
    func cString(_ text: some Collection<UInt8>) -> ArchivedCString
    /// Appends a group read from an archive (``GenericObject`` writes its groups back with it):
    /// objects are written from `decoded`, the decoded instances by the identity of their
    /// ``ArchivedObject``.
    func encodeGroup(_ group: ArchivedGroup, objects decoded: [ObjectIdentifier: AnyObject]) throws(CoderError)
}

// MARK: - Defaults for a minimal conformer

extension ObjectEncoder {
    /// A group of one value through ``encodeValues(_:ofObjCTypes:)``.
    public func encodeValue(_ value: ArchivedValue, ofObjCType typeString: String) throws(CoderError) {
        try encodeValues([value], ofObjCTypes: typeString)
    }

    /// Encodes `object` unconditionally, as `NSCoder` does by default.
    public func encodeConditionalObject(_ object: AnyObject?) throws(CoderError) {
        try encodeObject(object)
    }
}

// MARK: - Helpers every conformer gets

extension ObjectEncoder {
    /// Appends one group holding `value` with its own type (`Int32` → `"i"` …). Always inlined:
    /// a codec's call is then specialized for its `T` even while the codec is generic.
    @inlinable @inline(__always)
    public func encode<T: ObjCValueConvertible>(_ value: T) throws(CoderError) {
        try encodeValue(value.archivedValue, ofObjCType: T.objCType)
    }

    /// Appends a C array of `values` as one group (`"[4i]"`).
    public func encodeArray<T: ObjCValueConvertible>(_ values: [T]) throws(CoderError) {
        let type = "[\(values.count)\(T.objCType)]"
        if T.objCType == "c" || T.objCType == "C" {
            var bytes: [UInt8] = []
            for v in values { if case .byte(let b) = v.archivedValue { bytes.append(b) } }
            return try encodeValue(.bytes(ArraySlice(bytes)), ofObjCType: type)
        }
        try encodeValue(.array(values.map(\.archivedValue)), ofObjCType: type)
    }

    /// Appends counted bytes (`encodeBytes:length:`, type `"+"`); `nil` writes NULL.
    @inlinable
    public func encodeBytes(_ bytes: [UInt8]?) throws(CoderError) {
        try encodeByteSlice(bytes.map { ArraySlice($0) })
    }

    /// Appends counted bytes from a slice, without copying them first (the twin of
    /// ``ObjectDecoder/decodeByteSlice()``); `nil` writes NULL.
    @inlinable
    public func encodeByteSlice(_ bytes: ArraySlice<UInt8>?) throws(CoderError) {
        try encodeValue(.unsharedString(bytes, lengthWidth: nil), ofObjCType: "+")
    }

    /// Appends a data object's contents as NSData writes them: `"i"` length, then `"[Nc]"`.
    /// Throws `invalidValue` for more bytes than an `"i"` counts.
    @inlinable
    public func encodeDataObject(_ bytes: some Collection<UInt8>) throws(CoderError) {
        guard let length = Int32(exactly: bytes.count) else {
            throw CoderError(.invalidValue, "data of \(bytes.count) bytes is too large for an archive")
        }
        try encode(length)
        try encodeValue(.bytes(contiguousSlice(of: bytes)), ofObjCType: "[\(length)c]")
    }
}

/// `bytes` as a slice: an array's or a slice's own memory, else one copy of contiguous memory
/// (a copy element by element through the generic collection ran at about 1 GB/s).
@usableFromInline
func contiguousSlice(of bytes: some Collection<UInt8>) -> ArraySlice<UInt8> {
    if let slice = bytes as? ArraySlice<UInt8> { return slice }
    if let array = bytes as? [UInt8] { return array[...] }
    return bytes.withContiguousStorageIfAvailable { ArraySlice($0) } ?? ArraySlice(bytes)
}
