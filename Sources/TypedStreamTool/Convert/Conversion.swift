import ModelDocument
import TypedStream
import TypedStreamExport

/// The formats `convert` writes, and how each is made from a typedstream's bytes.
enum ConversionFormat: String, CaseIterable, Sendable {
    /// Lossless JSON (`encode` turns it back into the same bytes).
    case json
    /// An `NSKeyedArchiver` binary property list.
    case keyed
    /// An `NSKeyedArchiver` archive as an XML property list.
    case keyedXML = "keyed-xml"
    /// A typedstream again, optionally in the other byte order.
    case typedstream

    /// The file extension of converted files in a batch.
    var fileExtension: String {
        switch self {
        case .json: "json"
        case .keyed: "plist"
        case .keyedXML: "xml.plist"
        case .typedstream: "typedstream"
        }
    }

    /// The names accepted by `--to`, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a conversion needs besides the input.
struct ConversionOptions: Sendable {
    /// For `typedstream`: the byte order to write (`nil` keeps the input's).
    var byteOrder: ByteOrder?
    /// For `keyed` and `keyed-xml`: also write typedstreams held as bytes as keyed objects
    /// (`--deep`, under `TSArchives` beside the bytes, which stay as they are).
    var deep = false
}

/// Converts archives between formats.
enum Converter {
    /// The keyed export's options (with the registered record forms, ``ToolRecordForms``).
    static var keyedOptions: KeyedArchiveExporter.Options { ToolRecordForms.keyedExportOptions }

    /// ``keyedOptions`` with the conversion's `--deep`.
    static func keyedOptions(_ options: ConversionOptions) -> KeyedArchiveExporter.Options {
        var keyed = keyedOptions
        keyed.deep = options.deep
        return keyed
    }

    /// Converts typedstream `bytes` to `format`, writing the result to `out` as it is made
    /// (lossless JSON and keyed plists stream, a Model document's keyed forms among them; a
    /// typedstream in the other byte order is made whole, then written). Throws
    /// ``WireError`` (bad input) or the format's own error.
    static func write(_ bytes: [UInt8], to format: ConversionFormat, options: ConversionOptions,
                      compiled: inout CompiledTypeStrings, into out: inout OutputWriter) throws {
        switch format {
        case .json:
            try ArchiveJSON.write(ArchiveIndex(bytes: bytes, compiled: &compiled), to: &out)
        case .keyed:
            if try KeyedModelArchive.convert(typedstream: bytes, to: &out) { return }
            try exportKeyed(bytes, compiled: &compiled) { () throws(KeyedArchiveError) in
                try KeyedArchiveExporter.writeBinary(typedstream: bytes, options: keyedOptions(options), to: &out)
            }
        case .keyedXML:
            do {
                if try KeyedModelArchive.convertToXML(typedstream: bytes, to: &out) { return }
                try exportKeyed(bytes, compiled: &compiled) { () throws(KeyedArchiveError) in
                    try KeyedArchiveExporter.writeXML(typedstream: bytes, options: keyedOptions(options), to: &out)
                }
            } catch let error as KeyedArchiveError {
                guard error.code == .notRepresentableInXML else { throw error }
                throw KeyedArchiveError(.notRepresentableInXML, "\(error.reason) (use --to keyed)")
            }
        case .typedstream:
            // A keyed archive (binary or XML plist) of classes with codecs or registered record
            // forms (a keyed Model document among them) comes back as the typedstream NSArchiver
            // would write; read with the bounded plist readers.
            let typedstream = FormatDetector.startsAsPropertyList(bytes)
                ? try KeyedArchiveImporter.typedstream(fromKeyed: bytes, options: ToolRecordForms.keyedImportOptions) : bytes
            // Every token written anew in the other byte order, from the checked reader (the
            // bytes are those the graph writer gives: tested over the corpus both ways).
            out.append(try ArchiveIndex(bytes: typedstream, compiled: &compiled).write(byteOrder: options.byteOrder))
        }
    }

    /// Runs `export`, a keyed export of `bytes` (which checks every byte as it decodes them).
    /// When it fails because the bytes do not decode, the checked reader's error is thrown
    /// instead — the one every other command gives for the same bytes; the reader runs only
    /// then, so a good archive is read once.
    private static func exportKeyed(_ bytes: [UInt8], compiled: inout CompiledTypeStrings,
                                    _ export: () throws(KeyedArchiveError) -> Void) throws {
        do {
            try export()
        } catch where error.code == .decoding {
            _ = try ArchiveIndex(bytes: bytes, compiled: &compiled)
            throw error
        }
    }
}
