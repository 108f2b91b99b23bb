/// Fixed word lists the generators draw text from. Mostly ASCII, with some accented letters,
/// emoji and right-to-left text so UTF-8 and UTF-16 lengths differ, as in real message bodies.
enum Vocabulary {
    /// Common words.
    static let words: [String] = [
        "the", "a", "and", "to", "of", "in", "is", "it", "you", "that", "was", "for", "on", "are",
        "with", "as", "at", "be", "this", "have", "from", "or", "one", "had", "by", "but", "not",
        "what", "all", "were", "we", "when", "your", "can", "said", "there", "use", "each", "which",
        "she", "do", "how", "their", "if", "will", "up", "other", "about", "out", "many", "then",
        "them", "these", "so", "some", "her", "would", "make", "like", "him", "into", "time", "has",
        "look", "two", "more", "write", "go", "see", "number", "no", "way", "could", "people", "my",
        "than", "first", "water", "been", "call", "who", "oil", "its", "now", "find", "long", "down",
        "day", "did", "get", "come", "made", "may", "part", "sunrise", "harbour", "meeting",
        "tomorrow", "dinner", "photo", "tonight", "weekend", "thanks", "sounds", "good", "great",
        "okay", "sure", "later", "running", "late", "traffic", "coffee", "lunch", "station",
        "café", "naïve", "über", "façade", "smörgåsbord", "jalapeño", "😀", "👍🏽", "🎉", "❤️",
        "مرحبا", "שלום", "こんにちは", "привет",
    ]

    /// Names for records and mentions.
    static let names: [String] = [
        "Sunrise", "Harbour", "Meadow", "Granite", "Willow", "Aurora", "Cobalt", "Juniper",
        "Lantern", "Marble", "Nimbus", "Orchard", "Pebble", "Quartz", "Raven", "Saffron",
        "Tundra", "Umber", "Vesper", "Zephyr", "Élodie", "Jürgen", "Ana María", "Dad", "Mom",
    ]

    /// `count` words separated by spaces.
    static func sentence(words count: Int, _ random: inout SeededRandom) -> String {
        var text = ""
        for index in 0..<count {
            if index > 0 { text += " " }
            text += random.pick(words)
        }
        return text
    }

    /// A deterministic GUID-looking string (`2E5F12C3-E649-48AA-954D-3EA67C016BCC`).
    static func guid(_ random: inout SeededRandom) -> String {
        let hex = Array("0123456789ABCDEF")
        var text = ""
        for (index, groupLength) in [8, 4, 4, 4, 12].enumerated() {
            if index > 0 { text += "-" }
            for _ in 0..<groupLength { text.append(hex[random.int(in: 0...15)]) }
        }
        return text
    }
}
