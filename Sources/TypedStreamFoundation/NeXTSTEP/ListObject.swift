import TypedStream

/// NeXTSTEP's `List` (versions 0 and 1): an ordered list of objects, the NeXT-era `NSArray`.
///
/// The layout depends on the archived `List` version, as NeXT's `-read:` decides with
/// `NXTypedStreamClassVersion` (not on the stream's system version):
///
/// ```text
/// version 0:  "ii"  (a capacity-like int the reader ignores, count)   then "[count@]" always
/// version 1:  "i"   count                                             then "[count@]" if count > 0
/// ```
///
/// `Object`, the superclass, writes nothing.
///
/// ```swift
/// let list = ListObject([a, b])          // List v1 : Object v0
/// list.elements.count                    // 2
/// ```
public final class ListObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// The chain as archived (`List` v1 : `Object` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] = ListObject.defaultChain
    /// The elements (typed objects where their class is registered, else generic; `nil` for nil).
    public var elements: [AnyObject?] = []
    /// Version 0 only: the first int of the `"ii"` group, which NeXT's reader names `_growAmount`
    /// and ignores (the writer stored the list's capacity there). Written back as read; a new
    /// version-0 list writes its element count.
    public var version0Capacity: Int32?

    /// `List` v1 : `Object` v0 — what NeXTSTEP 2 and 3 write.
    public static let defaultChain = [ArchiveClassLink("List", version: 1), .object]

    /// Creates an empty list.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        pending.appendObjects(of: &elements)
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates a list of `elements`, archived as `List` version 1.
    public init(_ elements: [AnyObject?]) {
        self.elements = elements
    }

    /// The archived `List` version (1 unless the chain says otherwise).
    public var listVersion: Int64 { archiveClassChain.first { $0.name == "List" }?.version ?? 1 }

    /// Reads the count and the elements. Throws ``CoderError``: `unsupportedVersion` for a
    /// `List` version other than 0 or 1, `badContents` for a negative count.
    public func decodeContents(with decoder: some ObjectDecoder) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireVersion(of: "List", oneOf: [0, 1])
        let offset = decoder.objectOffset
        let count: Int32
        if listVersion == 0 {
            let values = try decoder.decodeValues(ofObjCTypes: "ii")
            version0Capacity = try Int32(archivedValue: values[0])
            count = try Int32(archivedValue: values[1])
        } else {
            count = try decoder.decode()
        }
        guard count >= 0 else { throw CoderError(.badContents, at: offset, "List count \(count) is negative") }
        elements = []
        guard count > 0 || listVersion == 0 else { return }
        guard case .array(let values) = try decoder.decodeValue(ofObjCType: "[\(count)@]") else {
            throw CoderError(.badContents, at: offset, "List elements expected")
        }
        for value in values { elements.append(try decoder.object(for: value)) }
    }

    /// Writes the count and the elements in the layout of ``listVersion``.
    public func encodeContents(with encoder: some ObjectEncoder) throws {
        guard let count = Int32(exactly: elements.count) else {
            throw CoderError(.invalidValue, "a List of \(elements.count) elements is too large")
        }
        if listVersion == 0 {
            try encoder.encodeValues([.integer(Int64(version0Capacity ?? count), width: nil), .integer(Int64(count), width: nil)], ofObjCTypes: "ii")
        } else {
            try encoder.encode(count)
            guard count > 0 else { return }
        }
        var values: [ArchivedValue] = []
        for element in elements { values.append(try encoder.archivedValue(for: element)) }
        try encoder.encodeValue(.array(values), ofObjCType: "[\(count)@]")
    }

    /// "List(3 elements)".
    public var description: String { "List(\(elements.count) elements)" }
}
