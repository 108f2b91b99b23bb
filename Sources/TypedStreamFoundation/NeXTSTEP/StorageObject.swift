import TypedStream

/// NeXTSTEP's `Storage` (versions 0 and 1): an array of plain C values whose type is given by a
/// type string it archives itself (`"*"`, `"i"`, `"ii"` for a struct of two ints …).
///
/// ```text
/// version 0:  "*iii"  description, element size, a capacity-like int, count   then "[count desc]" always
/// version 1:  "%ii"   description, element size, count                        then "[count desc]" if count > 0
/// ```
///
/// The layout is chosen by the archived class version, as NeXT's `-read:` does with
/// `NXTypedStreamClassVersion`; the stream's system version plays no part.
///
/// The array's type string is written as NeXT's `NXWriteArray` spells it — `"[3ii]"` for an
/// element type of several letters — and kept byte for byte. The element size is the writer's
/// `sizeof` and is kept as archived (it depends on the writer's machine).
///
/// ```swift
/// let names = StorageObject(elementType: "*", elementSize: 4, elements: [.cString("a"), .cString("b")])
/// names.elements[1].stringValue      // "b"
/// ```
public final class StorageObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// The chain as archived (`Storage` v1 : `Object` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = StorageObject.defaultChain
    /// The element type string (NeXT calls it the description), as archived.
    public var elementType: [UInt8] = Array("i".utf8)
    /// The size of one element in bytes on the writing machine.
    public var elementSize: Int32 = 4
    /// Version 0 only: the third int of the `"*iii"` group, which NeXT's reader names
    /// `_growAmount` and ignores. Written back as read; a new version-0 object writes the count.
    public var version0Capacity: Int32?
    /// The elements in order.
    public var elements: [NeXTValue] = []

    /// `Storage` v1 : `Object` v0 — what NeXTSTEP 2 and 3 write.
    public static let defaultChain = [ArchiveClassLink("Storage", version: 1), .object]

    /// Creates an empty storage of `int`s.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        for element in elements { element.appendObjects(to: &pending) }
        elements = []
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a storage of `elements` of type `elementType`, archived as `Storage` version 1.
    public init(elementType: String, elementSize: Int32, elements: [NeXTValue]) {
        self.elementType = Array(elementType.utf8)
        self.elementSize = elementSize
        self.elements = elements
    }

    /// The element type as text.
    public var elementTypeString: String { String(decoding: elementType, as: UTF8.self) }

    /// The archived `Storage` version (1 unless the chain says otherwise).
    public var storageVersion: Int64 { archiveClassChain.first { $0.name == "Storage" }?.version ?? 1 }

    private var isByteElement: Bool { elementType == [UInt8(ascii: "c")] || elementType == [UInt8(ascii: "C")] }

    /// Reads the header group and the elements. Throws ``CoderError``: `unsupportedVersion` for a
    /// `Storage` version other than 0 or 1, `badContents` for a negative count or a NULL description.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "Storage", oneOf: [0, 1])
        let offset = decoder.objectOffset
        let count: Int32
        let description: NeXTValue
        if storageVersion == 0 {
            let values = try decoder.decodeValues(ofObjCTypes: "*iii")
            description = .value(values[0])
            elementSize = try Int32(archivedValue: values[1])
            version0Capacity = try Int32(archivedValue: values[2])
            count = try Int32(archivedValue: values[3])
        } else {
            let values = try decoder.decodeValues(ofObjCTypes: "%ii")
            description = .value(values[0])
            elementSize = try Int32(archivedValue: values[1])
            count = try Int32(archivedValue: values[2])
        }
        guard let typeBytes = description.stringBytes, !typeBytes.isEmpty else {
            throw CoderError(.badContents, at: offset, "Storage element type is NULL or empty")
        }
        guard count >= 0 else { throw CoderError(.badContents, at: offset, "Storage count \(count) is negative") }
        elementType = Array(typeBytes)
        elements = []
        guard count > 0 || storageVersion == 0 else { return }
        let arrayType = "[\(count)\(elementTypeString)]"
        switch try decoder.decodeValue(ofObjCType: arrayType) {
        case .bytes(let bytes):
            elements = bytes.map { .value(.byte($0)) }
        case .array(let values):
            for value in values { elements.append(try decoder.nextValue(from: value)) }
        default:
            throw CoderError(.badContents, at: offset, "Storage elements of type '\(arrayType)' expected")
        }
    }

    /// Writes the header group and the elements in the layout of ``storageVersion``.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        guard let count = Int32(exactly: elements.count) else {
            throw CoderError(.invalidValue, "a Storage of \(elements.count) elements is too large")
        }
        if storageVersion == 0 {
            try encoder.encodeValues([.cString(encoder.cString(elementType), referenceWidth: nil),
                                      .integer(Int64(elementSize), width: nil),
                                      .integer(Int64(version0Capacity ?? count), width: nil),
                                      .integer(Int64(count), width: nil)], ofObjCTypes: "*iii")
        } else {
            try encoder.encodeValues([.sharedString(ArraySlice(elementType), decision: nil),
                                      .integer(Int64(elementSize), width: nil),
                                      .integer(Int64(count), width: nil)], ofObjCTypes: "%ii")
            guard count > 0 else { return }
        }
        let arrayType = Array("[\(count)".utf8) + elementType + [UInt8(ascii: "]")]
        if isByteElement {
            var bytes: [UInt8] = []
            for element in elements {
                guard case .value(.byte(let b)) = element else {
                    throw CoderError(.invalidValue, "a Storage of '\(elementTypeString)' holds a value that is not a byte")
                }
                bytes.append(b)
            }
            try encoder.encodeValue(.bytes(ArraySlice(bytes)), ofObjCType: String(decoding: arrayType, as: UTF8.self))
            return
        }
        try encoder.encodeNeXTArray(elements, typeString: arrayType)
    }

    /// "Storage(* × 3, 4 bytes each)".
    public var description: String { "Storage(\(elementTypeString) × \(elements.count), \(elementSize) bytes each)" }
}
