import TypedStream
import TypedStreamFoundation

/// Converts a decoded typedstream into an `NSKeyedArchiver` archive: the property list
/// `{$archiver: "NSKeyedArchiver", $version: 100000, $top: {root: UID}, $objects: ["$null", …]}`
/// that `NSKeyedUnarchiver` opens, laid out as Apple's `NSKeyedArchiver` lays out the same
/// Foundation objects. Classes without a keyed layout keep their groups under documented keys
/// (`TSVersion`, `TSClassVersions`, `TSGroups`), unless a higher module registered a form for
/// the class (``Options/recordForms``, ``RecordForm``). The whole mapping is in
/// docs/keyed-mapping.md.
///
/// ```swift
/// let bytes = try KeyedArchiveExporter.binary(typedstream: archiveBytes)   // a bplist00 file
/// let text = try KeyedArchiveExporter.xml(typedstream: archiveBytes)       // the XML form
/// let root = try Unarchiver(bytes: archiveBytes, registry: .foundation).decodeRootObject()
/// let plist = try KeyedArchiveExporter.export(root: root)                   // a PlistValue
/// ```
public enum KeyedArchiveExporter {
    /// How attributed strings with a single run are written.
    public enum AttributeRunLayout: Hashable, Sendable {
        /// Apple's layout: one run → `NSAttributes` is its dictionary and there is no
        /// `NSAttributeInfo`; several runs → an array and `NSAttributeInfo`. (swift-corelibs-foundation
        /// on Linux cannot read the one-run form, not even when it wrote it itself.)
        case apple
        /// Always an array of dictionaries plus `NSAttributeInfo`, which both Apple's and
        /// swift-corelibs-foundation's `NSKeyedUnarchiver` read.
        case alwaysIndexed
    }

    /// Export options.
    public struct Options: Hashable, Sendable {
        /// How single-run attributed strings are laid out. Default ``AttributeRunLayout/apple``.
        public var attributeRuns: AttributeRunLayout = .apple
        /// The keyed forms of classes without a codec here, registered by the modules that own
        /// them: a generic object whose class has a form is written in the form's keys when its
        /// groups have the form's shape (``RecordForm/encodeKeyed(_:with:)``). Default empty.
        public var recordForms = RecordForms()
        /// Deepest nesting of objects written. Default 512.
        public var maximumDepth = 512
        /// The most bytes of string and data values the archive may hold, counted as they are
        /// written (a value written again where it is reached again — a group's type string, a C
        /// string — counts each time). `nil`: no bound, except when exporting a typedstream's
        /// bytes, where it defaults to ``expansionBudget(forInputBytes:)``.
        public var maximumTextBytes: Int? = nil
        /// Write the archives held as bytes (typedstreams in data values) also as keyed objects,
        /// under `TSArchives` beside the bytes (`convert --deep`; ``KeyedReadableKeys``). Default `false`.
        public var deep = false

        /// The defaults.
        public init() {}
    }

    /// The `$version` written: 100000.
    public static let archiveVersion: Int64 = 100_000

    /// The keyed archive of `root` (`$top` is `{root: UID}`; a nil root is UID 0).
    /// Throws ``KeyedArchiveError`` for objects that cannot be exported or nest too deeply.
    public static func export(root: AnyObject?, options: Options = Options()) throws(KeyedArchiveError) -> PlistValue {
        try export([.object(root)], options: options)
    }

    /// The keyed archive of every top-level item of a typedstream, in order. The first item is
    /// `$top`'s `root`; items after it are `TSItem1`, `TSItem2` … . An item that is a group other
    /// than a single object is a `TSGroup` object (keys `type` and `values`). No items give a
    /// nil root. Throws ``KeyedArchiveError``.
    public static func export(_ items: [TopLevelItem], options: Options = Options()) throws(KeyedArchiveError) -> PlistValue {
        let (top, objects) = try encode(items, options: options)
        return archive(top: top, objects: objects)
    }

    /// The archive dictionary around `$top` and `$objects`.
    private static func archive(top: [PlistEntry], objects: KeyedObjectTable) -> PlistValue {
        .dictionary([
            PlistEntry("$version", .integer(archiveVersion)),
            PlistEntry("$archiver", .string("NSKeyedArchiver")),
            PlistEntry("$top", .dictionary(top)),
            PlistEntry("$objects", .array(objects.values)),
        ])
    }

    /// `$top` and the packed `$objects` of `items`. Items holding typed objects without a
    /// keyed layout are exported from a generic copy of all of them (``KeyedGenericCopy``), so
    /// that shared objects stay shared.
    private static func encode(_ items: [TopLevelItem], options: Options) throws(KeyedArchiveError) -> (top: [PlistEntry], objects: KeyedObjectTable) {
        let encoder = KeyedArchiveEncoder(options: options)
        do {
            return try encode(items, with: encoder)
        } catch {
            guard encoder.metObjectWithoutLayout else { throw error }
        }
        return try encode(KeyedGenericCopy.items(items), with: KeyedArchiveEncoder(options: options))
    }

    /// The entries that refer to the top-level `items`, encoded by `encoder`: `root` for the
    /// first, `TSItem1` … for the others, and `root` = UID 0 when there are none. The keys of
    /// `$top`, and of a nested archive's entry under `--deep`.
    static func topEntries(_ items: [TopLevelItem], encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> [PlistEntry] {
        var entries: [PlistEntry] = []
        for (index, item) in items.enumerated() { entries.append(try topEntry(item, at: index, encoder: encoder)) }
        if entries.isEmpty { entries.append(PlistEntry("root", .uid(0))) }
        return entries
    }

    /// The `$top` entry of top-level item number `index`, encoded by `encoder`: `root` for the
    /// first, `TSItem<index>` for the others.
    private static func topEntry(_ item: TopLevelItem, at index: Int, encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> PlistEntry {
        let key = index == 0 ? "root" : "TSItem\(index)"
        switch item {
        case .object(let object):
            return PlistEntry(key, try encoder.reference(to: object))
        case .group(let group, let objects):
            return PlistEntry(key, try encoder.reference(to: KeyedTopLevelGroup(group, objects: objects)))
        }
    }

    /// `$top` and the packed `$objects` of `items`, written by `encoder`.
    private static func encode(_ items: [TopLevelItem], with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> (top: [PlistEntry], objects: KeyedObjectTable) {
        var top = try topEntries(items, encoder: encoder)
        if let list = try KeyedReadableKeys.colorList(items, encoder: encoder) { top.append(list) }
        return (top, encoder.table)
    }

    /// The packed keyed archive of a typedstream (see ``export(typedstream:registry:options:)``):
    /// the decoded objects are released before it is returned.
    static func encode(typedstream bytes: [UInt8], registry: ClassRegistry,
                      options: Options) throws(KeyedArchiveError) -> (top: [PlistEntry], objects: KeyedObjectTable) {
        var options = options
        if options.maximumTextBytes == nil { options.maximumTextBytes = expansionBudget(forInputBytes: bytes.count) }
        // Classes without a keyed layout decode generically, straight from the archive.
        let registry = registry.keyedLayoutsOnly
        let encoder = KeyedArchiveEncoder(options: options)
        do {
            return try encodeAsDecoded(typedstream: bytes, registry: registry, encoder: encoder)
        } catch {
            guard encoder.metObjectWithoutLayout else { throw error }
        }
        let items: [TopLevelItem]
        do {
            items = try Unarchiver(bytes: bytes, registry: registry).decodeTopLevelItems()
        } catch {
            throw KeyedArchiveError(error)
        }
        // The encoder met an object without a keyed layout: these items would meet it again.
        return try encode(KeyedGenericCopy.items(items), with: KeyedArchiveEncoder(options: options))
    }

    /// `$top` and the packed `$objects` of a typedstream's top-level items, each encoded by
    /// `encoder` as soon as it is decoded: an archive of millions of small top-level groups
    /// keeps one at a time, and one that would pass the text budget is refused at the item
    /// that passes it. Only the items of what may still be a colour list are kept.
    private static func encodeAsDecoded(typedstream bytes: [UInt8], registry: ClassRegistry,
                                        encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) -> (top: [PlistEntry], objects: KeyedObjectTable) {
        let decoder: Unarchiver
        do { decoder = try Unarchiver(bytes: bytes, registry: registry) } catch { throw KeyedArchiveError(error) }
        var top: [PlistEntry] = []
        var colorListItems: [TopLevelItem]? = []
        while true {
            let next: TopLevelItem?
            do { next = try decoder.decodeNextTopLevelItem() } catch { throw KeyedArchiveError(error) }
            guard let item = next else { break }
            top.append(try topEntry(item, at: top.count, encoder: encoder))
            if let count = colorListItems?.count, KeyedReadableKeys.mayBeColorList(item, at: count) {
                colorListItems?.append(item)
            } else {
                colorListItems = nil
            }
        }
        if top.isEmpty { top.append(PlistEntry("root", .uid(0))) }
        if let items = colorListItems, let list = try KeyedReadableKeys.colorList(items, encoder: encoder) { top.append(list) }
        return (top, encoder.table)
    }

    /// Writes ``export(typedstream:registry:options:)`` as a binary (`bplist00`) property list
    /// to `out`, as it is made: the `$objects` table is kept packed until it is written, and
    /// the decoded objects are released first. Throws ``KeyedArchiveError`` (before anything
    /// is written); a failed write is left in `out`'s error.
    public static func writeBinary(typedstream bytes: [UInt8], registry: ClassRegistry = .foundation,
                                   options: Options = Options(), to out: inout OutputWriter) throws(KeyedArchiveError) {
        let (top, objects) = try encode(typedstream: bytes, registry: registry, options: options)
        BinaryPlistWriter.writeKeyedArchive(version: archiveVersion, top: top, objects: objects, to: &out)
    }

    /// The default budget for exporting `count` input bytes: 64 bytes of text and data per input
    /// byte, plus 1 MiB. A 4 MB archive may give 257 MiB of text; a 1 MB type string that
    /// 100 000 groups refer to (100 GB written out) is refused.
    public static func expansionBudget(forInputBytes count: Int) -> Int {
        count.multipliedReportingOverflow(by: 64).partialValue.addingReportingOverflow(1 << 20).partialValue
    }

    /// Decodes a typedstream with the codecs of `registry` that have a keyed layout
    /// (``TypedStream/ClassRegistry/keyedLayoutsOnly``; Foundation's by default; every other class
    /// stays generic, so each archived object is one `$objects` entry) and exports all its
    /// top-level items.
    /// Throws ``KeyedArchiveError`` (code `decoding`, with the byte offset, for bad input).
    public static func export(typedstream bytes: [UInt8], registry: ClassRegistry = .foundation,
                              options: Options = Options()) throws(KeyedArchiveError) -> PlistValue {
        let (top, objects) = try encode(typedstream: bytes, registry: registry, options: options)
        return archive(top: top, objects: objects)
    }

    /// ``export(typedstream:registry:options:)`` as a binary (`bplist00`) property list.
    public static func binary(typedstream bytes: [UInt8], registry: ClassRegistry = .foundation,
                              options: Options = Options()) throws(KeyedArchiveError) -> [UInt8] {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try writeBinary(typedstream: bytes, registry: registry, options: options, to: &out)
        out.flush()
        return capture.bytes
    }

    /// Writes ``export(typedstream:registry:options:)`` as an XML property list to `out`, one
    /// `$objects` entry at a time (the table kept packed, as for ``writeBinary(typedstream:registry:options:to:)``).
    /// Throws ``KeyedArchiveError`` before anything is written: bad input, or code
    /// ``KeyedArchiveError/Code/notRepresentableInXML`` for a value XML 1.0 cannot hold (see
    /// ``XMLPlistWriter``).
    public static func writeXML(typedstream bytes: [UInt8], registry: ClassRegistry = .foundation,
                                options: Options = Options(), to out: inout OutputWriter) throws(KeyedArchiveError) {
        let (top, objects) = try encode(typedstream: bytes, registry: registry, options: options)
        try writeXML(top: top, objects: objects, to: &out)
    }

    /// Writes the keyed archive of `top` and `objects` as an XML property list, or throws
    /// ``KeyedArchiveError/Code/notRepresentableInXML`` with nothing written.
    private static func writeXML(top: [PlistEntry], objects: KeyedObjectTable, to out: inout OutputWriter) throws(KeyedArchiveError) {
        do {
            try XMLPlistWriter.writeKeyedArchive(version: archiveVersion, top: top, objects: objects, to: &out)
        } catch {
            throw KeyedArchiveError(.notRepresentableInXML, "\(error)")
        }
    }

    /// ``export(typedstream:registry:options:)`` as an XML property list. Throws as
    /// ``writeXML(typedstream:registry:options:to:)``.
    public static func xml(typedstream bytes: [UInt8], registry: ClassRegistry = .foundation,
                           options: Options = Options()) throws(KeyedArchiveError) -> String {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try writeXML(typedstream: bytes, registry: registry, options: options, to: &out)
        out.flush()
        return String(decoding: capture.bytes, as: UTF8.self)
    }

    /// ``export(_:options:)`` as a binary (`bplist00`) property list.
    public static func binary(_ items: [TopLevelItem], options: Options = Options()) throws(KeyedArchiveError) -> [UInt8] {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try writeBinary(items, options: options, to: &out)
        out.flush()
        return capture.bytes
    }

    /// Writes ``binary(_:options:)`` to `out`, the `$objects` table kept packed until then
    /// (nothing is written when it throws).
    public static func writeBinary(_ items: [TopLevelItem], options: Options = Options(), to out: inout OutputWriter) throws(KeyedArchiveError) {
        let (top, objects) = try encode(items, options: options)
        BinaryPlistWriter.writeKeyedArchive(version: archiveVersion, top: top, objects: objects, to: &out)
    }

    /// ``export(_:options:)`` as an XML property list; throws as ``xml(typedstream:registry:options:)``.
    public static func xml(_ items: [TopLevelItem], options: Options = Options()) throws(KeyedArchiveError) -> String {
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try writeXML(items, options: options, to: &out)
        out.flush()
        return String(decoding: capture.bytes, as: UTF8.self)
    }

    /// Writes ``xml(_:options:)`` to `out`, the `$objects` table kept packed until then (nothing
    /// is written when it throws).
    public static func writeXML(_ items: [TopLevelItem], options: Options = Options(), to out: inout OutputWriter) throws(KeyedArchiveError) {
        let (top, objects) = try encode(items, options: options)
        try writeXML(top: top, objects: objects, to: &out)
    }
}
