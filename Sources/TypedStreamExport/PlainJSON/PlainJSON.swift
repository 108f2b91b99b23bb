import ObjCTypeEncoding
import TypedStream

/// Plain JSON for scripts: the archive's natural values without wire detail.
///
/// Every object becomes `{"$class": "NSFoo", "$id": n, "contents": [values…]}` at its first
/// occurrence (its groups' values flattened in order) and `{"$ref": n}` afterwards, where `n` is
/// the object's slot in the archive's object table (the `#n` of `decode`, `inspect` and
/// `tokens`); strings are strings, numbers are numbers (unsigned types read as unsigned, `c`
/// as signed), `B` values are booleans, dates ISO 8601 with the fraction of a second they hold.
/// Byte arrays, and strings that are not UTF-8, become `{"$data": "<base64>"}`; class values
/// become `{"$classObject": "NSFoo"}`; non-finite reals become `"NaN"`, `"Infinity"`,
/// `"-Infinity"`. The document is `{"systemVersion": n, "values": [top-level values…]}`, followed
/// by ``Options/documentMembers``.
///
/// A higher layer (class codecs) can give objects better values through
/// ``Options/naturalValue``: a hook that looks at an object's class and groups and says what to
/// write instead (``Natural``) — an array of its values, one of its values, named members, or a
/// finished value from its typed decoding:
///
/// ```swift
/// var options = PlainJSON.Options()
/// options.naturalValue = { object, _ in
///     object.className == "NSString" ? .value(group: 0, index: 0) : nil   // the "+" text
/// }
/// let index = try ArchiveIndex(bytes: bytes)
/// var out = OutputWriter(sink: FileDescriptorOutput.standardOutput)
/// try PlainJSON.write(index, options: options, to: &out)
/// out.flush()
/// ```
///
/// The JSON is written as it is made, from one reading of the archive front to back
/// (``PlainJSONStream``): the top-level values and the objects of ``Options/arrayClasses`` are
/// written as their tokens are read, every other value is read whole (with the objects inside
/// it) and written from that; only objects met again elsewhere are read again from the bytes.
/// Nothing holds the whole text or a tree of it. An object with a natural value repeats it
/// wherever it occurs again — written out again from the archive, so an object nested in it
/// that was written out in full at the first occurrence is a `{"$ref": n}` in the repeats —
/// within the budget of ``OutputLimits``; past it, the export fails naming the object.
///
/// Plain JSON is one-way: it cannot be imported back (use ``ArchiveJSON`` for that).
public enum PlainJSON {
    /// What to write for an object instead of its generic form. Values are named by their group
    /// and their place in it; they are converted as plain JSON where they are written.
    public indirect enum Natural: Sendable {
        /// A finished value (from the object's typed decoding, say).
        case json(JSONValue)
        /// `null`.
        case null
        /// Value `index` of group `group` (`null` when there is none). The group's other values
        /// are converted too, for the ids of the objects in them, but not written.
        case value(group: Int, index: Int)
        /// Element `element` of value `index` of group `group`, an array or struct (`null` when
        /// there is none).
        case element(group: Int, index: Int, element: Int)
        /// An array of the values of the groups from `fromGroup` on, in order.
        case values(fromGroup: Int)
        /// The values of the groups from `fromGroup` on as key, value, key, value…: an object
        /// when every key is a string and no key repeats, else an array of `[key, value]`
        /// pairs. An odd number of values gives the generic form (after converting them all).
        case dictionary(fromGroup: Int)
        /// An object with these members, in order.
        case object([Member])
        /// The generic form, after converting these without writing them.
        case genericAfter([Natural])

        /// One member of ``object(_:)``.
        public struct Member: Sendable {
            /// The member name.
            public var name: String
            /// Its value.
            public var value: Natural

            /// Creates a member.
            public init(_ name: String, _ value: Natural) {
                self.name = name
                self.value = value
            }
        }
    }

    /// Decides an object's natural value from its class and groups, or returns `nil` for the
    /// generic form. It is asked at the object's first occurrence (and again for each repeat).
    public typealias NaturalValue = @Sendable (PlainJSONObject, PlainJSONContext) -> Natural?

    /// How to write plain JSON.
    public struct Options: Sendable {
        /// Indent nested containers. Default `true`.
        public var pretty: Bool
        /// The hook that substitutes natural values for objects. Default `nil` (generic form only).
        public var naturalValue: NaturalValue? { didSet { foundationDirect = nil } }
        /// Set by ``FoundationPlainJSON/options(registry:pretty:)`` beside its hook (and cleared
        /// when the hook is replaced): the converter may write what that hook gives for
        /// `NSString`s and (when `numbers`) `NSNumber`s of the usual shape straight from their
        /// tokens (`PlainJSONConverter+Direct.swift`).
        var foundationDirect: FoundationDirect?

        /// What the Foundation hook lets the converter write without asking it.
        struct FoundationDirect: Sendable {
            /// Whether `NSNumber` is read by ``NumberObject`` (the registry's codec for it).
            var numbers: Bool
            /// Whether attributed strings, and the strings, dictionaries and numbers in them, are
            /// read by ``AttributedStringObject``, ``StringObject``, ``DictionaryObject``,
            /// ``NumberObject`` and ``URLObject`` (then their typed decoding's JSON is written
            /// from their tokens).
            var attributed = false
        }
        /// Classes whose natural value ``naturalValue`` always gives as
        /// ``Natural/values(fromGroup:)`` from the second group (`1`), whatever their groups —
        /// NSArray's family: their objects are written as they are read, without a view of them
        /// first (so a long array is read once). Ignored without ``naturalValue``, and for a class
        /// with a record form. Default empty.
        public var arrayClasses: [String] = []
        /// The plain-JSON forms of classes without a codec here, asked before ``naturalValue``
        /// (``RecordForm/plainJSON(_:context:)``). Default empty.
        public var recordForms: RecordForms
        /// Deepest nesting of objects, arrays and structs followed. Default
        /// ``ArchiveJSON/defaultMaximumNesting`` (256).
        public var maximumNesting: Int
        /// The budget for repeated values.
        public var limits: OutputLimits
        /// Values written after the archive's top-level values, at the end of `"values"` (a
        /// tool's note, such as where a damaged archive was cut). Default empty.
        public var trailingValues: [JSONValue] = []
        /// Members written after `"values"` in the document (``FoundationPlainJSON/documentMembers(_:)``:
        /// a colour list's `"colorList"`). Default empty.
        public var documentMembers: [JSONMember] = []
        /// Decode archives and property lists held as bytes in place (`--deep`): `{"$data",
        /// "$archive": the nested document}`, `{"$data", "$plistFormat", "$plist": its value}`,
        /// or `"$archiveError"` saying why not (``NestedArchives/jsonMembers(_:options:)``). Default `nil`.
        public var nestedArchives: NestedArchives?
        /// How deep this archive is nested (0: the file itself).
        var nestingDepth = 0
        /// The most tokens of one object kept to write it in one pass (``PlainJSONStream``);
        /// `nil`: as many as the archive has bytes, from 2²⁰ to 2²⁴. Tests set a small one to
        /// write long objects the other way.
        var windowTokenLimit: Int?

        /// Creates options.
        public init(pretty: Bool = true, naturalValue: NaturalValue? = nil, recordForms: RecordForms = RecordForms(),
                    maximumNesting: Int = ArchiveJSON.defaultMaximumNesting, limits: OutputLimits = .default) {
            self.pretty = pretty
            self.naturalValue = naturalValue
            self.recordForms = recordForms
            self.maximumNesting = maximumNesting
            self.limits = limits
        }
    }

    /// The hook plain JSON asks: the record forms of `options` first, then its ``Options/naturalValue``.
    static func hook(_ options: Options) -> NaturalValue? {
        let forms = options.recordForms
        guard !forms.isEmpty else { return options.naturalValue }
        let next = options.naturalValue
        return { object, context in
            if let form = forms.form(forClassNameBytes: object.classNameBytes), let natural = form.plainJSON(object, context: context) {
                return natural
            }
            return next?(object, context)
        }
    }

    /// Writes the plain JSON of the archive `index` was read from to `out`, as it goes; stops
    /// early when `out` fails. Throws ``ArchiveJSONError`` `limitExceeded` when the graph nests
    /// deeper than ``Options/maximumNesting`` (the text written so far then holds
    /// `{"$error": "nesting too deep"}` where it was cut) or when repeated natural values pass
    /// the budget of ``Options/limits`` (the error names the object, `#n`).
    public static func write(_ index: ArchiveIndex, options: Options = Options(), to out: inout OutputWriter) throws(ArchiveJSONError) {
        try write(index, options: options, context: PlainJSONContext(index: index), to: &out)
    }

    /// ``write(_:options:to:)`` with a context made by the caller (whose hook may keep it).
    public static func write(_ index: ArchiveIndex, options: Options, context: PlainJSONContext, to out: inout OutputWriter) throws(ArchiveJSONError) {
        var converter = PlainJSONConverter(context: context, options: options)
        try converter.run(&out)
    }

    /// The plain JSON of `bytes` as text, checking them first. Throws ``WireError`` (as an
    /// `Error`) for a damaged archive, ``ArchiveJSONError`` as ``write(_:options:to:)``.
    public static func encode(_ bytes: [UInt8], options: Options = Options()) throws -> [UInt8] {
        let index = try ArchiveIndex(bytes: bytes)
        let capture = CapturedOutput()
        var out = OutputWriter(sink: capture)
        try write(index, options: options, to: &out)
        out.flush()
        return capture.bytes
    }

    /// The plain JSON of an archive graph: the archive is written with ``ArchiveWriter`` and its
    /// bytes converted. Throws ``ArchiveJSONError``: `limitExceeded` as ``write(_:options:to:)``
    /// (or when the graph nests deeper than a reader accepts), `unwritable` when the graph cannot
    /// be written as an archive.
    public static func encode(_ archive: Archive, options: Options = Options()) throws(ArchiveJSONError) -> [UInt8] {
        do {
            return try encode(ArchiveWriter.write(archive), options: options)
        } catch let error as ArchiveJSONError {
            throw error
        } catch let error as WireError {
            throw ArchiveJSONError(error.code == .limitExceeded ? .limitExceeded : .unwritable, error.reason)
        } catch {
            throw ArchiveJSONError(.unwritable, "\(error)")
        }
    }

    /// The plain JSON of an archive graph, parsed back into a ``JSONValue`` (for tests and
    /// small archives). Throws as ``encode(_:options:)``.
    public static func value(_ archive: Archive, options: Options = Options()) throws -> JSONValue {
        try JSONValue.parse(encode(archive, options: options))
    }
}
