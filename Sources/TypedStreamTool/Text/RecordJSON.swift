import TypedStream
import TypedStreamExport

/// The JSON of one archive as a member of a record line, what `decode --lines --plain` and
/// `decode --lines --json` write after the id: `"plain":` and the document `decode --plain`
/// prints, or `"json":` and the lossless document `decode --json` prints (`typedstream encode`
/// reads it back), each on one line.
///
/// ```swift
/// var form = RecordJSON(form: .plain(deep: false))
/// try stream.run(context) { blob, members throws(RecordError) in try form.append(blob, to: &members) }
/// ```
struct RecordJSON {
    /// Which document.
    enum Form {
        /// The plain JSON (`decode --plain`), with typedstreams held as bytes decoded in place
        /// when `deep`.
        case plain(deep: Bool)
        /// The lossless JSON (`decode --json`).
        case lossless
    }

    /// Which document is written.
    let form: Form
    /// The type strings compiled by the archives read so far (message bodies repeat a few).
    private var compiled = CompiledTypeStrings()
    /// Where each document is written before it is copied into the record's members.
    private let buffer = RecordBuffer()

    /// Creates a writer of `form`.
    init(form: Form) { self.form = form }

    /// The member's name: `plain` or `json`, as the option that asks for it.
    var memberName: String {
        switch form {
        case .plain: "plain"
        case .lossless: "json"
        }
    }

    /// Appends `"plain":{…}` (or `"json":{…}`) for the archive `blob` to `members`. Throws
    /// ``RecordError``: `malformed` with the offset and reason for bad bytes (as `text --lines`
    /// reports them), or the exporter's code (`limitExceeded`) for an archive it cannot write.
    mutating func append(_ blob: [UInt8], to members: inout [UInt8]) throws(RecordError) {
        let index: ArchiveIndex
        do { index = try ArchiveIndex(bytes: blob, compiled: &compiled) } catch {
            let coded = CoderError(error)
            throw RecordError(code: coded.code.rawValue, offset: coded.offset, reason: coded.reason)
        }
        buffer.bytes.removeAll(keepingCapacity: true)
        var out = OutputWriter(sink: buffer, capacity: 1 << 14)
        do {
            switch form {
            case .plain(let deep):
                var options = DecodeCommand.plainOptions(for: index, deep: deep)
                options.pretty = false
                try PlainJSON.write(index, options: options, to: &out)
            case .lossless:
                try ArchiveJSON.write(index, options: ArchiveJSON.EncodingOptions(pretty: false), to: &out)
            }
        } catch {
            throw RecordError(code: error.code.rawValue, offset: nil, reason: error.reason)
        }
        out.flush()
        var text = buffer.bytes[...]
        while let last = text.last, last == 0x0A || last == 0x20 { text.removeLast() }
        members.append(UInt8(ascii: "\""))
        members.append(contentsOf: memberName.utf8)
        members.append(contentsOf: #"":"#.utf8)
        members.append(contentsOf: text)
    }
}

/// An ``OutputSink`` that keeps what is written in ``bytes``, emptied and reused by its owner
/// from one record to the next (no lock: one writer, on one thread).
final class RecordBuffer: OutputSink, @unchecked Sendable {
    /// Everything written since the owner last emptied it.
    var bytes: [UInt8] = []

    /// Appends `bytes`; never fails.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        self.bytes.append(contentsOf: bytes)
    }
}
