/// The members of one object of the lossless JSON, each at the position of its name in the
/// object's list of allowed names (``ArchiveJSONDecoder/Members``; at most five), `nil` where
/// absent. Kept in place rather than in an array, so reading one of the many small objects of
/// a document (a group, a reference, a class link) allocates nothing for its members.
struct MemberFields {
    /// The most members an object of the lossless JSON may have.
    static let capacity = 5

    private var first: JSONValue? = nil
    private var second: JSONValue? = nil
    private var third: JSONValue? = nil
    private var fourth: JSONValue? = nil
    private var fifth: JSONValue? = nil

    /// No member yet.
    init() {}

    /// The member at `index` (below ``capacity``).
    subscript(index: Int) -> JSONValue? {
        get {
            switch index {
            case 0: first
            case 1: second
            case 2: third
            case 3: fourth
            default: fifth
            }
        }
        set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            case 2: third = newValue
            case 3: fourth = newValue
            default:
                precondition(index == 4, "an object of the lossless JSON has at most \(Self.capacity) members")
                fifth = newValue
            }
        }
    }
}
