import TypedStream

/// A path into a JSON document, kept as a stack while walking it and rendered only for
/// errors: `groups[0].values[0].groups[3]`.
struct JSONPath {
    enum Component {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    mutating func push(_ key: String) { components.append(.key(key)) }
    mutating func push(_ index: Int) { components.append(.index(index)) }
    mutating func pop() { components.removeLast() }

    /// The path as text; member names that are not plain identifiers are quoted.
    var text: String {
        var result = ""
        for component in components {
            switch component {
            case .index(let i):
                result += "[\(i)]"
            case .key(let k):
                guard k.utf8.count <= TextExcerpt.defaultLimit else {
                    // A hostile member name can be megabytes long: an excerpt names it.
                    result += "[" + TextExcerpt.quoted(k) + "]"
                    continue
                }
                let plain = !k.isEmpty && k.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F || $0 == 0x24 }
                if plain {
                    result += result.isEmpty ? k : "." + k
                } else {
                    var escaped = JSONTextWriter(pretty: false)
                    escaped.string(k)
                    result += "[" + String(decoding: escaped.bytes, as: UTF8.self) + "]"
                }
            }
        }
        return result
    }
}
