import TypedStream
import TypedStreamFoundation

/// `NSAttributedString`s shaped like iMessage `attributedBody` values: 1–4 attribute runs whose
/// dictionaries use the `__kIM…AttributeName` keys. As in real bodies, every dictionary has its
/// own key string instances (so keys are written again per dictionary), a run that repeats an
/// earlier dictionary instance repeats only its number, the message part is an `i` NSNumber and
/// the writing direction a `q` −1 shared within the message.
struct MessageFactory: ItemFactory {
    static let partKey = "__kIMMessagePartAttributeName"
    static let directionKey = "__kIMBaseWritingDirectionAttributeName"

    mutating func make(_ random: inout SeededRandom) throws -> AnyObject {
        let mutable = random.chance(70)
        let direction = try NumberObject(.int(-1), objCType: "q")
        func part(_ number: Int) throws -> NumberObject { try NumberObject(.int(Int64(number)), objCType: "i") }
        func plain() throws -> DictionaryObject { DictionaryObject(stringKeys: [(Self.partKey, try part(0))]) }
        func sentence(_ range: ClosedRange<Int>) -> String { Vocabulary.sentence(words: random.int(in: range), &random) }

        var segments: [(text: String, attributes: DictionaryObject)] = []
        switch random.int(in: 0...99) {
        case 0..<55:
            segments = [(sentence(1...20), try plain())]
        case 55..<70:
            let normal = try plain()
            let bold = DictionaryObject(stringKeys: [("__kIMTextBoldAttributeName", NumberObject(int: 1)), (Self.partKey, try part(0))])
            for index in 0..<random.int(in: 2...4) {
                segments.append((sentence(1...5) + " ", index % 2 == 0 ? normal : bold))
            }
        case 70..<80:
            let normal = try plain()
            let handle = "+1555\(random.int(in: 1_000_000...9_999_999))"
            let mention = DictionaryObject(stringKeys: [(Self.partKey, try part(0)), ("__kIMMentionConfirmedMention", StringObject(handle))])
            segments = [(sentence(1...6) + " ", normal), (random.pick(Vocabulary.names), mention)]
            if random.chance(50) { segments.append((" " + sentence(1...8), normal)) }
        case 80..<90:
            let path = "\(random.pick(Vocabulary.names).lowercased().filter(\.isLetter))/\(random.int(in: 1...99999))"
            let address = "https://example.com/\(path)"
            let link = DictionaryObject(stringKeys: [(Self.partKey, try part(0)), ("__kIMLinkAttributeName", URLObject(string: address))])
            segments = [(sentence(1...6) + " ", try plain()), (address, link)]
        default:
            let attachment = DictionaryObject(stringKeys: [
                ("__kIMFileTransferGUIDAttributeName", StringObject("at_0_" + Vocabulary.guid(&random))),
                ("__kIMInlineMediaHeightAttributeName", NumberObject(double: Double(random.int(in: 200...4000)))),
                (Self.directionKey, direction),
                (Self.partKey, try part(0)),
                ("__kIMFilenameAttributeName", StringObject("IMG_\(random.int(in: 1000...9999)).HEIC")),
                ("__kIMInlineMediaWidthAttributeName", NumberObject(double: Double(random.int(in: 200...4000)))),
            ])
            segments = [("\u{FFFC}", attachment)]
            if random.chance(60) {
                segments.append((sentence(1...10), DictionaryObject(stringKeys: [(Self.directionKey, direction), (Self.partKey, try part(1))])))
            }
        }
        let text = segments.map(\.text).joined()
        let runs = segments.map { AttributedStringObject.Run(length: $0.text.utf16.count, attributes: $0.attributes) }
        return AttributedStringObject(text, runs: runs, mutable: mutable)
    }
}
