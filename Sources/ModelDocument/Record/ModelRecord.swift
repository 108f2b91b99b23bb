/// The values of one Model as a plain value: what the facade lists, adds and updates.
///
/// ```swift
/// var record = ModelRecord(name: "Sunrise", type: "photo", rect: ModelRect(x: 0, y: 0, width: 320, height: 240))
/// record.flag = 1
/// document.add(record)
/// ```
public struct ModelRecord: Hashable, Sendable {
    /// `md_name`; the thumbnail side file is found by it. `nil` archives a nil object.
    public var name: String?
    /// `md_type`. `nil` archives a nil object.
    public var type: String?
    /// `md_rt`.
    public var rect: ModelRect
    /// `md_flag` (`NSUInteger`, archived as `I`).
    public var flag: UInt32
    /// `md_kind` (`NSInteger`, archived as `i`).
    public var kind: Int32
    /// `md_para` (`NSInteger`, archived as `i`; version 2 and later, else 0).
    public var para: Int32
    /// The reserved `i` group of the version 3 draft (0 in other versions).
    public var reserved: Int32
    /// `md_image`: the thumbnail's bytes from its side file; never archived. `nil` when the model
    /// has no thumbnail (or its side file was missing).
    public var thumbnail: [UInt8]?

    /// Creates a record.
    public init(name: String? = nil, type: String? = nil, rect: ModelRect = .zero, flag: UInt32 = 0,
                kind: Int32 = 0, para: Int32 = 0, reserved: Int32 = 0, thumbnail: [UInt8]? = nil) {
        self.name = name
        self.type = type
        self.rect = rect
        self.flag = flag
        self.kind = kind
        self.para = para
        self.reserved = reserved
        self.thumbnail = thumbnail
    }

    /// Reads the file at `path` (at most 1 GiB) as the record's thumbnail. Throws
    /// ``ModelDocumentError`` `io` ("cannot read 'PATH': No such file or directory").
    public mutating func readThumbnail(fromFile path: String) throws(ModelDocumentError) {
        thumbnail = try DurableIO.read(path)
    }

    /// The fields `version` cannot hold (non-zero `para` in version 1, non-zero `reserved` before
    /// version 3), by their Objective-C names; empty when the record fits.
    public func fieldsLost(in version: DocumentVersion) -> [String] {
        var lost: [String] = []
        if !version.hasPara, para != 0 { lost.append("md_para") }
        if !version.hasReserved, reserved != 0 { lost.append("reserved") }
        return lost
    }
}
