import TypedStream

/// An annotated hex dump of a typedstream archive: every token on its own line(s) with its
/// offset, its bytes in hex and ASCII, and what those bytes mean in the format's words,
/// indented by nesting depth. Built for looking at damaged or unknown archives: references are
/// resolved to what they point at, values are named by their declared type, and a damaged file
/// is shown up to the damage, followed by the bytes there and a final `error at offset` line.
///
/// ```swift
/// let dump = AnnotatedDump.render(bytes, options: .init(useColor: false))
/// print(dump.text, terminator: "")
/// if let error = dump.error { … }   // also the dump's last line
/// ```
///
/// gives, for the format notes' worked example (`@[@YES, @NO]`), lines such as
///
/// ```
/// 00000000  04 0b 73 74 72 65 61 6d 74 79 70 65 64 81 e8 03  |..streamtyped...|  header: streamer v4, little-endian (streamtyped), system version 1000
/// 00000010  84 01 40                                         |..@|               type string "@" (new shared string #0)
/// 00000013  84                                               |.|                 new object #0 of class NSArray v0
/// 00000014  84 84 07 4e 53 41 72 72 61 79 00                 |...NSArray.|         class NSArray v0 (new, object #1; name: new shared string #1)
/// …
/// 00000049  94                                               |.|                     superclass → #2 NSObject (reference)
/// …
/// 0000005c  86                                               |.|                 end of object #0 NSArray
/// ```
///
/// "object #N" is slot N of the object table (objects, classes and C strings share it);
/// "shared string #N" is slot N of the shared-string table.
///
/// On a valid archive every byte appears on exactly one line. Marker tokens that take no bytes
/// (array and struct starts and ends, `!` fields) get a line of their own with empty columns.
/// Tokens longer than ``Options/bytesPerLine`` wrap; continuation lines carry their own offset
/// and no annotation.
public enum AnnotatedDump {
    /// What to show and how.
    public struct Options: Hashable, Sendable {
        /// The first byte offset of interest; tokens that end before it are not shown.
        /// Default 0.
        public var startOffset: Int
        /// How many bytes from ``startOffset`` to show; `nil` (the default) shows to the end.
        /// Reading stops past this window, so damage beyond it is not reported.
        public var length: Int?
        /// Show only the object in this object-table slot: from its `new` to its end of object,
        /// with everything nested inside; reading stops at its end. `nil` (the default) shows
        /// the whole archive.
        public var objectIndex: Int?
        /// Whether to colour offsets, tags, strings, class names and errors with ANSI escapes.
        /// Resolve a user's `auto`/`always`/`never` choice with ``ColorChoice/resolve(outputIsTerminal:environment:)``.
        public var useColor: Bool
        /// Bytes per line in the hex column (1…256, default 16).
        public var bytesPerLine: Int
        /// The most characters of archive text quoted in one annotation (default 64); longer
        /// text ends in `…` (the bytes are all in the hex and ASCII columns).
        public var textLimit: Int
        /// On damage, how many bytes after the error offset to show as undecoded lines before
        /// the error line (default 16).
        public var damageContext: Int
        /// Limits for the token reader.
        public var limits: DecodingLimits

        /// Creates options; every parameter has the default described on its property.
        public init(startOffset: Int = 0, length: Int? = nil, objectIndex: Int? = nil, useColor: Bool = false,
                    bytesPerLine: Int = 16, textLimit: Int = 64, damageContext: Int = 16,
                    limits: DecodingLimits = .default) {
            self.startOffset = startOffset
            self.length = length
            self.objectIndex = objectIndex
            self.useColor = useColor
            self.bytesPerLine = bytesPerLine
            self.textLimit = textLimit
            self.damageContext = damageContext
            self.limits = limits
        }
    }

    /// A user's colour preference, as command-line tools spell it (`--color auto|always|never`).
    public enum ColorChoice: String, Hashable, Sendable, CaseIterable {
        /// Colour when writing to a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
        case auto
        /// Always colour.
        case always
        /// Never colour.
        case never

        /// Whether to colour, given whether the output is a terminal and the environment.
        public func resolve(outputIsTerminal: Bool, environment: [String: String] = [:]) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
                if environment["TERM"] == "dumb" { return false }
                return outputIsTerminal
            }
        }
    }

    /// What a dump found, apart from its lines.
    public struct Summary: Hashable, Sendable {
        /// The error that stopped reading, or `nil` when the shown part read cleanly.
        public var error: WireError?
        /// The byte ranges shown on decoded token lines, in order, adjacent ranges merged.
        /// For a whole valid archive this is `[0..<bytes.count]`.
        public var coveredRanges: [Range<Int>]
        /// The number of lines produced.
        public var lineCount: Int
        /// `false` when ``Options/objectIndex`` named no new object in the archive (read to
        /// its end without damage); `true` otherwise, including when damage stopped reading first.
        public var objectFound: Bool

        /// Creates a summary.
        public init(error: WireError? = nil, coveredRanges: [Range<Int>] = [], lineCount: Int = 0, objectFound: Bool = true) {
            self.error = error
            self.coveredRanges = coveredRanges
            self.lineCount = lineCount
            self.objectFound = objectFound
        }
    }

    /// A finished dump: its lines and what it found.
    public struct Rendering: Hashable, Sendable {
        /// The lines, without line terminators.
        public var lines: [String]
        /// What the dump found.
        public var summary: Summary

        /// Creates a rendering.
        public init(lines: [String], summary: Summary) {
            self.lines = lines
            self.summary = summary
        }

        /// The whole dump, one line per line, each ending in a newline.
        public var text: String {
            var text = ""
            for line in lines {
                text += line
                text += "\n"
            }
            return text
        }

        /// The error that stopped reading, if any (see ``Summary/error``).
        public var error: WireError? { summary.error }
        /// The byte ranges shown on decoded token lines (see ``Summary/coveredRanges``).
        public var coveredRanges: [Range<Int>] { summary.coveredRanges }
    }

    /// Writes the dump of `bytes` to `out` as it goes, one line per item, each ending in a
    /// newline; stops early when `out` fails. Never throws: damage ends the dump with an error
    /// line, and the error is in the returned summary.
    public static func write(_ bytes: [UInt8], options: Options = .init(), to out: inout OutputWriter) -> Summary {
        var session = AnnotatedDumpSession(bytes: bytes, options: options)
        return session.run(into: &out)
    }

    /// Renders the dump of `bytes` into memory. Never throws: damage ends the dump with an
    /// error line, and the error is in ``Rendering/error``.
    public static func render(_ bytes: [UInt8], options: Options = .init()) -> Rendering {
        var lines: [String] = []
        let summary = renderLines(bytes, options: options) { lines.append($0) }
        return Rendering(lines: lines, summary: summary)
    }

    /// Renders the dump of `bytes` one line at a time (without line terminators). Never throws:
    /// damage ends the dump with an error line, and the error is in the returned summary.
    public static func renderLines(_ bytes: [UInt8], options: Options = .init(), into emit: (String) -> Void) -> Summary {
        withoutActuallyEscaping(emit) { emit in
            let lines = LineSink(emit)
            var out = OutputWriter(sink: lines)
            var session = AnnotatedDumpSession(bytes: bytes, options: options, flushingEachLine: true)
            let summary = session.run(into: &out)
            out.flush()
            return summary
        }
    }

    /// Hands each line to a closure: the session flushes after every line, so each write ends
    /// one (a line longer than the writer's buffer comes in pieces, joined here).
    private final class LineSink: OutputSink, @unchecked Sendable {
        private let emit: (String) -> Void
        private var partial: [UInt8] = []

        init(_ emit: @escaping (String) -> Void) { self.emit = emit }

        func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
            partial.append(contentsOf: bytes)
            guard partial.last == 0x0A else { return }
            emit(String(decoding: partial.dropLast(), as: UTF8.self))
            partial.removeAll(keepingCapacity: true)
        }
    }
}
