import TypedStream

extension Unarchiver {
    /// Checks, before anything is allocated, that the object being decoded (or the top level)
    /// holds at least `needed` groups in all — so a count read from the file cannot ask for more
    /// elements than the bytes carry. Throws ``CoderError`` `badContents` naming `what`.
    public func requireGroups(_ needed: Int, for what: @autoclosure () -> String) throws(CoderError) {
        let available = currentObject?.groups.count ?? archive.groups.count
        guard needed <= available else {
            throw CoderError(.badContents, at: currentObject?.sourceOffset,
                             "\(what()) needs \(needed) groups but the object holds only \(available)")
        }
    }
}
