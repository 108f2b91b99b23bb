import TypedStream

/// The result of one file of a batch (`verify` or `convert`).
enum BatchOutcome: Sendable, Hashable {
    /// Decoding and re-encoding gave the same bytes.
    case identical
    /// The file was converted; `destination` is where the result went.
    case converted(destination: String)
    /// Re-encoding gave different bytes; `offset` is the first difference.
    case differs(offset: Int, detail: String)
    /// The file could not be read or decoded; `offset` is where decoding failed, when known.
    case failed(offset: Int?, reason: String)
    /// The file was not verified (found in a folder but not a typedstream, or not a file).
    case skipped(reason: String)

    /// Verifies `bytes` with ``roundTrip(_:through:compiled:)`` at `depth`, starting with the type
    /// strings in `compiled`.
    static func check(_ bytes: [UInt8], through depth: RoundTripDepth = .tokens, compiled: inout CompiledTypeStrings) -> BatchOutcome {
        let output: [UInt8]
        do {
            output = try roundTrip(bytes, through: depth, compiled: &compiled)
        } catch let error as any LocatedError {
            return .failed(offset: error.offset, reason: error.reason)
        } catch {
            return .failed(offset: nil, reason: "\(error)")
        }
        return compare(input: bytes, output: output)
    }

    /// `.identical`, or `.differs` at the first byte where `output` leaves `input`.
    static func compare(input bytes: [UInt8], output: [UInt8]) -> BatchOutcome {
        if output == bytes { return .identical }
        let common = min(output.count, bytes.count)
        if let index = (0..<common).first(where: { output[$0] != bytes[$0] }) {
            let input = TextFormatting.paddedHex(Int(bytes[index]), width: 2)
            let written = TextFormatting.paddedHex(Int(output[index]), width: 2)
            return .differs(offset: index, detail: "input has \(input), re-encoded has \(written)")
        }
        if output.count < bytes.count {
            return .differs(offset: common, detail: "re-encoded output ends here; the input has \(bytes.count - common) more bytes")
        }
        return .differs(offset: common, detail: "the input ends here; re-encoded output has \(output.count - common) more bytes")
    }

    /// The text after `PATH: `: `identical`, `differs at offset 0x1f (…)`, `error: offset 0x1a3: …`.
    var text: String {
        switch self {
        case .identical: "identical"
        case .converted(let destination): "converted → \(destination)"
        case .differs(let offset, let detail): "differs at offset \(TextFormatting.hexOffset(offset)) (\(detail))"
        case .failed(let offset?, let reason): "error: offset \(TextFormatting.hexOffset(offset)): \(reason)"
        case .failed(nil, let reason): "error: \(reason)"
        case .skipped(let reason): "skipped: \(reason)"
        }
    }
}

/// One file of a batch.
struct BatchItem: Sendable {
    /// The path as given or as found (`-` for standard input).
    var path: String
    /// The size in bytes, when known before reading.
    var size: Int?
    /// Whether the file was found by walking a folder (then files that are not typedstreams
    /// are skipped rather than failed).
    var discovered: Bool
    /// The folder argument the file was found under (`nil` for a file named on the command line).
    var root: String? = nil
    /// Set when the walk already decided to skip this entry.
    var skipReason: String?
    /// Where a conversion writes this file (planned for the whole batch by ``OutputPlan``);
    /// `nil` when it is not converted.
    var destination: String? = nil

    /// The item's bytes, read for `verify` or `convert` — or the outcome that ends the item
    /// first: `failed` when it cannot be read, `skipped` when it was found in a folder
    /// (``discovered``) and is not a typedstream. A file named on the command line goes on
    /// whatever it is, and fails as a typedstream if it is not one.
    func read(_ context: CommandContext) -> (bytes: [UInt8], early: (outcome: BatchOutcome, size: Int)?) {
        let bytes: [UInt8]
        do {
            bytes = try context.readFile(path)
        } catch {
            return ([], (.failed(offset: nil, reason: "cannot read: \(error.reason)"), 0))
        }
        guard discovered, !FormatDetector.isTypedStream(bytes) else { return (bytes, nil) }
        let detection = FormatDetector.detect(bytes)
        let what = detection.kind == .unknown ? detection.reason : detection.summary
        return (bytes, (.skipped(reason: "not a typedstream: \(what)"), bytes.count))
    }
}

/// The tally of a batch.
struct BatchSummary {
    var identical = 0
    var converted = 0
    var differing: [(path: String, text: String)] = []
    var failed: [(path: String, text: String)] = []
    var skipped: [(path: String, text: String)] = []

    /// Counts one result.
    mutating func add(_ path: String, _ outcome: BatchOutcome) {
        switch outcome {
        case .identical: identical += 1
        case .converted: converted += 1
        case .differs: differing.append((path, outcome.text))
        case .failed(let offset, let reason):
            failed.append((path, offset.map { "offset \(TextFormatting.hexOffset($0)): \(reason)" } ?? reason))
        case .skipped(let reason): skipped.append((path, reason))
        }
    }

    /// Whether this batch converts (its summary counts "converted" rather than "identical").
    var isConversion = false

    /// The shard run (`--shard`) and how many files the whole batch holds, for the summary.
    var shard: (shard: Shard, batchFiles: Int)? = nil

    /// Whether every verified file was well-formed and identical.
    var allGood: Bool { differing.isEmpty && failed.isEmpty }

    /// The closing report: a count line, then the files that failed, differ or were skipped.
    func report(maximumSkippedListed: Int = 20) -> String {
        let total = identical + converted + differing.count + failed.count + skipped.count
        let done = converted > 0 || (identical == 0 && differing.isEmpty && total > 0 && isConversion)
            ? "\(converted) converted" : "\(identical) identical, \(differing.count) differing"
        let part = shard.map { " (shard \($0.shard.text) of \($0.batchFiles) file\($0.batchFiles == 1 ? "" : "s"))" } ?? ""
        var text = "\nSummary: \(total) file\(total == 1 ? "" : "s")\(part): \(done), "
            + "\(failed.count) failed, \(skipped.count) skipped\n"
        if !failed.isEmpty {
            text += "Failed:\n" + failed.map { "  \(CommandContext.displayName($0.path)): \($0.text)\n" }.joined()
        }
        if !differing.isEmpty {
            text += "Differing:\n" + differing.map { "  \(CommandContext.displayName($0.path)): \($0.text)\n" }.joined()
        }
        if !skipped.isEmpty {
            text += "Skipped:\n" + skipped.prefix(maximumSkippedListed).map { "  \(CommandContext.displayName($0.path)): \($0.text)\n" }.joined()
            if skipped.count > maximumSkippedListed { text += "  … and \(skipped.count - maximumSkippedListed) more\n" }
        }
        return text
    }
}
