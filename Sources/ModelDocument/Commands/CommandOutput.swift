/// What a `model …` subcommand produced: text for standard output and standard error, and the
/// exit status (0 success, 1 failure, 64 usage error — `EX_USAGE`).
public struct CommandOutput: Hashable, Sendable {
    /// Exit status 0.
    public static let success: Int32 = 0
    /// Exit status 1.
    public static let failure: Int32 = 1
    /// Exit status 64 (`EX_USAGE`): the arguments were wrong.
    public static let usage: Int32 = 64

    /// Text for standard output (ends with a newline when not empty).
    public var standardOutput: String
    /// Text for standard error: warnings and errors, one per line.
    public var standardError: String
    /// The exit status.
    public var exitStatus: Int32

    /// Creates an output.
    public init(standardOutput: String = "", standardError: String = "", exitStatus: Int32 = CommandOutput.success) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitStatus = exitStatus
    }

    /// A failure with `message` on standard error ("model: message").
    static func failed(_ message: String, status: Int32 = failure, warnings: [String] = []) -> CommandOutput {
        CommandOutput(standardError: lines(warnings.map { "warning: " + $0 }) + "model: \(message)\n", exitStatus: status)
    }

    /// A success with `text` on standard output and `warnings` on standard error.
    static func succeeded(_ text: [String], warnings: [String] = []) -> CommandOutput {
        CommandOutput(standardOutput: lines(text), standardError: lines(warnings.map { "warning: " + $0 }))
    }

    static func lines(_ lines: [String]) -> String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}

/// A usage error in `model add` arguments: which option, and why (exit status 64).
public struct ModelUsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending option (`--rect`).
    public var option: String
    /// Why it is wrong.
    public var reason: String

    /// Creates an error.
    public init(option: String, reason: String) {
        self.option = option
        self.reason = reason
    }

    /// "--rect: expected x,y,w,h (four numbers), got '1,2'".
    public var description: String { "\(option): \(reason)" }
}

/// The values of `model add DIR --name … --type … --rect x,y,w,h --flag … --kind … --para …
/// [--thumbnail FILE]`.
public struct ModelAddRequest: Hashable, Sendable {
    /// The record to add (its thumbnail is read from ``thumbnailPath`` when given).
    public var record: ModelRecord
    /// The thumbnail file to read, if any.
    public var thumbnailPath: String?

    /// Creates a request.
    public init(record: ModelRecord, thumbnailPath: String? = nil) {
        self.record = record
        self.thumbnailPath = thumbnailPath
    }

    /// Parses the option values as the argument layer found them (`nil` when an option was not
    /// given). `--name` is required; `--rect` defaults to `0,0,0,0`; the numbers to 0.
    /// Throws ``ModelUsageError`` naming the offending option.
    public init(name: String?, type: String? = nil, rect: String? = nil, flag: String? = nil, kind: String? = nil,
                para: String? = nil, thumbnail: String? = nil) throws(ModelUsageError) {
        guard let name else { throw ModelUsageError(option: "--name", reason: "is required") }
        guard !name.isEmpty else { throw ModelUsageError(option: "--name", reason: "must not be empty") }
        var record = ModelRecord(name: name, type: type)
        if let rect { record.rect = try Self.finiteRect(rect) }
        if let flag {
            guard let value = UInt32(flag) else { throw ModelUsageError(option: "--flag", reason: "expected a whole number 0…\(UInt32.max), got '\(flag)'") }
            record.flag = value
        }
        if let kind {
            guard let value = Int32(kind) else { throw ModelUsageError(option: "--kind", reason: "expected a whole number \(Int32.min)…\(Int32.max), got '\(kind)'") }
            record.kind = value
        }
        if let para {
            guard let value = Int32(para) else { throw ModelUsageError(option: "--para", reason: "expected a whole number \(Int32.min)…\(Int32.max), got '\(para)'") }
            record.para = value
        }
        self.init(record: record, thumbnailPath: thumbnail)
    }

    /// Parses `--rect x,y,w,h`: each value is read as a `Double` and must be finite and within
    /// the range of a 32-bit float once rounded (the archive holds `{?=ffff}`), so `1e39` is refused rather
    /// than stored as `inf`, and `nan` is refused too. Throws ``ModelUsageError`` naming the field.
    static func finiteRect(_ text: String) throws(ModelUsageError) -> ModelRect {
        let malformed = ModelUsageError(option: "--rect", reason: "expected x,y,w,h (four numbers), got '\(DisplayText.escaped(text))'")
        guard let parts = ModelRect.argumentParts(text) else { throw malformed }
        var values: [Float] = []
        for (field, part) in zip(ModelRect.fieldNames, parts) {
            guard let wide = Double(part) else { throw malformed }
            // Rounds to a finite Float: `3.4028235e38`, the largest Float as it is spelled, is kept.
            guard wide.isFinite, Float(wide).isFinite else {
                throw ModelUsageError(option: "--rect", reason: "\(field) '\(DisplayText.escaped(part))' is not a finite 32-bit float (magnitude at most \(Float.greatestFiniteMagnitude))")
            }
            values.append(Float(wide))
        }
        return ModelRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}
