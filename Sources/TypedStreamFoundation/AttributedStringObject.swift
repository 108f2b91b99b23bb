import TypedStream

/// `NSAttributedString` / `NSMutableAttributedString` (version 0): an `"@"` group with the
/// string object, then the attribute runs.
///
/// Each run is an `"iI"` group — the attribute dictionary's number and the run length in UTF-16
/// code units — followed by an `"@"` group with the `NSDictionary` the first time that number
/// appears. Numbers start at 1 and are given in order of first use; a later run with the same
/// attributes repeats the number only. The runs end when their lengths add up to the string's
/// UTF-16 length (an empty string has no runs).
///
/// ```swift
/// let bold = DictionaryObject(stringKeys: [("bold", NumberObject(bool: true))])
/// let text = AttributedStringObject("👍🏽 ok", runs: [.init(length: 5, attributes: bold),
///                                                    .init(length: 2, attributes: DictionaryObject())])
/// ```
public final class AttributedStringObject: ArchivableObject, HoldsObjects, CustomStringConvertible {
    /// One attribute run: its length in UTF-16 code units and its attribute dictionary.
    /// Runs that share a dictionary *instance* share its number in the archive.
    public struct Run {
        /// The length in UTF-16 code units.
        public var length: Int
        /// The attribute dictionary (`nil` only if the archive holds nil there).
        public var attributes: DictionaryObject?

        /// Creates a run.
        public init(length: Int, attributes: DictionaryObject?) {
            self.length = length
            self.attributes = attributes
        }
    }

    /// The chain as archived (`NSAttributedString` v0 : `NSObject` v0 by default).
    public var archiveClassChain: [ArchiveClassLink] {
        get { archivedChain ?? Self.immutableChain }
        set { archivedChain = newValue }
    }
    /// The chain as decoded or set; `nil` for the default, which is not stored: an instance
    /// made to be decoded takes no reference to a chain it replaces at once.
    @exclusivity(unchecked) private var archivedChain: [ArchiveClassLink]?
    /// The string object (an `NSString` or `NSMutableString`).
    @exclusivity(unchecked) public var stringObject = StringObject()
    /// The runs in order.
    @exclusivity(unchecked) public var attributeRuns: [Run] = []

    /// `NSAttributedString` v0 : `NSObject` v0.
    public static let immutableChain = [ArchiveClassLink("NSAttributedString", version: 0), .nsObject]
    /// `NSMutableAttributedString` v0 : `NSAttributedString` v0 : `NSObject` v0.
    public static let mutableChain = [ArchiveClassLink("NSMutableAttributedString", version: 0)] + immutableChain

    /// Creates an empty `NSAttributedString`.
    public init() {}

    /// Hands over the objects it holds (see ``HoldsObjects``).
    public func moveHeldObjects(into pending: inout [AnyObject]) {
        var taken = [Run].takingAll(of: &attributeRuns)
        while var run = taken.popLast() { pending.appendObject(run.attributes.take()) }
    }

    deinit { releaseHeldObjects(of: self) }

    /// Creates an attributed string of `string` with `runs` (their lengths are checked when
    /// the object is encoded).
    public init(_ string: String, runs: [Run], mutable: Bool = false) {
        stringObject = StringObject(string, mutable: mutable)
        attributeRuns = runs
        archiveClassChain = mutable ? Self.mutableChain : Self.immutableChain
    }

    /// Whether the archived class is `NSMutableAttributedString`.
    public var isMutable: Bool { archiveClassChain.first?.name == "NSMutableAttributedString" }

    /// The text.
    public var string: String { stringObject.string }

    /// The runs as UTF-16 ranges with their attributes as natural values (keys are the
    /// `NSString` keys' text; a later duplicate key wins).
    public var runs: [(range: Range<Int>, attributes: [String: NaturalValue])] {
        var result: [(range: Range<Int>, attributes: [String: NaturalValue])] = []
        var start = 0
        for run in attributeRuns {
            var attributes: [String: NaturalValue] = [:]
            for entry in run.attributes?.entries ?? [] {
                guard let key = entry.key as? StringObject else { continue }
                attributes[key.string] = naturalValue(of: entry.value)
            }
            result.append((start..<start + run.length, attributes))
            start += run.length
        }
        return result
    }

    /// The class versions this codec reads (a constant: a literal at the call would be
    /// made anew for every object).
    private static let chainVersions: KeyValuePairs<String, ClosedRange<Int64>> = ["NSMutableAttributedString": 0...0, "NSAttributedString": 0...0]

    /// Reads the string and the runs. Throws ``CoderError`` `badContents` when a run is
    /// negative or overflows the string, or a dictionary number is neither known nor the next.
    @_specialize(where D == Unarchiver)
    public func decodeContents<D: ObjectDecoder>(with decoder: D) throws {
        archiveClassChain = decoder.currentClassChain
        try decoder.requireChainVersions(Self.chainVersions)
        let offset = decoder.currentObjectOffset
        guard let string = try decoder.decodeObject(of: StringObject.self) else {
            throw CoderError(.badContents, at: offset, "NSAttributedString has a nil string")
        }
        stringObject = string
        let total = string.utf16Count
        var dictionaries: [DictionaryObject?] = []
        var covered = 0
        attributeRuns = []
        while covered < total {
            let values = try decoder.decodeValues(ofObjCTypes: "iI")
            let number = try Int32(archivedValue: values[0])
            let length = Int(try UInt32(archivedValue: values[1]))
            guard length <= total - covered else {
                throw CoderError(.badContents, at: offset, "NSAttributedString run of \(length) UTF-16 units at \(covered) overflows the string's \(total)")
            }
            let attributes: DictionaryObject?
            if number >= 1, Int(number) <= dictionaries.count {
                attributes = dictionaries[Int(number) - 1]
            } else if Int(number) == dictionaries.count + 1 {
                attributes = try decoder.decodeObject(of: DictionaryObject.self)
                dictionaries.append(attributes)
            } else {
                throw CoderError(.badContents, at: offset, "NSAttributedString attribute dictionary number \(number) is neither known nor the next (\(dictionaries.count + 1))")
            }
            attributeRuns.append(Run(length: length, attributes: attributes))
            covered += length
        }
    }

    /// Writes the string and the runs, numbering dictionaries by instance in order of first use.
    /// Throws ``CoderError`` `invalidValue` when the run lengths do not add up to the string's
    /// UTF-16 length.
    @_specialize(where E == Archiver)
    public func encodeContents<E: ObjectEncoder>(with encoder: E) throws {
        let total = stringObject.utf16Count
        let sum = attributeRuns.reduce(0) { $0 + max($1.length, 0) }
        guard sum == total, attributeRuns.allSatisfy({ $0.length >= 0 }) else {
            throw CoderError(.invalidValue, "NSAttributedString runs cover \(sum) UTF-16 units, the string has \(total)")
        }
        try encoder.encodeObject(stringObject)
        var numbers: [ObjectIdentifier: Int32] = [:]
        var nilNumber: Int32?
        var next: Int32 = 1
        for run in attributeRuns {
            guard let length = UInt32(exactly: run.length) else {
                throw CoderError(.invalidValue, "run length \(run.length) does not fit 'I'")
            }
            let known: Int32?
            if let attributes = run.attributes { known = numbers[ObjectIdentifier(attributes)] } else { known = nilNumber }
            if let known {
                try encoder.encodeValues([known.archivedValue, length.archivedValue], ofObjCTypes: "iI")
                continue
            }
            try encoder.encodeValues([next.archivedValue, length.archivedValue], ofObjCTypes: "iI")
            try encoder.encodeObject(run.attributes)
            if let attributes = run.attributes { numbers[ObjectIdentifier(attributes)] = next } else { nilNumber = next }
            next += 1
        }
    }

    /// The text and the number of runs.
    public var description: String { "\(archiveClassChain.first?.name ?? "NSAttributedString")(\(string.debugDescription), \(attributeRuns.count) runs)" }
}
