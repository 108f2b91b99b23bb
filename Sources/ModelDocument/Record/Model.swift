import TypedStream
import TypedStreamFoundation

/// The users' `Model` record: an `NSObject` subclass written by the sequential coder.
///
/// The Objective-C original:
///
/// ```objc
/// @interface Model : NSObject <NSCoding>
///   NSString *md_name; NSString *md_type; UIImage *md_image;
///   CGRect md_rt; NSUInteger md_flag; NSInteger md_kind; NSInteger md_para;
/// - (void)encodeWithCoder:(NSCoder *)c {
///   [c encodeObject:md_name]; [c encodeObject:md_type];
///   [c encodeValueOfObjCType:@encode(CGRect) at:&md_rt];       // "{?=ffff}"
///   [c encodeValueOfObjCType:@encode(NSUInteger) at:&md_flag]; // "I"
///   [c encodeValueOfObjCType:@encode(NSInteger) at:&md_kind];  // "i"
///   [c encodeValueOfObjCType:@encode(NSInteger) at:&md_para];  // "i"
/// }
/// ```
///
/// Each value is its own group, in that order; which groups exist depends on the document
/// version (``layout``, see ``DocumentVersion``; the layout's table is ``ModelField``). The
/// thumbnail (`md_image`) is never archived: it lives in a side file found by the name. The
/// record's keyed and plain-JSON forms are ``ModelRecordForm``, registered with the export
/// module's hooks (`RecordForms.modelDocument`).
///
/// The name and type keep the string *objects* they were decoded from, so strings shared between
/// records (an Objective-C constant like `@"photo"` is archived once, then referenced) stay
/// shared when the document is written again, and the bytes come out the same.
///
/// ```swift
/// let model = Model(ModelRecord(name: "Sunrise", type: "photo", flag: 1))
/// let bytes = try Archiver.archivedBytes(withRootObject: model)
/// ```
public final class Model: ArchivableObject, CustomStringConvertible {
    /// `"Model"`, the archived class name.
    public static let className = "Model"
    /// The class version written for new records: 0, because the Objective-C class never called
    /// `+setVersion:` (the document version lives in the settings file instead).
    public static let classVersion: Int64 = 0
    /// `Model` v0 : `NSObject` v0.
    public static let defaultChain = [ArchiveClassLink(className, version: classVersion), .nsObject]

    /// The class chain written (kept as read).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.defaultChain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// Which groups ``encodeContents(with:)`` writes and ``decodeContents(with:)`` expects.
    @exclusivity(unchecked) public var layout: DocumentVersion = .current

    /// The `md_name` object (an `NSString`/`NSMutableString`), kept as decoded.
    @exclusivity(unchecked) public var nameObject: StringObject?
    /// The `md_type` object, kept as decoded.
    @exclusivity(unchecked) public var typeObject: StringObject?
    /// `md_rt`.
    @exclusivity(unchecked) public var rect: ModelRect = .zero
    /// `md_flag`.
    @exclusivity(unchecked) public var flag: UInt32 = 0
    /// `md_kind`.
    @exclusivity(unchecked) public var kind: Int32 = 0
    /// `md_para` (0 when the layout has none).
    @exclusivity(unchecked) public var para: Int32 = 0
    /// The reserved `i` group of the version 3 draft (0 when the layout has none).
    @exclusivity(unchecked) public var reserved: Int32 = 0
    /// Where `md_image`'s bytes are (memory, the side file, the undo history's store).
    var thumbnailSource: ThumbnailSource?

    /// `md_image`'s bytes, from the side file (read when asked for, not when the document is
    /// opened; `nil` when there is none or it can no longer be read); never archived.
    public var thumbnail: [UInt8]? {
        get { try? thumbnailSource?.bytes() }
        set { thumbnailSource = newValue.map(ThumbnailSource.init(bytes:)) }
    }

    /// The thumbnail's length in bytes, known without reading it; `nil` when there is none.
    public var thumbnailLength: Int? { thumbnailSource?.length }

    /// Creates an empty Model (nil name and type, zero values) in the current layout.
    public init() {}

    /// Creates a Model holding `record`'s values, in `layout`.
    public init(_ record: ModelRecord, layout: DocumentVersion = .current) {
        self.layout = layout
        apply(record)
    }

    /// `md_name` as text (`nil` for a nil object).
    public var name: String? {
        get { nameObject?.string }
        set { nameObject = newValue.map { StringObject($0) } }
    }

    /// `md_type` as text (`nil` for a nil object).
    public var type: String? {
        get { typeObject?.string }
        set { typeObject = newValue.map { StringObject($0) } }
    }

    /// The values as a plain record.
    public var record: ModelRecord {
        ModelRecord(name: name, type: type, rect: rect, flag: flag, kind: kind, para: para,
                    reserved: reserved, thumbnail: thumbnail)
    }

    /// Sets every value from `record`, keeping the current string objects where the text is
    /// unchanged (so sharing and `NSMutableString` classes survive an update).
    public func apply(_ record: ModelRecord) {
        if name != record.name { name = record.name }
        if type != record.type { type = record.type }
        rect = record.rect
        flag = record.flag
        kind = record.kind
        para = record.para
        reserved = record.reserved
        thumbnail = record.thumbnail
    }

    /// A new Model with the same values, layout and class chain, sharing the (immutable) string objects.
    public func copy() -> Model {
        let other = Model()
        other.archiveClassChain = archiveClassChain
        other.layout = layout
        other.nameObject = nameObject
        other.typeObject = typeObject
        other.rect = rect
        other.flag = flag
        other.kind = kind
        other.para = para
        other.reserved = reserved
        other.thumbnailSource = thumbnailSource
        return other
    }

    /// Reads the groups of ``layout``: `@ @ {?=ffff} I i` [`i` para] [`i` reserved].
    /// Throws ``CoderError`` (`typeMismatch`, `unexpectedClass` for a name or type that is not a
    /// string, `noMoreValues` for a record shorter than its layout).
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        nameObject = try decoder.decodeObject(of: StringObject.self)
        typeObject = try decoder.decodeObject(of: StringObject.self)
        rect = try decoder.decode()
        flag = try decoder.decode()
        kind = try decoder.decode()
        para = layout.hasPara ? try decoder.decode() : 0
        reserved = layout.hasReserved ? try decoder.decode() : 0
    }

    /// Writes the groups of ``layout``, each as its own group. Throws ``CoderError``
    /// `invalidValue` when a value would be lost because the layout has no group for it.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        let lost = record.fieldsLost(in: layout)
        guard lost.isEmpty else {
            throw CoderError(.invalidValue, "document version \(layout) cannot hold \(lost.joined(separator: ", ")) of model '\(name ?? "nil")'")
        }
        try encoder.encodeObject(nameObject)
        try encoder.encodeObject(typeObject)
        try encoder.encode(rect)
        try encoder.encode(flag)
        try encoder.encode(kind)
        if layout.hasPara { try encoder.encode(para) }
        if layout.hasReserved { try encoder.encode(reserved) }
    }

    /// "Model(name: Sunrise, type: photo, rect: 0,0,320,240, flag: 1, kind: 2, para: 0)".
    public var description: String {
        var text = "Model(name: \(name ?? "nil"), type: \(type ?? "nil"), rect: \(rect), flag: \(flag), kind: \(kind)"
        if layout.hasPara { text += ", para: \(para)" }
        if layout.hasReserved { text += ", reserved: \(reserved)" }
        return text + ")"
    }
}
