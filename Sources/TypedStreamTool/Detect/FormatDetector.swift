import TypedStream
import TypedStreamExport

/// What a file is, judged from its bytes, with a one-line reason.
public struct Detection: Sendable, Hashable {
    /// The formats `detect` knows.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An NSArchiver / NXTypedStream archive (header `04 0B "streamtyped"` and the like).
        case typedStream = "typedstream"
        /// An NSKeyedArchiver archive: a property list with a top-level `$archiver` key.
        case keyedArchive = "keyed archive"
        /// A binary property list (`bplist`) that is not a keyed archive.
        case binaryPropertyList = "binary property list"
        /// An XML property list that is not a keyed archive.
        case xmlPropertyList = "XML property list"
        /// GNUstep's own NSArchiver format (`GNUstep archive` header); not a typedstream.
        case gnustepArchive = "GNUstep archive"
        /// The old NeXT binary property list of `NSSerializer` / `encodePropertyList:`.
        case nextBinaryPropertyList = "old NeXT binary property list"
        /// A file with no bytes.
        case empty
        /// None of the above.
        case unknown
    }

    /// The format.
    public var kind: Kind
    /// The format with details: "typedstream (streamer version 4, little-endian, system version 1000)".
    public var summary: String
    /// Why: "header 04 0b \"streamtyped\" 81 e8 03".
    public var reason: String

    /// Creates a detection.
    public init(_ kind: Kind, _ summary: String? = nil, reason: String) {
        self.kind = kind
        self.summary = summary ?? kind.rawValue
        self.reason = reason
    }

    /// "summary — reason".
    public var line: String { "\(summary) — \(reason)" }
}

/// Recognises typedstreams and the formats they are confused with, from the first bytes (and,
/// for property lists, a full parse). Conservative: when unsure it answers ``Detection/Kind/unknown``.
public enum FormatDetector {
    /// What `bytes` are.
    public static func detect(_ bytes: [UInt8]) -> Detection {
        if bytes.isEmpty { return Detection(.empty, "empty", reason: "the file has no bytes") }
        if let typedStream = detectTypedStream(bytes) { return typedStream }
        switch ForeignFormat.recognise(bytes) {
        case .binaryPropertyList: return detectBinaryPropertyList(bytes)
        case .gnustepArchive: return detectGNUstep(bytes)
        case .xml: if let xml = detectXML(bytes) { return xml }
        case nil: break
        }
        if bytes.count >= 12, let shape = NeXTPropertyListShape(bytes) {
            let unit = shape.kind == "array" ? "element" : shape.kind == "dictionary" ? "entry" : "byte"
            let plural = shape.count == 1 ? unit : unit == "entry" ? "entries" : unit + "s"
            return Detection(.nextBinaryPropertyList, "old NeXT binary property list (\(shape.kind), \(shape.count) \(plural))",
                             reason: "4-byte little-endian type codes; every length, padding and table checks out and the data ends with the root value")
        }
        return Detection(.unknown, reason: unknownReason(bytes))
    }

    /// How many bytes `detect` reads first: enough for every signature and the sample of text
    /// an unknown file is described by.
    public static let headLength = 4096

    /// Whether ``detect(_:)`` needs more than `head` (the first ``headLength`` bytes of a
    /// longer file) to answer as it would for the whole file: property lists are parsed whole
    /// (binary, XML, and the old NeXT form, whose first word is a type code), and text that
    /// is only white space so far may still turn out to be XML. Typedstreams, GNUstep archives
    /// and unknown files are told from their first bytes.
    public static func needsWholeFile(_ head: [UInt8]) -> Bool {
        if signatureByteOrder(head) != nil { return false }
        switch ForeignFormat.recognise(head) {
        case .gnustepArchive: return false
        case .binaryPropertyList, .xml: return true
        case nil: break
        }
        var start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        if start == head.count || head[start] == UInt8(ascii: "<") { return true }
        return head.count >= 4 && head[1] == 0 && head[2] == 0 && head[3] == 0 && [2, 4, 5, 6, 7].contains(head[0])
    }

    // MARK: - typedstream

    /// Whether `bytes` start with a typedstream signature (what makes ``detect(_:)`` answer
    /// ``Detection/Kind/typedStream``, without wording the answer: batches ask this of every
    /// file they find).
    public static func isTypedStream(_ bytes: [UInt8]) -> Bool {
        signatureByteOrder(bytes) != nil
    }

    /// The byte order the typedstream signature at the start of `bytes` names, if there is one.
    private static func signatureByteOrder(_ bytes: [UInt8]) -> ByteOrder? {
        guard bytes.count >= 13, bytes[1] == UInt8(StreamHeader.signatureLength) else { return nil }
        return ByteOrder(signature: bytes[2..<13])
    }

    private static func detectTypedStream(_ bytes: [UInt8]) -> Detection? {
        guard let order = signatureByteOrder(bytes) else { return nil }
        let signature = String(decoding: order.signature, as: UTF8.self)
        let version = bytes[0]
        guard version == 3 || version == 4 else {
            return Detection(.typedStream, "typedstream (unsupported streamer version \(version))",
                             reason: "signature \"\(signature)\", but only streamer versions 3 and 4 exist")
        }
        var reader = TokenReader(bytes: bytes)
        do {
            guard let token = try reader.next(), case .header(let header) = token.kind else {
                return Detection(.typedStream, "typedstream (damaged header)", reason: "signature \"\(signature)\", but no header token")
            }
            let endian = header.byteOrder == .big ? "big-endian" : "little-endian"
            let systemBytes = TextFormatting.hexBytes(bytes[13..<token.end])
            return Detection(.typedStream,
                             "typedstream (streamer version \(version), \(endian), system version \(header.systemVersion.value))",
                             reason: "header \(TextFormatting.hexBytes(bytes[0..<2])) \"\(signature)\" \(systemBytes)")
        } catch {
            return Detection(.typedStream, "typedstream (damaged header)",
                             reason: "signature \"\(signature)\", but offset \(TextFormatting.hexOffset(error.offset)): \(error.reason)")
        }
    }

    // MARK: - Property lists

    private static func detectBinaryPropertyList(_ bytes: [UInt8]) -> Detection {
        let header = String(decoding: bytes.prefix(8), as: UTF8.self)
        guard bytes.starts(with: ForeignFormat.binaryPropertyList00) else {
            return Detection(.binaryPropertyList, "binary property list (format \(header.dropFirst(6)))",
                             reason: "header \"\(header)\"; only bplist00 is checked further")
        }
        let root: PlistValue
        do {
            root = try BinaryPlistReader.read(bytes)
        } catch {
            let mentions = containsBytes(bytes, "$archiver")
            return Detection(mentions ? .keyedArchive : .binaryPropertyList,
                             mentions ? "keyed archive (damaged binary property list)" : "binary property list (damaged)",
                             reason: "header \"bplist00\", but it does not parse (\(error.description))" + (mentions ? "; contains \"$archiver\"" : ""))
        }
        if let archiver = root["$archiver"] {
            return Detection(.keyedArchive, "keyed archive (\(scalarText(archiver))\(versionNote(root["$version"])), binary property list)",
                             reason: "bplist00 whose top-level dictionary has the key \"$archiver\"")
        }
        return Detection(.binaryPropertyList, "binary property list (top level: \(describeRoot(root)))",
                         reason: "header \"bplist00\"; no top-level \"$archiver\" key")
    }

    /// Whether `bytes` start as a property list — `bplist00`, or an XML document (see
    /// ``ForeignFormat/xmlStart(_:)``) — without parsing them.
    static func startsAsPropertyList(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: ForeignFormat.binaryPropertyList00) || ForeignFormat.xmlStart(bytes) != nil
    }

    /// The first 4 KiB of `bytes` as text, from where their XML markup starts, when they start
    /// an XML document; `nil` otherwise.
    private static func xmlHead(_ bytes: [UInt8]) -> String? {
        guard let start = ForeignFormat.xmlStart(bytes) else { return nil }
        return String(decoding: bytes[start..<min(bytes.count, start + 4096)], as: UTF8.self)
    }

    private static func detectXML(_ bytes: [UInt8]) -> Detection? {
        guard let head = xmlHead(bytes) else { return nil }
        guard head.contains("<plist") || head.contains("DOCTYPE plist") else {
            return Detection(.unknown, "unknown (XML, not a property list)", reason: "starts with an XML prolog but has no <plist> element near the start")
        }
        if containsBytes(bytes, "<key>$archiver</key>") {
            return Detection(.keyedArchive, "keyed archive (XML property list)", reason: "XML property list with the key \"$archiver\"")
        }
        return Detection(.xmlPropertyList, reason: "XML prolog and a <plist> element; no \"$archiver\" key")
    }

    private static func versionNote(_ version: PlistValue?) -> String {
        guard let version else { return "" }
        return ", version \(scalarText(version))"
    }

    /// A string or number from the file, as a short escaped excerpt; other values by kind.
    private static func scalarText(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): return TextFormatting.quoted(Array(s.utf8), limit: 40).dropFirst().dropLast().description
        case .integer(let v): return "\(v)"
        default: return KeyedArchiveGraph.kind(of: value)
        }
    }

    private static func describeRoot(_ root: PlistValue) -> String {
        switch root {
        case .dictionary(let entries): return "dictionary of \(entries.count)"
        case .array(let items): return "array of \(items.count)"
        case .string: return "string"
        case .data: return "data"
        default: return KeyedArchiveGraph.kind(of: root)
        }
    }

    // MARK: - GNUstep and unknown

    private static func detectGNUstep(_ bytes: [UInt8]) -> Detection {
        let fieldStart = 15
        let field = bytes.count >= fieldStart + 9 ? String(decoding: bytes[fieldStart..<fieldStart + 8], as: UTF8.self) : ""
        let version = bytes.count >= fieldStart + 9 && bytes[fieldStart + 8] == UInt8(ascii: ":") ? Int(field, radix: 16) : nil
        let summary = version.map { "GNUstep archive (system version \($0))" } ?? "GNUstep archive"
        return Detection(.gnustepArchive, summary, reason: "starts with \"GNUstep archive\"; GNUstep's own format, not a typedstream")
    }

    private static func unknownReason(_ bytes: [UInt8]) -> String {
        let sample = bytes.prefix(512)
        let text = sample.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 != 0x7F) }
        if text, String(validating: sample, as: UTF8.self) != nil || sample.count == 512 {
            let firstLine = sample.split(separator: 0x0A, maxSplits: 1).first ?? sample[...]
            return "looks like text: " + TextFormatting.quoted(firstLine, limit: 40)
        }
        return "no known signature; first bytes \(TextFormatting.hexBytes(bytes.prefix(8)))"
    }

    private static func containsBytes(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }
}
