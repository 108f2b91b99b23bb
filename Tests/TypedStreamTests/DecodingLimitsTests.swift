import Testing
import TypedStream

/// Each ``DecodingLimits`` field, lowered, refuses a tiny input that exceeds it by one and
/// accepts the same kind of input at the limit. Offsets are checked exactly.
struct DecodingLimitsTests {
    /// The header macOS writes (16 bytes).
    static let header: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]

    /// A literal shared string: 0x84, inline length, bytes.
    static func literal(_ text: String) -> [UInt8] { [0x84, UInt8(text.utf8.count)] + Array(text.utf8) }

    /// `count` objects of class A, each the only content of the one before, all closed.
    /// Object #k (k ≥ 1) starts at byte 24 + 3k.
    static func nestedObjects(_ count: Int, closed: Bool = true) -> [UInt8] {
        var bytes = header + literal("@") + [0x84, 0x84] + literal("A") + [0x00, 0x85]
        for _ in 1..<max(count, 1) { bytes += [0x92, 0x84, 0x93] }  // group "@", new object, class #1
        if closed { bytes += [UInt8](repeating: 0x86, count: count) }
        return bytes
    }

    static func limits(_ change: (inout DecodingLimits) -> Void) -> DecodingLimits {
        var limits = DecodingLimits()
        change(&limits)
        return limits
    }

    static func expectRefused(_ bytes: [UInt8], _ limits: DecodingLimits, at offset: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        switch RobustnessSupport.readAll(bytes, limits: limits) {
        case .success: Issue.record("read without error; expected limitExceeded at \(offset)", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error.code == .limitExceeded && error.offset == offset, "got \(error.code) at \(error.offset): \(error.reason)", sourceLocation: sourceLocation)
        }
    }

    static func expectAccepted(_ bytes: [UInt8], _ limits: DecodingLimits, sourceLocation: SourceLocation = #_sourceLocation) {
        if case .failure(let error) = RobustnessSupport.readAll(bytes, limits: limits) {
            Issue.record("expected to read, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func maximumNesting() {
        let limits = Self.limits { $0.maximumNesting = 3 }
        Self.expectAccepted(Self.nestedObjects(3), limits)
        Self.expectRefused(Self.nestedObjects(4), limits, at: 24 + 3 * 3)
        // Arrays and structs count too: an object holding {?=[1{?=i}]} is 4 deep.
        let mixed = Self.header + Self.literal("@") + [0x84, 0x84] + Self.literal("A") + [0x00, 0x85]
            + Self.literal("{?=[1{?=i}]}") + [0x05, 0x86]
        Self.expectAccepted(mixed, Self.limits { $0.maximumNesting = 4 })
        Self.expectRefused(mixed, limits, at: 26 + 14)  // the inner struct, after the type string
    }

    @Test func maximumClassNameLength() {
        // Object #0 at 19, its class link at 20, the name's literal at 21.
        let named = Self.header + Self.literal("@") + [0x84, 0x84] + Self.literal("ABCDE") + [0x00, 0x85, 0x86]
        Self.expectAccepted(named, Self.limits { $0.maximumClassNameLength = 5 })
        Self.expectRefused(named, Self.limits { $0.maximumClassNameLength = 4 }, at: 21)
        #expect(DecodingLimits.default.maximumClassNameLength == 256)
        // The graph writer refuses to write a name readers refuse.
        let namedArchive = { (length: Int) -> Archive in
            let object = ArchivedObject(archivedClass: ArchivedClass(name: Array(repeating: UInt8(ascii: "N"), count: length), version: 0))
            return Archive(groups: [ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [.object(object, referenceWidth: nil)])])
        }
        #expect(throws: WireError(.limitExceeded, at: 0, "")) { try ArchiveWriter.write(namedArchive(257)) }
        #expect(throws: Never.self) { try ArchiveWriter.write(namedArchive(256)) }
    }

    @Test func maximumClassChainLength() throws {
        // Object #0 at 19 with the chain A : B : C (new classes at 20, 25 and 30).
        let chain = Self.header + Self.literal("@") + [0x84]
            + [0x84] + Self.literal("A") + [0x00] + [0x84] + Self.literal("B") + [0x00] + [0x84] + Self.literal("C") + [0x00] + [0x85, 0x86]
        // Checked where class links become a graph: by the index and the graph reader alike.
        func refused(_ bytes: [UInt8], longest: Int) -> [Int?] {
            let limits = Self.limits { $0.maximumClassChainLength = longest }
            let errors: [WireError?] = [
                { () -> WireError? in do { _ = try ArchiveIndex(bytes: bytes, limits: limits); return nil } catch let error as WireError { return error } catch { return nil } }(),
                { () -> WireError? in do { _ = try ArchiveReader.read(bytes, limits: limits); return nil } catch let error as WireError { return error } catch { return nil } }(),
            ]
            return errors.map { error in error.map { $0.code == .limitExceeded ? $0.offset : -1 } }
        }
        #expect(refused(chain, longest: 3) == [nil, nil])
        #expect(refused(chain, longest: 2) == [30, 30])
        // A second object of a new class D whose superclass is A (#1, by reference): D's chain
        // is four long, found at the reference.
        let deeper = Array(chain.dropLast()) + [0x92, 0x84, 0x84] + Self.literal("D") + [0x00, 0x93, 0x86, 0x86]
        #expect(refused(deeper, longest: 4) == [nil, nil])
        #expect(refused(deeper, longest: 3) == [deeper.count - 3, deeper.count - 3])
        #expect(DecodingLimits.default.maximumClassChainLength == 256)
        // The archiver refuses to write what readers refuse.
        let tall = GenericObject()
        tall.archiveClassChain = (0..<257).map { ArchiveClassLink("C\($0)") }
        #expect(throws: CoderError(.invalidValue, "")) { try Archiver.archivedBytes(withRootObject: tall) }
        tall.archiveClassChain.removeLast()
        #expect(try ArchiveReader.read(try Archiver.archivedBytes(withRootObject: tall)).groups.count == 1)
        // So does the graph writer (what `encode` writes from JSON), counting the new classes
        // of a chain together with the chain of the class they continue.
        func classChain(_ count: Int, on root: ArchivedClass? = nil) -> ArchivedClass {
            (0..<count).reduce(root) { below, n in ArchivedClass(name: Array("K\(n)".utf8), version: 0, superclass: below) }!
        }
        func archive(_ classes: [ArchivedClass]) -> Archive {
            let objects = classes.map { ArchivedValue.object(ArchivedObject(archivedClass: $0), referenceWidth: nil) }
            return Archive(groups: objects.map { ArchivedGroup(typeString: ArraySlice("@".utf8), types: [.object(className: nil)], values: [$0]) })
        }
        #expect(throws: WireError(.limitExceeded, at: 0, "")) { try ArchiveWriter.write(archive([classChain(257)])) }
        #expect(try ArchiveReader.read(try ArchiveWriter.write(archive([classChain(256)]))).groups.count == 1)
        let base = classChain(200)
        #expect(throws: WireError(.limitExceeded, at: 0, "")) { try ArchiveWriter.write(archive([base, classChain(57, on: base)])) }
        #expect(try ArchiveReader.read(try ArchiveWriter.write(archive([base, classChain(56, on: base)]))).groups.count == 2)
    }

    @Test func maximumTypeNesting() {
        let limits = Self.limits { $0.maximumTypeNesting = 3 }
        Self.expectAccepted(Self.header + Self.literal("[1[1i]]") + [0x05], limits)
        // Refused as a type string that does not parse (badTypeString), not limitExceeded.
        switch RobustnessSupport.readAll(Self.header + Self.literal("[1[1[1i]]]") + [0x05], limits: limits) {
        case .success: Issue.record("read without error")
        case .failure(let error): #expect(error.code == .badTypeString && error.offset == 16, "\(error)")
        }
    }

    @Test func maximumObjects() {
        let twoCStrings = Self.header + Self.literal("**") + [0x84] + Self.literal("a") + [0x84] + Self.literal("b")
        Self.expectAccepted(twoCStrings, Self.limits { $0.maximumObjects = 2 })
        Self.expectRefused(twoCStrings, Self.limits { $0.maximumObjects = 1 }, at: 24)
        // An object and its class take two slots.
        Self.expectRefused(Self.nestedObjects(1), Self.limits { $0.maximumObjects = 1 }, at: 20)
    }

    @Test func maximumSharedStrings() {
        let two = Self.header + Self.literal("i") + [0x05] + Self.literal("c") + [0x41]
        Self.expectAccepted(two, Self.limits { $0.maximumSharedStrings = 2 })
        Self.expectRefused(two, Self.limits { $0.maximumSharedStrings = 1 }, at: 20)
    }

    @Test func maximumEmptyElementArray() {
        let limits = Self.limits { $0.maximumEmptyElementArray = 3 }
        Self.expectAccepted(Self.header + Self.literal("[3!]"), limits)
        Self.expectRefused(Self.header + Self.literal("[4!]"), limits, at: 22)
        // Counted over the whole input: two groups of [2!] are four values.
        Self.expectRefused(Self.header + Self.literal("[2!]") + [0x92], limits, at: 23)
        // Nested arrays multiply: [2[2!]] is four values.
        Self.expectRefused(Self.header + Self.literal("[2[2!]]"), limits, at: 25)
        // Empty structs and arrays of no elements take no bytes either.
        Self.expectAccepted(Self.header + Self.literal("{?=}[0i][0c]"), limits)
        Self.expectRefused(Self.header + Self.literal("{?=}[0i][0c]!"), limits, at: 31)
    }

    @Test func maximumInputSize() {
        let twenty = Self.header + Self.literal("i") + [0x05]
        #expect(twenty.count == 20)
        Self.expectAccepted(twenty, Self.limits { $0.maximumInputSize = 20 })
        Self.expectRefused(twenty, Self.limits { $0.maximumInputSize = 19 }, at: 0)
    }

    /// 40 bytes claiming two billion ints: refused at the array, before any element is read
    /// and before anything the size of the array is allocated.
    @Test func twoBillionElementArrayIn40Bytes() {
        let bytes = Self.header + Self.literal("[2000000000i]") + [UInt8](repeating: 0, count: 9)
        #expect(bytes.count == 40)
        var reader = TokenReader(bytes: bytes)
        var kinds: [TokenKind] = []
        do {
            while let token = try reader.next() { kinds.append(token.kind) }
            Issue.record("read without error")
        } catch {
            #expect(error.code == .badLength && error.offset == 31, "\(error)")
        }
        #expect(kinds.count == 2)  // the header and the type string only
        #expect(!kinds.contains { if case .arrayStart = $0 { true } else { false } })
    }

    /// 10 000 objects each inside the one before: refused with limitExceeded at the 257th.
    @Test func tenThousandNestedObjects() {
        let bytes = Self.nestedObjects(10_000, closed: false)
        var reader = TokenReader(bytes: bytes)
        var deepest = 0
        do {
            while let token = try reader.next() { deepest = max(deepest, token.depth) }
            Issue.record("read without error")
        } catch {
            #expect(error.code == .limitExceeded && error.offset == 24 + 3 * 256, "\(error)")
        }
        #expect(reader.depth == DecodingLimits.default.maximumNesting)
        #expect(deepest == DecodingLimits.default.maximumNesting)
    }
}
