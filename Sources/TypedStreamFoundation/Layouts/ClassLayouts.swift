import TypedStream

/// The catalogue of ``ClassLayout``s and the one matcher that reads every catalogued class.
///
/// ```swift
/// let chain = [ArchiveClassLink("NSCustomObject", version: 41), .nsObject]
/// if let match = ClassLayouts.match(chain: chain, groups: object.groups) {
///     match.groups[0].fields.map(\.name)   // ["className", "extension"]
/// }
/// ```
///
/// Matching walks the class chain from the root class to the object's own class; each class
/// takes its groups with the first of its layouts (for its version) whose steps fit the next
/// groups, and every group must be taken. A class without a layout for its version, a group
/// with another type string, or groups left over give no match: the object then stays generic.
public enum ClassLayouts {
    /// Every layout, family by family.
    public static let all: [ClassLayout] = roots + appKitMenus + appKitViews + appKitCells + nextStep + draw + applications

    /// The root classes, which archive nothing of their own.
    static let roots = [ClassLayout("NSObject", 0, []), ClassLayout("Object", 0, [])]
    private static let rootNames = Set(roots.map(\.className))

    private static let byName: [String: [ClassLayout]] = Dictionary(grouping: all, by: \.className)

    /// The catalogued class names other than the root classes, sorted.
    public static var classNames: [String] {
        byName.keys.filter { !rootNames.contains($0) }.sorted()
    }

    /// Whether the catalogue describes `className` (the root classes, which write nothing of
    /// their own, are not counted): the test the outputs make before looking for names.
    public static func describes(_ className: String) -> Bool {
        byName[className] != nil && !rootNames.contains(className)
    }

    /// The layouts of `className`, in catalogue order.
    public static func layouts(forClassName className: String) -> [ClassLayout] {
        byName[className] ?? []
    }

    /// The fields of the groups `groups` of an object of class chain `chain` (most derived
    /// first), or `nil` when the catalogue does not describe them.
    public static func match(chain: [ArchiveClassLink], groups: [ArchivedGroup]) -> LayoutMatch? {
        match(chain: chain, groupCount: groups.count,
              typeString: { groups[$0].typeString },
              integer: { group, value in
                  guard value < groups[group].valueCount else { return nil }
                  switch groups[group].value(at: value) {
                  case .integer(let v, _): return v
                  case .byte(let b): return Int64(b)
                  default: return nil
                  }
              })
    }

    /// The fields of an object's groups, seen through `typeString` (the type string of group
    /// *i*, `nil` for a streamer-3 group written without one, which counts as `"@"`) and
    /// `integer` (the integer value *j* of group *i*, for counted steps); `nil` when the
    /// layouts `layouts` gives for each class name (the catalogue's by default) do not describe
    /// them.
    public static func match(chain: [ArchiveClassLink], groupCount: Int,
                             typeString: (Int) -> ArraySlice<UInt8>?,
                             integer: (Int, Int) -> Int64?,
                             layouts: (String) -> [ClassLayout] = ClassLayouts.layouts(forClassName:)) -> LayoutMatch? {
        withoutActuallyEscaping(typeString) { typeString in
            withoutActuallyEscaping(integer) { integer in
                withoutActuallyEscaping(layouts) { layouts in
                    var cursor = Cursor(groupCount: groupCount, typeString: typeString, integer: integer, layouts: layouts)
                    return cursor.match(chain)
                }
            }
        }
    }

    /// Whether the type string `bytes` is the step type string `pattern`: the same bytes, except
    /// that `*` as an array's count (`"[*c]"`) stands for any count of one or more digits.
    public static func typeString(_ bytes: ArraySlice<UInt8>, matches pattern: String) -> Bool {
        var at = bytes.startIndex
        var previous: UInt8 = 0
        for expected in pattern.utf8 {
            if expected == UInt8(ascii: "*"), previous == UInt8(ascii: "[") {
                let digits = bytes[at...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard !digits.isEmpty else { return false }
                at = digits.endIndex
            } else {
                guard at < bytes.endIndex, bytes[at] == expected else { return false }
                at += 1
            }
            previous = expected
        }
        return at == bytes.endIndex
    }

    /// Where the matcher is in an object's groups.
    private struct Cursor {
        let groupCount: Int
        let typeString: (Int) -> ArraySlice<UInt8>?
        let integer: (Int, Int) -> Int64?
        let layouts: (String) -> [ClassLayout]
        var position = 0

        /// Matches the whole chain (most derived first) from the first group.
        mutating func match(_ chain: [ArchiveClassLink]) -> LayoutMatch? {
            var matched: [LayoutMatch.GroupFields] = []
            matched.reserveCapacity(groupCount)
            for link in chain.reversed() {
                let candidates = layouts(link.name).filter { $0.versions.contains(link.version) }
                var taken: [LayoutMatch.GroupFields]?
                for layout in candidates {
                    taken = take(layout, alreadyMatched: matched)
                    if taken != nil { break }
                }
                guard let taken else { return nil }
                matched += taken
                position += taken.count
            }
            return position == groupCount ? LayoutMatch(groups: matched) : nil
        }

        /// Whether group `index` exists and has the type string `expected`.
        func group(_ index: Int, is expected: String) -> Bool {
            guard index < groupCount else { return false }
            guard let bytes = typeString(index) else { return expected == "@" }
            return ClassLayouts.typeString(bytes, matches: expected)
        }

        /// The groups `layout` takes from ``position`` on, or `nil` when its steps do not fit;
        /// counted steps read their count from the fields matched so far (`alreadyMatched`, then
        /// this layout's own).
        func take(_ layout: ClassLayout, alreadyMatched: [LayoutMatch.GroupFields]) -> [LayoutMatch.GroupFields]? {
            var taken: [LayoutMatch.GroupFields] = []
            var next = position
            for step in layout.steps {
                let one = { (index: Int, repeated: Bool) in
                    LayoutMatch.GroupFields(className: layout.className, fields: step.fields, repeatIndex: index, isRepeated: repeated)
                }
                switch step.repetition {
                case .once:
                    guard group(next, is: step.typeString) else { return nil }
                    taken.append(one(0, false))
                    next += 1
                case .optional:
                    if group(next, is: step.typeString) {
                        taken.append(one(0, false))
                        next += 1
                    }
                case .any:
                    var index = 0
                    while group(next, is: step.typeString) {
                        taken.append(one(index, true))
                        next += 1
                        index += 1
                    }
                case .counted(let field):
                    guard let count = value(ofField: field, in: alreadyMatched + taken),
                          count >= 0, count <= Int64(groupCount - next) else { return nil }
                    for index in 0..<Int(count) {
                        guard group(next, is: step.typeString) else { return nil }
                        taken.append(one(index, true))
                        next += 1
                    }
                }
            }
            return taken
        }

        /// The integer value of the last field named `name` in `groups` (the object's groups
        /// from its first on).
        private func value(ofField name: String, in groups: [LayoutMatch.GroupFields]) -> Int64? {
            for (groupIndex, group) in groups.enumerated().reversed() {
                if let valueIndex = group.fields.lastIndex(where: { $0.name == name }) {
                    return integer(groupIndex, valueIndex)
                }
            }
            return nil
        }
    }
}
