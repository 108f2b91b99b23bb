import ObjCTypeEncoding

/// What a reader counts against ``DecodingLimits`` while it reads, counted by those who write:
/// ``ArchiveWriter`` (and so ``Archiver``) and the lossless JSON importer refuse what a reader
/// with the same limits would refuse, so that nothing they write is refused when read back.
///
/// Each check returns `nil` when a reader accepts what is counted, else the reason it refuses
/// it (one line naming the ``DecodingLimits`` field); the caller adds where it is (a JSON path,
/// an object number) and throws its own error. The rules are the reader's (`TokenReader`):
/// - the object table (objects, classes, C strings) holds at most
///   ``DecodingLimits/maximumObjects`` entries, the shared-string table at most
///   ``DecodingLimits/maximumSharedStrings``;
/// - objects, arrays (other than `[N c]`) and structs nest at most
///   ``DecodingLimits/maximumNesting`` deep;
/// - values that take no bytes and hold no other value (`!`, `{?=}`, `[0 t]`, `[0c]`, a union
///   of size 0) number at most ``DecodingLimits/maximumEmptyElementArray`` in the whole
///   archive, and so does the count of one array whose elements may take no bytes;
/// - class names and chains, type strings and the whole archive are bounded by their fields.
public struct LimitTally: Sendable {
    /// The limits counted against.
    public let limits: DecodingLimits
    /// Entries of the object table counted so far.
    public private(set) var objects = 0
    /// Entries of the shared-string table counted so far.
    public private(set) var sharedStrings = 0
    /// Values that take no bytes counted so far.
    public private(set) var emptyValues = 0

    /// A tally with nothing counted yet.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Counts one new entry of the object table (an object, a class or a C string).
    public mutating func countObject() -> String? {
        guard objects < limits.maximumObjects else {
            return "more than \(limits.maximumObjects) objects, classes and C strings (DecodingLimits.maximumObjects)"
        }
        objects += 1
        return nil
    }

    /// Counts one new literal of the shared-string table.
    public mutating func countSharedString() -> String? {
        guard sharedStrings < limits.maximumSharedStrings else {
            return "more than \(limits.maximumSharedStrings) shared strings (DecodingLimits.maximumSharedStrings)"
        }
        sharedStrings += 1
        return nil
    }

    /// Checks entering one more level of objects, arrays and structs, `depth` deep once entered.
    public func checkNesting(_ depth: Int) -> String? {
        guard depth <= limits.maximumNesting else {
            return "nesting deeper than \(limits.maximumNesting) objects, arrays and structs (DecodingLimits.maximumNesting)"
        }
        return nil
    }

    /// Counts the value of `type` about to be written, when it takes no bytes and holds no
    /// other value, and checks the count of an array whose elements may take no bytes. Call it
    /// for every `!`, struct, union and array (`[N c]` included) before its contents.
    public mutating func countValue(of type: ObjCType) -> String? {
        switch type.unqualified {
        case .ignored:
            return countEmptyValue()
        case .structure(_, let fields):
            return fields.isEmpty ? countEmptyValue() : nil
        case .union:
            return type.layout(.ilp32)?.size == 0 ? countEmptyValue() : nil
        case .array(let count, let element):
            if element.unqualified != .char, element.unqualified != .unsignedChar, count > limits.maximumEmptyElementArray,
               element.minimumWireSize == 0 {
                return "an array of \(count) elements that take no bytes, more than \(limits.maximumEmptyElementArray) (DecodingLimits.maximumEmptyElementArray)"
            }
            return count == 0 ? countEmptyValue() : nil
        default:
            return nil
        }
    }

    private mutating func countEmptyValue() -> String? {
        guard emptyValues < limits.maximumEmptyElementArray else {
            return "more than \(limits.maximumEmptyElementArray) values that take no bytes on the wire (!, empty structs, arrays of them; DecodingLimits.maximumEmptyElementArray)"
        }
        emptyValues += 1
        return nil
    }

    /// Checks a class name of `length` bytes.
    public func checkClassName(length: Int) -> String? {
        guard length <= limits.maximumClassNameLength else {
            return "a class name of \(length) bytes, longer than \(limits.maximumClassNameLength) (DecodingLimits.maximumClassNameLength)"
        }
        return nil
    }

    /// Checks a class chain of `length` classes (a class and all its superclasses).
    public func checkClassChain(length: Int) -> String? {
        guard length <= limits.maximumClassChainLength else {
            return "a class chain longer than \(limits.maximumClassChainLength) classes (DecodingLimits.maximumClassChainLength)"
        }
        return nil
    }

    /// Checks that a type string parses within ``DecodingLimits/maximumTypeNesting``. A type
    /// string no longer than the limit cannot nest deeper (each level takes a byte), so only a
    /// longer one is parsed again.
    public func checkTypeString(_ text: some Collection<UInt8>) -> String? {
        guard text.count > limits.maximumTypeNesting else { return nil }
        var typeLimits = ObjCTypeParser.Limits()
        typeLimits.maximumDepth = limits.maximumTypeNesting
        do {
            _ = try ObjCType.parseGroup(bytes: text, limits: typeLimits)
            return nil
        } catch {
            return "type string \(TextExcerpt.quoted(text)) does not parse within \(limits.maximumTypeNesting) levels of nesting (DecodingLimits.maximumTypeNesting): \(error.description)"
        }
    }

    /// Checks an archive of `size` bytes.
    public func checkSize(_ size: Int) -> String? {
        guard size <= limits.maximumInputSize else {
            return "the archive would have \(size) bytes, more than \(limits.maximumInputSize) (DecodingLimits.maximumInputSize)"
        }
        return nil
    }
}
