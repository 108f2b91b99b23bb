import TypedStream

/// `md_rt`: a `CGRect` of four 32-bit floats, archived as one `"{?=ffff}"` group (origin x, origin
/// y, width, height — the 32-bit `CGRect` of the devices that wrote these documents).
public struct ModelRect: ObjCValueConvertible, Hashable, Sendable, CustomStringConvertible {
    /// Origin x.
    public var x: Float
    /// Origin y.
    public var y: Float
    /// Width.
    public var width: Float
    /// Height.
    public var height: Float

    /// `{?=ffff}`: an anonymous struct of four floats.
    public static let objCType = "{?=ffff}"

    /// The empty rect at the origin.
    public static let zero = ModelRect(x: 0, y: 0, width: 0, height: 0)

    /// Creates a rect.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The names of the four values, in order (for messages).
    public static let fieldNames = ["x", "y", "width", "height"]

    /// The four comma-separated parts of the form `x,y,w,h` with spaces removed, or `nil` when
    /// there are not exactly four (for parsers stricter than ``init(argument:)``, which name the
    /// offending part).
    public static func argumentParts(_ argument: String) -> [String]? {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        return parts.count == 4 ? parts : nil
    }

    /// Parses the form `x,y,w,h` (four floats, spaces allowed) as ``argument`` spells it, so
    /// `nan` and `inf` read back; `nil` if malformed. (`typedstream model add --rect` takes
    /// finite values only.)
    public init?(argument: String) {
        guard let parts = Self.argumentParts(argument) else { return nil }
        var values: [Float] = []
        for part in parts {
            guard let value = Float(part) else { return nil }
            values.append(value)
        }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// Reads a `{?=ffff}` struct. Throws ``CoderError`` `typeMismatch` on another shape.
    public init(archivedValue: ArchivedValue) throws(CoderError) {
        let m = try archivedValue.members(4)
        // Four floats (every rect of a document) are taken as they are; anything else goes
        // member by member, which names the first member that is not a float.
        if case .float(let x, _) = m[0], case .float(let y, _) = m[1], case .float(let width, _) = m[2], case .float(let height, _) = m[3] {
            self.init(x: x, y: y, width: width, height: height)
            return
        }
        self.init(x: try Float(archivedValue: m[0]), y: try Float(archivedValue: m[1]),
                  width: try Float(archivedValue: m[2]), height: try Float(archivedValue: m[3]))
    }

    /// The four floats as a struct value (integral floats are written as integers, as NSArchiver does).
    public var archivedValue: ArchivedValue {
        .structure([x.archivedValue, y.archivedValue, width.archivedValue, height.archivedValue])
    }

    /// The command-line form `x,y,w,h` (shortest round-trip spelling of each float).
    public var argument: String { [x, y, width, height].map(Self.spell).joined(separator: ",") }

    /// "0,0,320,240" style: integral values without ".0", others in their shortest spelling that
    /// reads back to the same float (so `-0.0`, `nan` and `inf` survive).
    static func spell(_ value: Float) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e7, !(value == 0 && value.sign == .minus) {
            return String(Int(value))
        }
        return value.description
    }

    /// The `x,y,w,h` form.
    public var description: String { argument }
}
