import TypedStream

/// What one class writes in its part of an object, as a list of groups with a name for each
/// value: the knowledge behind ``LaidOutObject``. A layout is a fact about the archives a class
/// wrote (learnt from real files, headers of the era and public descriptions), not code that
/// reads them: one matcher (``ClassLayouts/match(chain:groups:)``) reads every catalogued class.
///
/// An object's groups are its classes' parts in order, root class first (the `[super
/// encodeWithCoder:]` rule), so a layout describes only what its own class adds:
///
/// ```swift
/// ClassLayout("NSMenuItem", 671, [
///     .one("@", "menu/NSMenu"),
///     .one("i@@IIi@@@@:i@", "isDisabled", "title/NSTitle", …),
///     .one("@", "target/NSTarget"),
///     .optional("@", "submenu/NSSubmenu"),
/// ])
/// ```
///
/// A field is written `name` or `name/AppleKey`: the name a user reads in the tree and in
/// plain JSON, then the key Apple's keyed archiver uses for the same value, when it has one
/// (the keyed export uses it; see docs/keyed-mapping.md).
public struct ClassLayout: Sendable {
    /// The archived class name.
    public let className: String
    /// The class versions this layout describes.
    public let versions: ClosedRange<Int64>
    /// The groups the class writes, in order.
    public let steps: [Step]

    /// Creates a layout for the versions `versions` of `className`.
    public init(_ className: String, versions: ClosedRange<Int64>, _ steps: [Step]) {
        self.className = className
        self.versions = versions
        self.steps = steps
    }

    /// Creates a layout for one version of `className`.
    public init(_ className: String, _ version: Int64, _ steps: [Step]) {
        self.init(className, versions: version...version, steps)
    }

    /// One named value of a group.
    public struct Field: Sendable, Hashable {
        /// The name shown to users (`"title"`).
        public let name: String
        /// The key Apple's keyed archiver writes for this value (`"NSTitle"`), if it has one.
        public let keyedName: String?

        /// Parses `"name"` or `"name/AppleKey"`.
        public init(_ spec: String) {
            if let slash = spec.firstIndex(of: "/") {
                name = String(spec[..<slash])
                keyedName = String(spec[spec.index(after: slash)...])
            } else {
                name = spec
                keyedName = nil
            }
        }
    }

    /// How many times a step's group occurs.
    public enum Repetition: Sendable, Hashable {
        /// Exactly once.
        case once
        /// Once if the next group has the step's type string, else not at all.
        case optional
        /// As many times as the integer field of that name, read earlier in the object, says.
        case counted(by: String)
        /// As many times as the next groups have the step's type string (zero or more).
        case any
    }

    /// One group (or a run of groups) of the layout.
    public struct Step: Sendable {
        /// The group's type string (`"i@@"`); `*` as an array's count (`"[*c]"`, bytes whose
        /// number each object writes in its type string) matches any count.
        public let typeString: String
        /// One field per value of the type string.
        public let fields: [Field]
        /// How many times the group occurs.
        public let repetition: Repetition

        /// Creates a step; `fields` are `"name"` or `"name/AppleKey"`, one per value.
        public init(_ typeString: String, _ fields: [String], _ repetition: Repetition) {
            self.typeString = typeString
            self.fields = fields.map(Field.init)
            self.repetition = repetition
        }

        /// A group that is always there.
        public static func one(_ typeString: String, _ fields: String...) -> Step {
            Step(typeString, fields, .once)
        }

        /// A group that is there only when the next group has this type string.
        public static func optional(_ typeString: String, _ fields: String...) -> Step {
            Step(typeString, fields, .optional)
        }

        /// A group repeated as many times as the integer field `countField` says.
        public static func counted(_ typeString: String, by countField: String, _ fields: String...) -> Step {
            Step(typeString, fields, .counted(by: countField))
        }

        /// A group repeated as long as the next groups have this type string.
        public static func any(_ typeString: String, _ fields: String...) -> Step {
            Step(typeString, fields, .any)
        }
    }
}

/// Which class part and fields a matched layout gives each group of an object.
public struct LayoutMatch: Sendable {
    /// One entry per group of the object, in order.
    public let groups: [GroupFields]

    /// The fields of one group.
    public struct GroupFields: Sendable {
        /// The class whose part wrote the group.
        public let className: String
        /// One field per value of the group.
        public let fields: [ClassLayout.Field]
        /// The group's place in its run (0 for a group that occurs once; 0, 1, 2 … for a
        /// counted or repeated step).
        public let repeatIndex: Int
        /// Whether the group comes from a counted or repeated step (its values form a list).
        public let isRepeated: Bool
    }
}

extension LayoutMatch {
    /// One field of a matched object as outputs write it: under one key, the value of one
    /// group, or for a repeated step the values of all its groups as a list.
    public struct Entry: Sendable {
        /// The key: the field's name (or its Apple keyed name), as `Class.key` when an earlier
        /// field of the object has the same key.
        public let key: String
        /// The fields written under the key: one, or (keyed) the consecutive fields of a group
        /// that share one Apple key, such as a frame's four reals under `NSFrame`.
        public let fields: [ClassLayout.Field]
        /// The groups holding its values: one, or a repeated step's run.
        public let groups: Range<Int>
        /// The values' places in each of those groups.
        public let valueIndices: Range<Int>
        /// Whether the field is a list (its step repeats), even of one or no element.
        public let isList: Bool
    }

    /// The object's fields in order, keyed by name, or by Apple's keyed name where the layout
    /// gives one when `keyed` is true.
    public func entries(keyed: Bool) -> [Entry] {
        var out: [Entry] = []
        var keys = FieldKeys()
        var group = 0
        while group < groups.count {
            let fields = groups[group]
            var end = group + 1
            if fields.isRepeated {
                while end < groups.count, groups[end].isRepeated, groups[end].repeatIndex > 0 { end += 1 }
            }
            for slot in keys.take(fields.fields, of: fields.className, keyed: keyed) {
                out.append(Entry(key: slot.key, fields: Array(fields.fields[slot.fields]), groups: group..<end,
                                 valueIndices: slot.fields, isList: fields.isRepeated))
            }
            group = end
        }
        return out
    }
}

/// The keys given to an object's fields so far: a key met again becomes `Class.key` (then
/// `Class.key.2` …). The outputs and the keyed import give keys in the same order, so they agree.
public struct FieldKeys: Sendable {
    private var used: Set<String> = []

    /// No keys yet.
    public init() {}

    /// The keys for the fields of one group of class `className`'s part, with the fields each
    /// covers: one key per field, except that when `keyed`, consecutive fields with the same
    /// Apple key share it.
    public mutating func take(_ fields: [ClassLayout.Field], of className: String, keyed: Bool) -> [(key: String, fields: Range<Int>)] {
        var slots: [(key: String, fields: Range<Int>)] = []
        var index = 0
        while index < fields.count {
            var end = index + 1
            if keyed, let shared = fields[index].keyedName {
                while end < fields.count, fields[end].keyedName == shared { end += 1 }
            }
            let base = keyed ? fields[index].keyedName ?? fields[index].name : fields[index].name
            slots.append((unique(base, className), index..<end))
            index = end
        }
        return slots
    }

    private mutating func unique(_ base: String, _ className: String) -> String {
        if used.insert(base).inserted { return base }
        var key = "\(className).\(base)"
        var n = 2
        while !used.insert(key).inserted {
            key = "\(className).\(base).\(n)"
            n += 1
        }
        return key
    }
}
