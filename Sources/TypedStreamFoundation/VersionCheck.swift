import TypedStream

extension Unarchiver {
    /// Checks that `className` was archived with one of the `supported` versions, else throws
    /// ``CoderError`` `unsupportedVersion` (the unarchiver then keeps the object generic and
    /// reports it, rather than guessing).
    public func requireVersion(of className: String, in supported: ClosedRange<Int64>) throws(CoderError) {
        guard let version = version(ofClass: className) else { return }
        guard supported.contains(version) else {
            throw CoderError(.unsupportedVersion, at: currentObject?.sourceOffset,
                             "\(className) version \(version) is not understood (supported: \(supported.lowerBound)…\(supported.upperBound))")
        }
    }
}
