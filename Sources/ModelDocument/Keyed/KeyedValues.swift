/// The keyed values of one archived object, as our keyed classes read them: the one reading of
/// their keys, shared by `init?(coder:)` (Foundation's `NSCoder`, through ``CoderValues``) and
/// by ``KeyedArchiveReader`` (untrusted files). Absent keys are `nil`; a present value of the
/// wrong kind throws.
protocol KeyedValues {
    /// Whether `key` is present.
    func contains(_ key: String) -> Bool
    /// The string for `key`.
    func string(_ key: String) throws(ModelDocumentError) -> String?
    /// The integer for `key`.
    func integer(_ key: String) throws(ModelDocumentError) -> Int?
    /// The bytes for `key`.
    func data(_ key: String) throws(ModelDocumentError) -> [UInt8]?
    /// The error for a bad value of `key` ("$objects[7].md_rt is missing").
    func invalid(_ key: String, _ reason: String) -> ModelDocumentError
}

extension KeyedValues {
    /// The string for `key`; throws when it is absent.
    func requiredString(_ key: String) throws(ModelDocumentError) -> String {
        guard let text = try string(key) else { throw invalid(key, "is missing") }
        return text
    }

    /// The integer for `key` (0 when absent) as a `T`; throws when it does not fit.
    func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type) throws(ModelDocumentError) -> T {
        let value = try integer(key) ?? 0
        guard let fitted = T(exactly: value) else { throw invalid(key, "\(value) is out of range for \(T.self)") }
        return fitted
    }
}
