import ModelDocument

/// A wrong value of a `model add` option: which option, and why. Printed as
/// `model: --rect: …` with status 64.
struct ModelUsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending option (`--rect`).
    var option: String
    /// Why it is wrong.
    var reason: String

    /// "--rect: expected x,y,w,h (four numbers), got '1,2'".
    var description: String { "\(option): \(reason)" }
}

/// The values of `model add DIR --name … --type … --rect x,y,w,h --flag … --kind … --para …
/// [--thumbnail FILE]`, checked.
struct ModelAddOptions: Hashable, Sendable {
    /// The record to add (its thumbnail is read from ``thumbnailPath`` when given).
    var record: ModelRecord
    /// The thumbnail file to read, if any.
    var thumbnailPath: String?

    /// Parses the option values as the argument layer found them (`nil` when an option was not
    /// given). `--name` is required; `--rect` defaults to `0,0,0,0`; the numbers to 0.
    /// Throws ``ModelUsageError`` naming the offending option.
    init(name: String?, type: String? = nil, rect: String? = nil, flag: String? = nil, kind: String? = nil,
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
        self.record = record
        thumbnailPath = thumbnail
    }

    /// Parses `--rect x,y,w,h`: each value is read as a `Double` and must be finite and within
    /// the range of a 32-bit float once rounded (the archive holds `{?=ffff}`), so `1e39` is
    /// refused rather than stored as `inf`, and `nan` is refused too. Throws ``ModelUsageError``
    /// naming the field.
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
