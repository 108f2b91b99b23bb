import ModelDocument
import TypedStream
import TypedStreamFoundation

/// Makes the elements of one kind's root array, one at a time, from a seeded generator.
protocol ItemFactory {
    /// The next element.
    mutating func make(_ random: inout SeededRandom) throws -> AnyObject
}

/// Short `NSString`s (about 5–40 bytes), a tenth of them `NSMutableString`.
struct StringFactory: ItemFactory {
    private var serial = 0

    mutating func make(_ random: inout SeededRandom) throws -> AnyObject {
        serial += 1
        let text: String
        switch random.int(in: 0...99) {
        case 0..<50: text = Vocabulary.sentence(words: random.int(in: 1...4), &random)
        case 50..<70: text = "\(random.pick(Vocabulary.names)) \(random.int(in: 1...9999))"
        case 70..<85: text = random.pick(Vocabulary.words)
        default: text = "item-\(serial)"
        }
        return StringObject(text, mutable: random.chance(10))
    }
}

/// `NSDictionary`s of 3–10 entries string → `NSNumber`. The keys come from one pool of
/// `NSString` instances, so each key is written once and referenced after that.
struct DictionaryFactory: ItemFactory {
    static let keyNames = [
        "width", "height", "count", "score", "index", "version", "timestamp", "duration",
        "rating", "retries", "latitude", "longitude", "enabled", "visible", "priority", "level",
        "offset", "length", "flags", "uid", "gid", "mode", "size", "port",
    ]
    private let keys = DictionaryFactory.keyNames.map { StringObject($0) }

    mutating func make(_ random: inout SeededRandom) throws -> AnyObject {
        let count = random.int(in: 3...10)
        var used: UInt32 = 0
        var pairs: [(AnyObject, AnyObject)] = []
        while pairs.count < count {
            let index = random.int(in: 0...(keys.count - 1))
            if used & (1 << UInt32(index)) != 0 { continue }
            used |= 1 << UInt32(index)
            pairs.append((keys[index], try Self.number(&random)))
        }
        return DictionaryObject(pairs, mutable: random.chance(20))
    }

    /// Small and 32-bit integers (`q`, `i`), doubles, booleans. Nothing needs the int64 tag
    /// `0x87`, which pytypedstream cannot read.
    static func number(_ random: inout SeededRandom) throws -> NumberObject {
        switch random.int(in: 0...99) {
        case 0..<40: return NumberObject(int: Int64(random.int(in: 0...100)))
        case 40..<55: return NumberObject(int: Int64(random.int(in: -2_000_000_000...2_000_000_000)))
        case 55..<65: return try NumberObject(.int(Int64(random.int(in: 1000...100_000))), objCType: "i")
        case 65..<85: return NumberObject(double: Double(random.int(in: 0...1_000_000)) / 1024 + 0.1)
        default: return NumberObject(bool: random.chance(50))
        }
    }
}

/// Large `NSData` blobs of 16–256 KiB of random bytes, a fifth of them `NSMutableData`.
struct DataFactory: ItemFactory {
    mutating func make(_ random: inout SeededRandom) throws -> AnyObject {
        let length = random.int(in: 16 * 1024...256 * 1024)
        let mutable = random.chance(20)
        return DataObject(random.bytes(length), mutable: mutable)
    }
}

/// ModelDocument's `Model` records in the current document layout (`@` name, `@` type,
/// `{?=ffff}` rect, `I` flag, `i` kind, `i` para): a fresh name string each, the type from a few
/// shared string instances (an Objective-C constant such as `@"photo"` is written once, then
/// referenced).
struct ModelFactory: ItemFactory {
    private let types = ["photo", "video", "sketch", "note", "scan", "document"].map { StringObject($0) }
    private var serial = 0

    mutating func make(_ random: inout SeededRandom) throws -> AnyObject {
        serial += 1
        let model = Model()
        model.nameObject = StringObject("\(random.pick(Vocabulary.names)) \(serial)")
        model.typeObject = random.pick(types)
        model.rect = ModelRect(x: Self.coordinate(&random), y: Self.coordinate(&random),
                               width: Self.extent(&random), height: Self.extent(&random))
        model.flag = random.pick([0, 1, 2, 3, 0x8000_0001])
        model.kind = Int32(random.int(in: 0...12))
        model.para = Int32(random.int(in: -1...400))
        return model
    }

    /// Integral most of the time (written as an integer), sometimes a fraction (written as `0x83`).
    private static func coordinate(_ random: inout SeededRandom) -> Float {
        random.chance(75) ? Float(random.int(in: 0...2000)) : Float(random.int(in: 0...16000)) / 8
    }

    private static func extent(_ random: inout SeededRandom) -> Float {
        random.chance(60) ? Float(random.pick([320, 480, 640, 768, 1024, 1280, 2048])) : Float(random.int(in: 8...16000)) / 4
    }
}
