import ObjCTypeEncoding
import TypedStream
import TestSupport

/// Builds random archive graphs from a seed: random type strings and values, shared objects,
/// cycles, class chains, C strings, and random (sometimes impossible) wire decisions, in the
/// order the writer will meet them, so every reference is to something already written.
struct RandomArchive {
    var rng: SplitMix64
    var header: StreamHeader
    private var objects: [ArchivedObject] = []
    private var classes: [ArchivedClass] = []
    private var cStrings: [ArchivedCString] = []
    private var depth = 0

    static let texts: [[UInt8]] = [
        Array("A".utf8), Array("NSObject".utf8), Array("i".utf8), Array("@".utf8), Array("héllo".utf8),
        Array("copy:".utf8), [], [0xFF], [0xC3, 0x28], [0x00, 0x41], Array("\"quoted\"\n".utf8), Array("日本".utf8),
    ]
    static let classNames = ["A", "B", "NSObject", "List", "Ünïcode"]

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        header = StreamHeader()
        header.streamerVersion = int(5) == 0 ? 3 : 4
        header.byteOrder = int(2) == 0 ? .big : .little
        let system: Int64 = [930, 901, 1000, 1000, 70000][int(5)]
        header.systemVersion = WireInteger(system, width: int(4) == 0 && IntegerWidth.int32.canHold(system) ? .int32 : .archiverChoice(for: system))
    }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func archive() -> Archive {
        var groups: [ArchivedGroup] = []
        for _ in 0..<(1 + int(6)) { groups.append(group()) }
        return Archive(header: header, groups: groups)
    }

    // MARK: - Decisions

    mutating func width(for value: Int64, _ allowed: [IntegerWidth]) -> IntegerWidth? {
        guard chance(40) else { return nil }
        let fitting = allowed.filter { $0.canHold(value) }
        return fitting.isEmpty ? nil : pick(fitting)
    }

    mutating func sharedDecision(_ text: [UInt8]) -> SharedStringDecision? {
        switch int(5) {
        case 0: return width(for: Int64(text.count), [.inline, .int16, .int32]).map { .literal(length: $0) } ?? .literal(length: .int16)
        case 1: return .reference(index: int(12), width: pick([.inline, .int16, .int32]))
        default: return nil
        }
    }

    mutating func referenceWidth() -> IntegerWidth? { chance(30) ? pick([.inline, .int16, .int32]) : nil }

    // MARK: - Types

    mutating func typeText(_ level: Int) -> String {
        let simple = ["c", "C", "s", "S", "i", "I", "l", "L", "q", "Q", "f", "d", "B", "+", "*", "@", "#", ":", "%", "!"]
        guard level < 3 else { return pick(simple) }
        switch int(12) {
        case 0: return "[\(int(4))\(typeText(level + 1))]"
        case 1: return "[\(int(6))c]"
        case 2: return "{?=\(typeText(level + 1))\(typeText(level + 1))}"
        case 3: return "{Pair=\(typeText(level + 1))}"
        case 4: return pick(["(?=ic)", "(?=sc)"])
        default: return pick(simple)
        }
    }

    mutating func group() -> ArchivedGroup {
        if header.streamerVersion == 3, chance(15) {
            return ArchivedGroup(typeString: nil, types: [.object(className: nil)], values: [objectValue()])
        }
        var text = ""
        for _ in 0..<(1 + int(3)) { text += typeText(0) }
        guard let types = try? ObjCType.parseGroup(text) else { return group() }
        var values: [ArchivedValue] = []
        for type in types { values.append(value(type)) }
        return ArchivedGroup(typeString: ArraySlice(text.utf8), types: types, values: values, typeStringDecision: sharedDecision(Array(text.utf8)))
    }

    // MARK: - Values

    mutating func integer() -> Int64 {
        switch int(6) {
        case 0: return Int64(int(238)) - 110
        case 1: return Int64(Int16.min) + Int64(int(65536))
        case 2: return Int64(Int32(truncatingIfNeeded: rng.next()))
        case 3: return Int64(bitPattern: rng.next())
        case 4: return Int64(UInt32.max) - Int64(int(3))
        default: return pick([0, -1, 127, 128, -110, -111, 32767, -32767, -32768, Int64.min, Int64.max])
        }
    }

    mutating func float() -> Float {
        switch int(4) {
        case 0: return pick([0, -0.0, .infinity, -.infinity, .nan, Float(bitPattern: 0x7FC0_1234), Float(bitPattern: 0xFF80_0001), .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e30])
        case 1: return Float(integer() % 100_000)
        default: return Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        }
    }

    mutating func double() -> Double {
        switch int(4) {
        case 0: return pick([0, -0.0, .infinity, -.infinity, .nan, Double(bitPattern: 0x7FF8_0000_0000_BEEF), 21_692_800, -941_389_200, 1e300, 0.1])
        case 1: return Double(integer() % 10_000_000)
        default: return Double(bitPattern: rng.next())
        }
    }

    mutating func realForm() -> RealForm? {
        switch int(4) {
        case 0: return .ieee
        case 1: return .integral(pick(IntegerWidth.allCases))
        default: return nil
        }
    }

    mutating func value(_ type: ObjCType) -> ArchivedValue {
        switch type.unqualified {
        case .char, .unsignedChar, .bool:
            return .byte(UInt8(truncatingIfNeeded: rng.next()))
        case .short, .unsignedShort:
            let v = Int64(Int16(truncatingIfNeeded: rng.next() % 3 == 0 ? UInt64(int(256)) : rng.next()))
            return .integer(v, width: width(for: v, [.inline, .int16]))
        case .int, .unsignedInt, .long, .unsignedLong, .longLong, .unsignedLongLong:
            let v = integer()
            return .integer(v, width: width(for: v, IntegerWidth.allCases))
        case .float:
            return .float(float(), form: realForm())
        case .double:
            return .double(double(), form: realForm())
        case .bytes:
            guard chance(85) else { return .unsharedString(nil, lengthWidth: nil) }
            let text = pick(Self.texts)
            return .unsharedString(ArraySlice(text), lengthWidth: width(for: Int64(text.count), [.inline, .int16, .int32]))
        case .atom, .selector:
            guard chance(85) else { return .sharedString(nil, decision: nil) }
            let text = pick(Self.texts)
            return .sharedString(ArraySlice(text), decision: sharedDecision(text))
        case .cString:
            if chance(10) { return .cString(nil, referenceWidth: nil) }
            if !cStrings.isEmpty, chance(40) { return .cString(pick(cStrings), referenceWidth: referenceWidth()) }
            let text = pick(Self.texts)
            let entry = ArchivedCString(text: text)
            entry.textDecision = sharedDecision(text)
            cStrings.append(entry)
            return .cString(entry, referenceWidth: nil)
        case .object:
            return objectValue()
        case .classObject:
            if chance(15) { return .classObject(nil, referenceWidth: nil) }
            return .classObject(classLink(), referenceWidth: referenceWidth())
        case .ignored:
            return .ignored
        case .array(let count, let element):
            if element.unqualified == .char || element.unqualified == .unsignedChar {
                return .bytes(ArraySlice((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
            }
            return .array((0..<count).map { _ in value(element) })
        case .structure(_, let fields):
            return .structure(fields.map { value($0.type) })
        case .union(let name, let fields):
            let size = ObjCType.union(name: name, fields: fields).layout(.ilp32)?.size ?? 0
            return .bytes(ArraySlice((0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        default:
            return .ignored  // not generated
        }
    }

    mutating func objectValue() -> ArchivedValue {
        if chance(10) { return .object(nil, referenceWidth: nil) }
        if !classes.isEmpty, chance(5) { return .objectSlotClass(pick(classes), referenceWidth: referenceWidth()) }
        if !objects.isEmpty, chance(35) || depth >= 4 || objects.count > 80 {
            return .object(pick(objects), referenceWidth: referenceWidth())
        }
        if depth >= 4 || objects.count > 80 { return .object(nil, referenceWidth: nil) }
        let object = ArchivedObject(archivedClass: ArchivedClass(name: [], version: 0))
        objects.append(object)  // from here on it may refer to itself
        object.archivedClass = classLink()
        object.classReferenceWidth = referenceWidth()
        if header.streamerVersion == 3, chance(50) {
            let size = integer() % 5000
            object.instanceSize = WireInteger(size, width: width(for: size, [.inline, .int16, .int32]) ?? .archiverChoice(for: size))
        }
        depth += 1
        for _ in 0..<int(4) { object.groups.append(group()) }
        depth -= 1
        return .object(object, referenceWidth: nil)
    }

    /// An existing class or a new chain (whose superclass may be existing, new or nil).
    mutating func classLink(level: Int = 0) -> ArchivedClass {
        if !classes.isEmpty, chance(50) { return pick(classes) }
        let version = chance(70) ? Int64(int(10)) : Int64(int(100_000))
        let name = Array(pick(Self.classNames).utf8)
        let entry = ArchivedClass(name: name, version: version)
        entry.nameDecision = sharedDecision(name)
        entry.versionWidth = width(for: version, [.inline, .int16, .int32])
        // The superclass is chosen before this class becomes pickable, so chains never loop
        // (the archive graph refuses loops: classChainLoop).
        if level < 4, chance(70) {
            entry.superclass = classLink(level: level + 1)
            entry.superclassReferenceWidth = referenceWidth()
        }
        classes.append(entry)
        return entry
    }
}
