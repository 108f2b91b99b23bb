import Foundation
import TypedStream

/// Builds archivable objects from natural Swift values — the reverse of
/// ``naturalValue(of:maximumDepth:maximumObjects:)`` — so archives can be made from plain values:
///
/// ```swift
/// let root = try FoundationBuilder.object(from: .dictionary([.init(.string("k"), .number(.int(1)))]))
/// let bytes = try Archiver.archivedBytes(withRootObject: root)
/// // naturalValue(of: Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject()) is the same value
/// ```
///
/// New objects get the immutable classes and the types modern Foundation writes (`q`, `Q`, `d`,
/// `f`, `c` for numbers; `CGPoint`-style geometry by default). Attribute runs with equal
/// attributes share one dictionary, as Foundation's attribute uniquing does.
public enum FoundationBuilder {
    /// The object for `value`. Throws ``CoderError`` `invalidValue` for values that have no
    /// object form: `.nilObject` at the top level, `.object(…)`, and attributed strings whose
    /// runs do not cover the text's UTF-16 length contiguously.
    public static func object(from value: NaturalValue, geometryEncoding: GeometryEncoding = .cgFloat64) throws(CoderError) -> AnyObject {
        guard let object = try element(from: value, geometryEncoding) else {
            throw CoderError(.invalidValue, "a nil object has no object form")
        }
        return object
    }

    private static func element(from value: NaturalValue, _ geometryEncoding: GeometryEncoding) throws(CoderError) -> AnyObject? {
        switch value {
        case .string(let s): return StringObject(s)
        case .data(let d): return DataObject(Array(d))
        case .date(let d): return DateObject(d)
        case .url(let u): return URLObject(u)
        case .number(let n): return NumberObject(n)
        case .bool(let b): return NumberObject(bool: b)
        case .geometry(let g): return ValueObject(g, encoding: geometryEncoding)
        case .null: return NullObject()
        case .nilObject: return nil
        case .array(let items):
            var elements: [AnyObject?] = []
            for item in items { elements.append(try element(from: item, geometryEncoding)) }
            return ArrayObject(elements)
        case .set(let items):
            var elements: [AnyObject?] = []
            for item in items { elements.append(try element(from: item, geometryEncoding)) }
            return SetObject(elements)
        case .dictionary(let entries):
            return try dictionary(entries, geometryEncoding)
        case .attributedString(let text):
            return try attributedString(text, geometryEncoding)
        case .object(let className, _):
            throw CoderError(.invalidValue, "an object of class \(className) cannot be built from its description")
        }
    }

    private static func dictionary(_ entries: [NaturalValue.Entry], _ geometryEncoding: GeometryEncoding) throws(CoderError) -> DictionaryObject {
        let dictionary = DictionaryObject()
        for entry in entries {
            dictionary.entries.append(.init(key: try element(from: entry.key, geometryEncoding),
                                            value: try element(from: entry.value, geometryEncoding)))
        }
        return dictionary
    }

    private static func attributedString(_ text: NaturalValue.AttributedText, _ geometryEncoding: GeometryEncoding) throws(CoderError) -> AttributedStringObject {
        var runs: [AttributedStringObject.Run] = []
        var shared: [[NaturalValue.Entry]: DictionaryObject] = [:]
        var covered = 0
        for run in text.runs {
            guard run.range.lowerBound == covered else {
                throw CoderError(.invalidValue, "attribute run \(run.range) does not start where the previous one ended (\(covered))")
            }
            let attributes: DictionaryObject
            if let existing = shared[run.attributes] {
                attributes = existing
            } else {
                attributes = try dictionary(run.attributes, geometryEncoding)
                shared[run.attributes] = attributes
            }
            runs.append(.init(length: run.range.count, attributes: attributes))
            covered = run.range.upperBound
        }
        let total = text.string.utf16.count
        guard covered == total else {
            throw CoderError(.invalidValue, "attribute runs cover \(covered) UTF-16 units, the string has \(total)")
        }
        return AttributedStringObject(text.string, runs: runs)
    }
}
