import Foundation
import ObjCTypeEncoding
import Testing
import TypedStream
@testable import TypedStreamExport
import TestSupport

/// The streaming plain JSON writes what the converter from before streaming wrote (kept below
/// as an oracle), on seeded random archives. The seed is printed; set RANDOM_SEED to replay.
@Suite struct PlainJSONRandomTests {
    static func reference(_ archive: Archive) -> [UInt8] {
        var converter = ReferencePlainJSONConverter(maximumNesting: ArchiveJSON.defaultMaximumNesting)
        var values: [JSONValue] = []
        for group in archive.groups { values.append(contentsOf: converter.values(of: group)) }
        var text = JSONValue.object([
            JSONMember("systemVersion", .integer(archive.header.systemVersion.value)),
            JSONMember("values", .array(values)),
        ]).text(pretty: true)
        text.append(0x0A)
        return text
    }

    @Test func streamingMatchesTheConverterFromBefore() throws {
        let seed = ProcessInfo.processInfo.environment["RANDOM_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("streamingMatchesTheConverterFromBefore seed: \(seed) (replay with RANDOM_SEED=\(seed))")
        var seeds = SplitMix64(seed: seed)
        var compared = 0
        for iteration in 0..<300 {
            let archiveSeed = seeds.next()
            var builder = RandomArchive(seed: archiveSeed)
            guard let bytes = try? ArchiveWriter.write(builder.archive(), policy: .recorded),
                  let graph = try? ArchiveReader.read(bytes) else { continue }
            #expect(try PlainJSON.encode(bytes) == Self.reference(graph), "iteration \(iteration), archive seed \(archiveSeed) (run seed \(seed))")
            compared += 1
        }
        #expect(compared > 200)
    }
}

/// The plain-JSON converter from before streaming (graph in, JSONValue out), kept as the
/// oracle the streaming one is compared with. Generic form only (no hooks).
struct ReferencePlainJSONConverter {
    
    private let maximumNesting: Int
    private var ids: [ObjectIdentifier: Int] = [:]
    private var substituted: [ObjectIdentifier: JSONValue] = [:]
    private var inProgress: Set<ObjectIdentifier> = []
    private var referencedInProgress: Set<ObjectIdentifier> = []
    private var depth = 0
    /// Whether some value was cut off at the nesting limit.
    private(set) var tooDeep = false

    init(maximumNesting: Int) {
        self.maximumNesting = maximumNesting
    }

    private mutating func nest() -> Bool {
        depth += 1
        if depth > maximumNesting {
            depth -= 1
            tooDeep = true
            return false
        }
        return true
    }

    private static let tooDeepValue = JSONValue.object([JSONMember("$error", .string("nesting too deep"))])

    /// Bytes as a string when they are UTF-8, else `{"$data": base64}`.
    static func text(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        if ByteText.isValidUTF8(bytes) { return .string(String(decoding: bytes, as: UTF8.self)) }
        return data(bytes)
    }

    /// `{"$data": base64}`.
    static func data(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        .object([JSONMember("$data", .string(ByteText.base64(bytes)))])
    }

    /// The values of one group, converted in order.
    mutating func values(of group: ArchivedGroup) -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(group.values.count)
        for (i, value) in group.values.enumerated() {
            result.append(self.value(value, type: i < group.types.count ? group.types[i] : nil))
        }
        return result
    }

    /// The values of all of an object's groups, flattened in order (its generic contents).
    mutating func contents(of object: ArchivedObject) -> [JSONValue] {
        var result: [JSONValue] = []
        for group in object.groups { result.append(contentsOf: values(of: group)) }
        return result
    }

    /// One value; `type` (when known) decides how integers and `B` bytes read.
    mutating func value(_ value: ArchivedValue, type: ObjCType?) -> JSONValue {
        let type = type?.unqualified
        switch value {
        case .integer(let v, _):
            if let type, let bits = type.unsignedBits {
                if bits == 64 { return .integer(UInt64(bitPattern: v)) }
                let half = Int64(1) << (bits - 1)
                if v < 0, v >= -half { return .integer(v + 2 * half) }
            }
            return .integer(v)
        case .float(let x, _):
            return x.isFinite ? .number(x.description) : .double(Double(x))
        case .double(let x, _):
            return .double(x)
        case .byte(let b):
            if type == .bool, b <= 1 { return .bool(b == 1) }
            return type == .char ? .integer(Int8(bitPattern: b)) : .integer(b)
        case .bytes(let payload):
            return Self.data(payload)
        case .unsharedString(let payload, _), .sharedString(let payload, _):
            return payload.map(Self.text) ?? .null
        case .cString(let entry, _):
            return entry.map { Self.text($0.text) } ?? .null
        case .object(let object, _):
            return object.map { self.object($0) } ?? .null
        case .objectSlotClass(let entry, _):
            return Self.classObject(entry)
        case .classObject(let entry, _):
            return entry.map(Self.classObject) ?? .null
        case .array(let values), .structure(let values):
            guard nest() else { return Self.tooDeepValue }
            defer { depth -= 1 }
            var elementTypes: [ObjCType?] = Array(repeating: nil, count: values.count)
            switch type {
            case .array(_, let element)?: elementTypes = Array(repeating: element, count: values.count)
            case .structure(_, let fields)? where fields.count == values.count: elementTypes = fields.map(\.type)
            default: break
            }
            return .array(zip(values, elementTypes).map { self.value($0, type: $1) })
        case .ignored:
            return .null
        }
    }

    private static func classObject(_ entry: ArchivedClass) -> JSONValue {
        .object([JSONMember("$classObject", text(entry.name))])
    }

    /// An object: its natural value (from the hook), its generic form at its first occurrence,
    /// or `{"$ref": n}` afterwards.
    mutating func object(_ object: ArchivedObject) -> JSONValue {
        let key = ObjectIdentifier(object)
        if let cached = substituted[key] { return cached }
        if let id = ids[key] { return .object([JSONMember("$ref", .integer(id))]) }
        // Objects are numbered by their object-table slot, as `decode` numbers them.
        let id = object.sourceIndex ?? -1
        if inProgress.contains(key) {
            referencedInProgress.insert(key)
            ids[key] = id
            return .object([JSONMember("$ref", .integer(id))])
        }
        guard nest() else { return Self.tooDeepValue }
        defer { depth -= 1 }
        ids[key] = id
        return .object([
            JSONMember("$class", Self.text(object.archivedClass.name)),
            JSONMember("$id", .integer(id)),
            JSONMember("contents", .array(contents(of: object))),
        ])
    }
}
