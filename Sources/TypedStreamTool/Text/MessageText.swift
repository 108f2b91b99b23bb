import TypedStream
import TypedStreamExport
import TypedStreamFoundation

/// The text of an archive whose root is a string: an `NSString` / `NSMutableString`, or an
/// `NSAttributedString` / `NSMutableAttributedString` with its attribute runs — what
/// `typedstream text` prints, one archive at a time or one message body per input line.
///
/// ```swift
/// var decoder = MessageText.Decoder()
/// for body in bodies {
///     let text = try decoder.decode(body).string
/// }
/// ```
struct MessageText {
    /// One attribute run: where it lies, in UTF-16 code units as `NSAttributedString` counts
    /// them, and its attributes as natural values, in archived order.
    struct Run {
        /// The first UTF-16 unit.
        var location: Int
        /// The number of UTF-16 units.
        var length: Int
        /// The attribute dictionary's entries.
        var attributes: [NaturalValue.Entry]
    }

    /// The text.
    var string: String
    /// The runs (none for a plain string).
    var runs: [Run]

    /// `string` with `runs`.
    init(string: String, runs: [Run]) {
        self.string = string
        self.runs = runs
    }

    /// The text of `root`, or `nil` when it is neither kind of string.
    init?(root: AnyObject?, withRuns: Bool) {
        if let string = root as? StringObject {
            self.string = string.string
            runs = []
        } else if let attributed = root as? AttributedStringObject {
            string = attributed.string
            runs = []
            guard withRuns, case .attributedString(let text) = naturalValue(of: attributed) else { return }
            runs = text.runs.map { Run(location: $0.range.lowerBound, length: $0.range.count, attributes: $0.attributes) }
        } else {
            return nil
        }
    }

    /// Decodes archives one after another with one registry and the type strings compiled so
    /// far (message bodies repeat a few type strings; compiling them once is most of the saving).
    struct Decoder {
        /// The class codecs (Foundation, AppKit, NeXTSTEP).
        let registry = ClassRegistry.foundation
        /// The type strings compiled by the archives decoded so far.
        var compiled = CompiledTypeStrings()
        /// Whether to work out the attribute runs too.
        var withRuns = false
        /// Reads the text of usual bodies without the typed decode, when no runs are asked for.
        private var shortcut = MessageTextShortcut()

        /// The text of the archive `bytes`. Throws ``RecordError``: the coder's code, offset and
        /// reason for a malformed archive, `notText` when the root is something else.
        mutating func decode(_ bytes: [UInt8]) throws(RecordError) -> MessageText {
            if !withRuns, let string = shortcut.text(of: bytes, compiled: &compiled) {
                return MessageText(string: string, runs: [])
            }
            let root: AnyObject?
            do {
                root = try Unarchiver(bytes: bytes, registry: registry, compiled: &compiled).decodeRootObject()
            } catch {
                throw RecordError(code: error.code.rawValue, offset: error.offset, reason: error.reason)
            }
            guard let text = MessageText(root: root, withRuns: withRuns) else {
                throw RecordError(code: "notText", offset: nil, reason: "the root object is \(Self.describe(root)), not a string or an attributed string")
            }
            return text
        }

        /// "of class NSArray", "nil".
        static func describe(_ root: AnyObject?) -> String {
            guard let root else { return "nil" }
            return "of class " + ((root as? ArchivableObject)?.archiveClassChain.first?.name ?? "\(type(of: root))")
        }
    }

    /// The runs as JSON: `{"range": [location, length], "attributes": {name: value…}}`, values
    /// as in `decode --plain` (objects of other classes by class name).
    static func json(_ run: Run) -> JSONValue {
        .object([
            JSONMember("range", .array([.integer(run.location), .integer(run.length)])),
            JSONMember("attributes", FoundationPlainJSON.json(.dictionary(run.attributes))),
        ])
    }
}

/// Why one record (or one archive) gave no text: a code (the coder's, such as `malformed`, or
/// the tool's own: `emptyBlob`, `badHex`, `badBase64`, `badRecord`, `recordTooLong`,
/// `notText`), the byte offset when known, and a reason.
struct RecordError: Error {
    /// A short name for the kind of failure.
    var code: String
    /// The byte offset in the archive (or in the blob's text, for a bad encoding), when known.
    var offset: Int?
    /// A human explanation.
    var reason: String

    /// `{"code": …, "offset": …, "reason": …}`.
    var json: JSONValue {
        .object([
            JSONMember("code", .string(code)),
            JSONMember("offset", offset.map { .integer($0) } ?? .null),
            JSONMember("reason", .string(reason)),
        ])
    }

    /// "offset 0x2f (47): reason", or the reason alone.
    var description: String {
        guard let offset else { return reason }
        return "offset \(TextFormatting.hexOffset(offset)) (\(offset)): \(reason)"
    }
}
