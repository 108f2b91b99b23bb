import Foundation
import TypedStream

/// A decoded object as a plain Swift value: what an `NSString`, `NSNumber`, `NSArray` …
/// *means*, without class chains or wire details.
///
/// ```swift
/// let root = try Unarchiver(bytes: bytes, registry: .foundation).decodeRootObject()
/// if case .array(let items) = naturalValue(of: root) { … }
/// let again = try FoundationBuilder.object(from: .array([.bool(true), .bool(false)]))
/// ```
///
/// Natural values forget what does not change the meaning: mutable versus immutable classes,
/// the exact `objCType` of a number (an `i` 42 and a `q` 42 are both `.number(.int(42))`), and
/// which instances were shared.
public indirect enum NaturalValue: Hashable, Sendable {
    /// `NSString` / `NSMutableString`.
    case string(String)
    /// `NSData` / `NSMutableData`.
    case data(Data)
    /// `NSDate`.
    case date(Date)
    /// `NSURL` (with its base URL, when relative).
    case url(URL)
    /// `NSNumber` other than a `BOOL`.
    case number(NumberValue)
    /// `NSNumber` holding a `BOOL` (`c` 0 or 1).
    case bool(Bool)
    /// `NSValue` holding a point, size, rectangle or range.
    case geometry(GeometryValue)
    /// `NSArray` / `NSMutableArray`.
    case array([NaturalValue])
    /// `NSSet` / `NSMutableSet`, elements in archived order.
    case set([NaturalValue])
    /// `NSDictionary` / `NSMutableDictionary`: entries in archived order, duplicates kept.
    case dictionary([Entry])
    /// `NSNull`.
    case null
    /// A nil object where an archive holds one (an element, key or value).
    case nilObject
    /// `NSAttributedString` / `NSMutableAttributedString`.
    case attributedString(AttributedText)
    /// Any other object: its class name and a description (generic objects, unknown `NSValue`
    /// types, cycles and objects nested too deeply).
    case object(className: String, description: String)

    /// One dictionary entry.
    public struct Entry: Hashable, Sendable {
        /// The key.
        public var key: NaturalValue
        /// The value.
        public var value: NaturalValue

        /// Creates an entry.
        public init(_ key: NaturalValue, _ value: NaturalValue) {
            self.key = key
            self.value = value
        }
    }

    /// An attributed string: its text and its runs.
    public struct AttributedText: Hashable, Sendable {
        /// The text.
        public var string: String
        /// The runs, in order, covering the text's UTF-16 length.
        public var runs: [Run]

        /// Creates an attributed string.
        public init(string: String, runs: [Run]) {
            self.string = string
            self.runs = runs
        }
    }

    /// One attribute run of an attributed string.
    public struct Run: Hashable, Sendable {
        /// The range in UTF-16 code units.
        public var range: Range<Int>
        /// The attributes, as the entries of their dictionary in archived order.
        public var attributes: [Entry]

        /// Creates a run.
        public init(range: Range<Int>, attributes: [Entry]) {
            self.range = range
            self.attributes = attributes
        }
    }

    /// The natural value of `object` (see ``naturalValue(of:maximumDepth:maximumObjects:)``).
    public init(_ object: AnyObject?, maximumDepth: Int = NaturalValue.defaultMaximumDepth) {
        self = naturalValue(of: object, maximumDepth: maximumDepth)
    }

    /// How deep ``naturalValue(of:maximumDepth:maximumObjects:)`` walks by default: 64 objects.
    public static let defaultMaximumDepth = 64
    /// The default most objects one ``naturalValue(of:maximumDepth:maximumObjects:)`` converts,
    /// counting a shared object at each use: 16 777 216.
    public static let defaultMaximumObjects = 1 << 24
}

/// A class codec that knows its natural value. The codecs of this module conform; codecs in
/// other modules can conform too, and ``naturalValue(of:maximumDepth:maximumObjects:)`` will use them.
public protocol NaturalValueRepresentable: AnyObject {
    /// This object's natural value; `nested` gives the natural value of an object it refers to
    /// (it guards against cycles and deep nesting — always use it for nested objects).
    func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue
}

/// The natural value of a decoded object: typed objects become Swift values, generic objects
/// and unknown classes become ``NaturalValue/object(className:description:)``.
///
/// Cycle-safe: an object met again inside itself becomes `.object(className:, description: "<cycle>")`,
/// and nesting deeper than `maximumDepth` becomes `.object(className:, description: "<too deep>")`.
/// Shared (but not cyclic) objects appear once per use, so the value can be far larger than the
/// archive (a few kilobytes whose level *k* holds level *k − 1* twice): past `maximumObjects`
/// conversions every further object becomes `.object(className:, description: "<over budget>")`.
public func naturalValue(of object: AnyObject?, maximumDepth: Int = NaturalValue.defaultMaximumDepth,
                         maximumObjects: Int = NaturalValue.defaultMaximumObjects) -> NaturalValue {
    let walker = NaturalValueWalker(maximumDepth: maximumDepth, maximumObjects: maximumObjects)
    return walker.value(of: object)
}

private final class NaturalValueWalker {
    let maximumDepth: Int
    /// The objects being converted, outermost first: an object met again on this path is a
    /// cycle. Searched in order — paths are a few objects deep (at most 64 by default), and
    /// hashing every identity three times per object cost more than the search; the part of a
    /// path deeper than ``searchedInOrder`` is also kept in ``deepPath``, so a deep path costs
    /// no more than a set.
    var path: [ObjectIdentifier] = []
    var deepPath: Set<ObjectIdentifier> = []
    static let searchedInOrder = 64

    /// The conversions still allowed.
    var objectsLeft: Int

    init(maximumDepth: Int, maximumObjects: Int) {
        self.maximumDepth = maximumDepth
        objectsLeft = maximumObjects
    }

    /// Whether `id` is on the path.
    func isOnPath(_ id: ObjectIdentifier) -> Bool {
        path.prefix(Self.searchedInOrder).contains(id) || (!deepPath.isEmpty && deepPath.contains(id))
    }

    static func className(of object: AnyObject) -> String {
        (object as? ArchivableObject)?.archiveClassChain.first?.name ?? "\(type(of: object))"
    }

    func value(of object: AnyObject?) -> NaturalValue {
        guard let object else { return .nilObject }
        let id = ObjectIdentifier(object)
        if isOnPath(id) { return .object(className: Self.className(of: object), description: "<cycle>") }
        if path.count >= maximumDepth { return .object(className: Self.className(of: object), description: "<too deep>") }
        guard objectsLeft > 0 else { return .object(className: Self.className(of: object), description: "<over budget>") }
        objectsLeft -= 1
        if path.count >= Self.searchedInOrder { deepPath.insert(id) }
        path.append(id)
        defer {
            path.removeLast()
            if path.count >= Self.searchedInOrder { deepPath.remove(id) }
        }
        if let representable = object as? NaturalValueRepresentable {
            return representable.makeNaturalValue(nested: value(of:))
        }
        return .object(className: Self.className(of: object), description: "\(object)")
    }
}

// MARK: - The codecs of this module

extension StringObject: NaturalValueRepresentable {
    /// `.string`.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .string(string) }
}

extension DataObject: NaturalValueRepresentable {
    /// `.data`.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .data(data) }
}

extension DateObject: NaturalValueRepresentable {
    /// `.date`.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .date(date) }
}

extension URLObject: NaturalValueRepresentable {
    /// `.url`, or `.object` when the string does not parse as a URL.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        url.map(NaturalValue.url) ?? .object(className: "NSURL", description: description)
    }
}

extension NumberObject: NaturalValueRepresentable {
    /// `.bool` for a `BOOL`, else `.number`.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        if case .bool(let b) = value { return .bool(b) }
        return .number(value)
    }
}

extension ValueObject: NaturalValueRepresentable {
    /// `.geometry`, or `.object` for other `objCType`s.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        geometry.map(NaturalValue.geometry) ?? .object(className: "NSValue", description: description)
    }
}

extension NullObject: NaturalValueRepresentable {
    /// `.null`.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .null }
}

extension ArrayObject: NaturalValueRepresentable {
    /// `.array` of the elements' natural values.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .array(elements.map(nested)) }
}

extension SetObject: NaturalValueRepresentable {
    /// `.set` of the elements' natural values, in archived order.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue { .set(elements.map(nested)) }
}

extension DictionaryObject: NaturalValueRepresentable {
    /// `.dictionary` of the entries' natural values, in archived order.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        .dictionary(entries.map { NaturalValue.Entry(nested($0.key), nested($0.value)) })
    }
}

extension AttributedStringObject: NaturalValueRepresentable {
    /// `.attributedString` with each run's UTF-16 range and attribute entries.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        var runs: [NaturalValue.Run] = []
        var start = 0
        for run in attributeRuns {
            var attributes: [NaturalValue.Entry] = []
            if let dictionary = run.attributes, case .dictionary(let entries) = nested(dictionary) {
                attributes = entries
            }
            runs.append(NaturalValue.Run(range: start..<start + run.length, attributes: attributes))
            start += run.length
        }
        return .attributedString(NaturalValue.AttributedText(string: string, runs: runs))
    }
}

extension PlainObject: NaturalValueRepresentable {
    /// `.object` with the class name and an empty description.
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        .object(className: archiveClassChain.first?.name ?? "NSObject", description: "")
    }
}

extension ClassReference: NaturalValueRepresentable {
    /// `.object` with the class name and "class reference" (an `@` slot naming a class).
    public func makeNaturalValue(nested: (AnyObject?) -> NaturalValue) -> NaturalValue {
        .object(className: archiveClassChain.first?.name ?? "?", description: "class reference")
    }
}
