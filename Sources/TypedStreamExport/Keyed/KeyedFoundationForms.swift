import ObjCTypeEncoding
import TypedStream
import TypedStreamFoundation

// How NSKeyedArchiver lays out the Foundation classes (checked against swift-corelibs-foundation's
// NSKeyedArchiver on Linux, and against Apple's layouts where the two differ; see
// docs/keyed-mapping.md).

extension StringObject: KeyedArchiveRepresentable {
    /// `NSString`: the string itself. `NSMutableString` is a dictionary.
    public func keyedPlainValue(options: KeyedArchiveExporter.Options) -> PlistValue? {
        isMutable ? nil : .string(string)
    }

    /// `NSMutableString`: `NS.string`, the text inline.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        encoder.encode(.string(string), forKey: "NS.string")
    }
}

extension NumberObject: KeyedArchiveRepresentable {
    /// The number itself: a boolean, an integer or a real. Unsigned values above
    /// `Int64.max` become reals (a plist integer here is 64-bit signed).
    public func keyedPlainValue(options: KeyedArchiveExporter.Options) -> PlistValue? {
        switch value {
        case .bool(let b): .bool(b)
        case .int(let v): .integer(v)
        case .uint(let v): v <= UInt64(Int64.max) ? .integer(Int64(v)) : .real(Double(v))
        case .float(let f): .real(Double(f))
        case .double(let d): .real(d)
        }
    }

    /// Never called: numbers are plain values.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {}
}

extension DataObject: KeyedArchiveRepresentable {
    /// `NSData`: the bytes themselves. `NSMutableData` is a dictionary.
    public func keyedPlainValue(options: KeyedArchiveExporter.Options) -> PlistValue? {
        isMutable ? nil : .data(Array(bytes))
    }

    /// `NSMutableData`: `NS.data`, the bytes inline.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        encoder.encode(.data(Array(bytes)), forKey: "NS.data")
        encoder.noteData(bytes)
    }
}

extension DateObject: KeyedArchiveRepresentable {
    /// `NS.time`: seconds since 2001-01-01, a real.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        encoder.encode(.real(timeIntervalSinceReferenceDate), forKey: "NS.time")
    }
}

extension ArrayObject: KeyedArchiveRepresentable {
    /// `NS.objects`: the elements' UIDs (a nil element is UID 0, `$null`).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        try encoder.encodeObjects(elements, forKey: "NS.objects")
    }
}

extension SetObject: KeyedArchiveRepresentable {
    /// `NS.objects`: the elements' UIDs, in archived order.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        try encoder.encodeObjects(elements, forKey: "NS.objects")
    }
}

extension DictionaryObject: KeyedArchiveRepresentable {
    /// `NS.keys` and `NS.objects`: parallel arrays of UIDs, in archived order (keys first, as
    /// Foundation writes them; duplicate keys are kept, a reader keeps the last).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        var keys: [PlistValue] = [], values: [PlistValue] = []
        keys.reserveCapacity(entries.count)
        values.reserveCapacity(entries.count)
        for entry in entries { keys.append(try encoder.reference(to: entry.key)) }
        for entry in entries { values.append(try encoder.reference(to: entry.value)) }
        encoder.encode(.array(keys), forKey: "NS.keys")
        encoder.encode(.array(values), forKey: "NS.objects")
    }
}

extension NullObject: KeyedArchiveRepresentable {
    /// No keys: only `$class` (`NSNull`).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {}
}

extension PlainObject: KeyedArchiveRepresentable {
    /// No keys: only `$class` (`NSObject`, or NeXTSTEP's `Object`).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {}
}

extension URLObject: KeyedArchiveRepresentable {
    /// `NS.base` (the base URL's UID, or UID 0 for an absolute URL) and `NS.relative` (the
    /// string's UID).
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        try encoder.encode(base, forKey: "NS.base")
        try encoder.encode(stringObject, forKey: "NS.relative")
    }
}

extension ValueObject: KeyedArchiveRepresentable {
    /// Points, sizes, rectangles and ranges as `NSValue` writes them in keyed archives:
    /// `NS.special` 1 (`NS.pointval`), 2 (`NS.sizeval`), 3 (`NS.rectval`) — each the UID of the
    /// `NSStringFromPoint`-style text — or 4 (`NS.rangeval.length` and `NS.rangeval.location`,
    /// UIDs of integers). Any other `objCType` is written as `NSCoder` writes un-keyed values into
    /// a keyed archive: `$0`, the UID of the `objCType` string, and `$1`, the value.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        let isFloat = !objCType.contains("d")
        switch geometry {
        case .point(let x, let y)?:
            encoder.encode(.integer(1), forKey: "NS.special")
            try encoder.encodeStringObject(GeometryText.point(x: x, y: y, isFloat: isFloat), forKey: "NS.pointval")
        case .size(let w, let h)?:
            encoder.encode(.integer(2), forKey: "NS.special")
            try encoder.encodeStringObject(GeometryText.size(width: w, height: h, isFloat: isFloat), forKey: "NS.sizeval")
        case .rect(let x, let y, let w, let h)?:
            encoder.encode(.integer(3), forKey: "NS.special")
            try encoder.encodeStringObject(GeometryText.rect(x: x, y: y, width: w, height: h, isFloat: isFloat), forKey: "NS.rectval")
        case .range(let location, let length)?:
            encoder.encode(.integer(4), forKey: "NS.special")
            encoder.encode(try encoder.plainReference(.integer(Int64(bitPattern: length))), forKey: "NS.rangeval.length")
            encoder.encode(try encoder.plainReference(.integer(Int64(bitPattern: location))), forKey: "NS.rangeval.location")
        case nil:
            try encoder.encodeStringObject(objCType, forKey: "$0")
            let type = try? ObjCType.parse(objCType)
            encoder.encode(try KeyedGroupValues.plist(value, type: type, encoder: encoder, objects: [:]), forKey: "$1")
        }
    }
}

extension AttributedStringObject: KeyedArchiveRepresentable {
    /// `NSString` (the string's UID), then the attributes. With one run covering the text and
    /// the ``KeyedArchiveExporter/AttributeRunLayout/apple`` layout, `NSAttributes` is that run's
    /// dictionary. Otherwise `NSAttributes` is an `NSArray` of the distinct dictionaries (in order
    /// of first use) and `NSAttributeInfo` an `NSData` of base-128 varint pairs (run length in
    /// UTF-16 units, dictionary index). An empty string has neither key. A nil attribute
    /// dictionary (which an archive can hold) is written as an empty one.
    public func encodeKeyed(with encoder: KeyedArchiveEncoder) throws(KeyedArchiveError) {
        try encoder.encode(stringObject, forKey: "NSString")
        guard !attributeRuns.isEmpty else { return }
        let empty = DictionaryObject()
        // The distinct dictionaries, as the elements of the `NSAttributes` array; found by a
        // look along them while they are few (as they nearly always are), by a table past that.
        var distinct: [AnyObject?] = []
        var index: [ObjectIdentifier: Int] = [:]
        var info: [UInt8] = []
        for run in attributeRuns {
            let dictionary = run.attributes ?? empty
            var number = -1
            if index.isEmpty {
                number = distinct.firstIndex { $0 === dictionary } ?? -1
            } else if let known = index[ObjectIdentifier(dictionary)] {
                number = known
            }
            if number < 0 {
                number = distinct.count
                distinct.append(dictionary)
                if !index.isEmpty {
                    index[ObjectIdentifier(dictionary)] = number
                } else if distinct.count > Self.distinctDictionariesLookedAlong {
                    for (at, known) in distinct.enumerated() { if let known { index[ObjectIdentifier(known)] = at } }
                }
            }
            Varint.append(UInt64(max(run.length, 0)), to: &info)
            Varint.append(UInt64(number), to: &info)
        }
        if attributeRuns.count == 1, encoder.options.attributeRuns == .apple {
            try encoder.encode(distinct[0], forKey: "NSAttributes")
            return
        }
        try encoder.encode(ArrayObject(distinct, mutable: true), forKey: "NSAttributes")
        encoder.encode(try encoder.plainReference(.data(info)), forKey: "NSAttributeInfo")
    }
}

extension AttributedStringObject {
    /// How many distinct attribute dictionaries of one string are found by a look along them,
    /// before a table is made.
    fileprivate static let distinctDictionariesLookedAlong = 8
}

/// Base-128 varints, low bits first, as `NSAttributeInfo` stores run lengths and indices.
enum Varint {
    /// Appends `value`.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Reads one varint at `index`, advancing it; `nil` when the bytes end or it overflows.
    static func read(_ bytes: [UInt8], at index: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            let b = bytes[index]
            index += 1
            guard shift < 64 else { return nil }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
        return nil
    }
}
