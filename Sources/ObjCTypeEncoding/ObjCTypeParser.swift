/// Parses `@encode` strings into ``ObjCType`` trees.
///
/// Accepts every letter of the grammar, arrays `[N t]`, structs and unions with or without a
/// name, quoted member names, bitfields `bN`, pointers, qualifiers, `@"Class"` hints, and the
/// design-card spelling `<name=…>` as an alias for a struct. Nesting is bounded by
/// ``Limits/maximumDepth`` so hostile strings cannot overflow the stack.
public struct ObjCTypeParser {
    /// Bounds the parser enforces.
    public struct Limits: Sendable {
        /// Deepest bracket nesting accepted (structs, unions, arrays, pointers). Default 64.
        public var maximumDepth: Int = 64
        /// Largest array element count accepted. Default 2³¹ − 1.
        public var maximumArrayCount: Int = Int(Int32.max)
        /// The default limits.
        public static let `default` = Limits()
        /// Creates limits with the defaults.
        public init() {}
    }

    private let bytes: [UInt8]
    private var position = 0
    private let limits: Limits
    /// The deepest level a type was parsed at, counting the struct that a multi-member array
    /// element (`[3ii]`) becomes: its canonical print (`[3{ii}]`) nests one level deeper.
    private var deepest = 0

    /// Creates a parser over the bytes of one type string.
    ///
    /// Inlinable, so that the bytes are copied into an array by code specialized for the
    /// caller's collection: an unspecialized `Array(bytes)` looks up generic metadata at run
    /// time, about 5 000 instructions per type string.
    @inlinable
    public init(bytes: some Collection<UInt8>, limits: Limits = .default) {
        self.init(copied: Array(bytes), limits: limits)
    }

    /// Creates a parser over `bytes`, copied by the caller.
    @usableFromInline
    init(copied bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses the whole string as a sequence of types (a group string such as `"iI"`).
    /// An empty string gives an empty list. Throws ``ObjCTypeError``.
    public mutating func parseAll() throws(ObjCTypeError) -> [ObjCType] {
        var types: [ObjCType] = []
        while position < bytes.count {
            types.append(try parseType(depth: 0))
        }
        return types
    }

    /// Parses exactly one type spanning the whole string. Throws ``ObjCTypeError``.
    public mutating func parseSingle() throws(ObjCTypeError) -> ObjCType {
        guard !bytes.isEmpty else { throw ObjCTypeError(.empty, at: 0, "empty type string") }
        let type = try parseType(depth: 0)
        guard position == bytes.count else {
            throw ObjCTypeError(.trailingCharacters, at: position, "unexpected \(describe(position)) after a complete type")
        }
        return type
    }

    private func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of string" }
        let b = bytes[at]
        if b >= 0x20 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func expectByte(_ what: String) throws(ObjCTypeError) -> UInt8 {
        guard position < bytes.count else {
            throw ObjCTypeError(.unexpectedEnd, at: position, "expected \(what), found end of string")
        }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func parseNumber() -> Int? {
        var value = 0
        var digits = 0
        while let b = peek(), b >= 0x30, b <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(b - 0x30))
            value = (o1 || o2) ? Int.max : s
            digits += 1
            position += 1
        }
        return digits == 0 ? nil : value
    }

    /// Reads the `"Name"` after an `@` (the parser stands on the opening quote), or returns
    /// `nil` and leaves the position alone when the quotes belong to the next member's name.
    ///
    /// Inside a struct or union whose members carry quoted names (`memberCloser` is its closing
    /// bracket), `{?="a"@"b"i}` is ambiguous: clang writes `@"Class"` hints *and* member names
    /// there. The quoted text is a class hint only when what follows it cannot be a member's
    /// type — another quoted name, the closing bracket, or the end of the string. Elsewhere
    /// `@"…"` is always a hint. Throws ``ObjCTypeError`` when the quote is never closed.
    private mutating func classNameHint(memberCloser: UInt8?) throws(ObjCTypeError) -> String? {
        let open = position
        guard let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw ObjCTypeError(.unexpectedEnd, at: bytes.count, "quoted name opened at \(open) is not closed")
        }
        if let memberCloser, close + 1 < bytes.count {
            let after = bytes[close + 1]
            guard after == UInt8(ascii: "\"") || after == memberCloser else { return nil }
        }
        position = close + 1
        return String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
    }

    /// Parses one type. `memberCloser` is the closing bracket of the enclosing struct or union
    /// when this type follows a quoted member name (see ``classNameHint(memberCloser:)``).
    private mutating func parseType(depth: Int, memberCloser: UInt8? = nil) throws(ObjCTypeError) -> ObjCType {
        guard depth < limits.maximumDepth else {
            throw ObjCTypeError(.tooDeep, at: position, "type nested deeper than \(limits.maximumDepth) levels")
        }
        deepest = max(deepest, depth)
        let start = position
        let b = try expectByte("a type")
        if ObjCTypeQualifiers.isQualifier(b) {
            var letters = [b]
            while let q = peek(), ObjCTypeQualifiers.isQualifier(q) {
                letters.append(q)
                position += 1
            }
            return .qualified(ObjCTypeQualifiers(letters: letters), try parseType(depth: depth + 1, memberCloser: memberCloser))
        }
        switch b {
        case UInt8(ascii: "@"):
            if peek() == UInt8(ascii: "\""), let hint = try classNameHint(memberCloser: memberCloser) {
                return .object(className: hint)
            }
            return .object(className: nil)
        case UInt8(ascii: "^"):
            return .pointer(try parseType(depth: depth + 1))
        case UInt8(ascii: "b"):
            guard let width = parseNumber() else {
                if position >= bytes.count {
                    throw ObjCTypeError(.unexpectedEnd, at: position, "expected a bitfield width after 'b', found end of string")
                }
                throw ObjCTypeError(.badCount, at: position, "expected a bitfield width after 'b', found \(describe(position))")
            }
            guard width <= 64 else {
                throw ObjCTypeError(.badCount, at: start + 1, "bitfield width \(width) is larger than 64")
            }
            return .bitfield(width: width)
        case UInt8(ascii: "["):
            guard let count = parseNumber() else {
                if position >= bytes.count {
                    throw ObjCTypeError(.unexpectedEnd, at: position, "expected an array count, found end of string")
                }
                throw ObjCTypeError(.badCount, at: position, "expected an array count, found \(describe(position))")
            }
            guard count <= limits.maximumArrayCount else {
                throw ObjCTypeError(.badCount, at: start + 1, "array count \(count) exceeds the limit \(limits.maximumArrayCount)")
            }
            // The first element is kept apart: nearly every array has one (`[16c]`), and an
            // array of elements is made only for a second.
            var first: ObjCType?
            var elements: [ObjCType] = []
            let outerDeepest = deepest
            deepest = depth
            while peek() != UInt8(ascii: "]") {
                guard peek() != nil else {
                    throw ObjCTypeError(.unexpectedEnd, at: position, "expected ']' to close the array opened at \(start), found end of string")
                }
                let element = try parseType(depth: depth + 1)
                if let earlier = first {
                    if elements.isEmpty { elements.append(earlier) }
                    elements.append(element)
                } else {
                    first = element
                }
            }
            if elements.count > 1 {
                // The members become a struct (`[3ii]` is `[3{ii}]`): one level more, so that
                // the canonical print parses under the same limit.
                deepest += 1
                guard deepest < limits.maximumDepth else {
                    throw ObjCTypeError(.tooDeep, at: start, "type nested deeper than \(limits.maximumDepth) levels (counting the struct that the members of the array opened at \(start) form)")
                }
            }
            deepest = max(outerDeepest, deepest)
            position += 1
            guard let first else {
                throw ObjCTypeError(.empty, at: position - 1, "array opened at \(start) has no element type")
            }
            guard elements.isEmpty else {
                return .array(count: count, element: .anonymousStruct(elements))  // NeXT: `[3ii]`
            }
            return .array(count: count, element: first)
        case UInt8(ascii: "{"), UInt8(ascii: "<"):
            let close = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")
            let (name, fields) = try parseAggregate(close: close, opener: start, depth: depth)
            return .structure(name: name, fields: fields)
        case UInt8(ascii: "("):
            let (name, fields) = try parseAggregate(close: UInt8(ascii: ")"), opener: start, depth: depth)
            return .union(name: name, fields: fields)
        default:
            if let simple = ObjCType.simple(letter: b) { return simple }
            throw ObjCTypeError(.unexpectedCharacter, at: start, "\(describe(start)) does not start a type")
        }
    }

    /// Reads `name=fields…close` after the opening bracket. The name ends at the first `=` met
    /// before any nested bracket or the closer; with no such `=` there is no name.
    private mutating func parseAggregate(close: UInt8, opener: Int, depth: Int) throws(ObjCTypeError) -> (String?, [ObjCField]) {
        var name: String? = nil
        var scan = position
        while scan < bytes.count {
            let c = bytes[scan]
            if c == UInt8(ascii: "=") {
                name = String(decoding: bytes[position..<scan], as: UTF8.self)
                position = scan + 1
                break
            }
            // `}` ends a name in every bracket: a name holding it (`<a}>`) could not be
            // printed in the canonical `{…}` form.
            if c == close || c == UInt8(ascii: "{") || c == UInt8(ascii: "(") || c == UInt8(ascii: "[")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "^") || c == UInt8(ascii: "}") {
                break
            }
            scan += 1
        }
        if scan >= bytes.count && name == nil {
            // Distinguish "{a" (unclosed name) from a field list that runs out.
            let what = close == UInt8(ascii: ")") ? "union" : "struct"
            throw ObjCTypeError(.unexpectedEnd, at: bytes.count, "\(what) opened at \(opener) is not closed, found end of string")
        }
        if name == nil, scan < bytes.count, bytes[scan] == close, position < scan {
            // No `=`: either members (`{ff}`, NeXT) or a bare name as clang writes it behind a
            // pointer (`^^{CGContext}`, `^{?}`): a name when the text is `?` or does not parse.
            let save = position
            var probe = self
            let isAnonymousName = scan == position + 1 && bytes[position] == UInt8(ascii: "?")
            if isAnonymousName || (try? probe.parseMembers(close: close, opener: opener, depth: depth)) == nil {
                name = String(decoding: bytes[save..<scan], as: UTF8.self)
                position = scan + 1
                return (name, [])
            }
        }
        return (name, try parseMembers(close: close, opener: opener, depth: depth))
    }

    private mutating func parseMembers(close: UInt8, opener: Int, depth: Int) throws(ObjCTypeError) -> [ObjCField] {
        var fields: [ObjCField] = []
        while true {
            guard let c = peek() else {
                let what = close == UInt8(ascii: ")") ? "union" : "struct"
                throw ObjCTypeError(.unexpectedEnd, at: position, "expected '\(Character(UnicodeScalar(close)))' to close the \(what) opened at \(opener), found end of string")
            }
            if c == close {
                position += 1
                return fields
            }
            var fieldName: String? = nil
            if c == UInt8(ascii: "\"") {
                let nameStart = position + 1
                guard let end = bytes[nameStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw ObjCTypeError(.unexpectedEnd, at: bytes.count, "member name opened at \(position) is not closed")
                }
                fieldName = String(decoding: bytes[nameStart..<end], as: UTF8.self)
                position = end + 1
            }
            let type = try parseType(depth: depth + 1, memberCloser: fieldName == nil ? nil : close)
            fields.append(ObjCField(name: fieldName, type: type))
        }
    }
}

extension ObjCType {
    /// Parses exactly one type (`"{?=ffff}"`, `"[4c]"`, `"<?=ffff>"`). Throws ``ObjCTypeError``.
    public static func parse(_ string: String, limits: ObjCTypeParser.Limits = .default) throws(ObjCTypeError) -> ObjCType {
        var parser = ObjCTypeParser(bytes: string.utf8, limits: limits)
        return try parser.parseSingle()
    }

    /// Splits a group string into its types (`"{?=ffff}Ii"` → three types). Throws ``ObjCTypeError``.
    public static func parseGroup(_ string: String, limits: ObjCTypeParser.Limits = .default) throws(ObjCTypeError) -> [ObjCType] {
        var parser = ObjCTypeParser(bytes: string.utf8, limits: limits)
        return try parser.parseAll()
    }

    /// Splits a group string given as bytes, as read from an archive. Throws ``ObjCTypeError``.
    @inlinable
    public static func parseGroup(bytes: some Collection<UInt8>, limits: ObjCTypeParser.Limits = .default) throws(ObjCTypeError) -> [ObjCType] {
        var parser = ObjCTypeParser(bytes: bytes, limits: limits)
        return try parser.parseAll()
    }
}
