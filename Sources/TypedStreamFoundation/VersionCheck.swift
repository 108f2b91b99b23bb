import TypedStream

extension ObjectDecoder {
    /// Checks that `className` was archived with one of the `supported` versions, else throws
    /// ``CoderError`` `unsupportedVersion` (the unarchiver then keeps the object generic and
    /// reports it, rather than guessing).
    public func requireVersion(of className: String, in supported: ClosedRange<Int64>) throws(CoderError) {
        guard let version = version(ofClass: className) else { return }
        guard supported.contains(version) else {
            throw CoderError(.unsupportedVersion, at: currentObjectOffset,
                             "\(className) version \(version) is not understood (supported: \(supported.lowerBound)…\(supported.upperBound))")
        }
    }

    /// Checks the version of every class in the current object's chain that `supported` names
    /// (for example both `NSMutableData` and `NSData`); classes not named are not checked.
    /// Throws ``CoderError`` `unsupportedVersion` for the first version not understood.
    public func requireChainVersions(_ supported: KeyValuePairs<String, ClosedRange<Int64>>) throws(CoderError) {
        // Most chains are all version 0 and most ranges take 0: then no link can fail, and no
        // name need be compared (a number's chain is checked once per number, without a copy).
        if currentClassChainIsAtVersionZero, supported.allSatisfy({ $0.value.contains(0) }) { return }
        for link in currentClassChain {
            guard let range = supported.first(where: { $0.key == link.name })?.value else { continue }
            guard range.contains(link.version) else {
                throw CoderError(.unsupportedVersion, at: currentObjectOffset,
                                 "\(link.name) version \(link.version) is not understood (supported: \(range.lowerBound)…\(range.upperBound))")
            }
        }
    }
}
